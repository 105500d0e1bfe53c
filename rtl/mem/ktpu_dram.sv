// ktpu_dram: simulation model of the accelerator DRAM (SPEC §8). Not for
// synthesis: on an FPGA the memory controller takes its place.
//
// Ports independent request/response channels, each one 256-bit beat per
// cycle. Contract, per port (docs/soc.md has the full text):
//   - A request is accepted on req_valid_i && req_ready_o. req_addr_i is the
//     byte address of a 32-byte beat (bits 4:0 must be zero; an assertion
//     checks it). The address space is 2^AddrBits bytes from 0.
//   - A write is applied to memory in the cycle it is accepted, under
//     req_wstrb_i (one bit per byte, bit i = byte i of the beat).
//   - Every accepted request, read or write, is answered by exactly one
//     response beat carrying its tag; responses leave in acceptance order,
//     the first possible cycle being Latency cycles after acceptance. A read
//     returns the memory contents at its acceptance (so it sees every write
//     accepted before it on any port, and none accepted in the same cycle on
//     another port). A write's response carries rdata zero: it is the ack a
//     writer counts.
//   - A response is held until rsp_valid_o && rsp_ready_i.
//   - req_ready_o falls only when QueueDepth requests are in flight; at
//     Latency < QueueDepth a port sustains one beat per cycle.
//   - Two ports writing the same byte in one cycle: the higher port wins.
// Latency is ReadLatency unless the plusarg +ktpu_dram_latency=N (N >= 1)
// overrides it at run time; +ktpu_dram_slow_ports=MASK (hex) with
// +ktpu_dram_slow_latency=N gives the ports whose bits MASK sets latency N
// instead (one memory agent's ports slower than the other's: docs/soc.md).
//
// Backdoor for harnesses (Verilator DPI, exported from this module; call
// svSetScope() with the instance's scope first when there are several):
//   ktpu_dram_bd_write32(addr, data)  writes a 32-bit word, addr word aligned
//   ktpu_dram_bd_read32(addr)         returns a 32-bit word
//   ktpu_dram_bd_bytes()              returns 2^AddrBits
// Addresses at or above 2^AddrBits are ignored by the write and read as 0.
`default_nettype none

module ktpu_dram #(
  parameter int Ports       = 1,
  parameter int AddrBits    = 24,
  parameter int ReadLatency = 64,
  parameter int QueueDepth  = 256
) (
  input  wire logic                    clk_i,
  input  wire logic                    rst_i,
  input  wire logic [Ports-1:0]        req_valid_i,
  output logic      [Ports-1:0]        req_ready_o,
  input  wire logic [Ports-1:0]        req_write_i,
  input  wire logic [Ports*AddrBits-1:0] req_addr_i,
  input  wire logic [Ports*256-1:0]    req_wdata_i,
  input  wire logic [Ports*32-1:0]     req_wstrb_i,
  input  wire logic [Ports*8-1:0]      req_tag_i,
  output logic      [Ports-1:0]        rsp_valid_o,
  input  wire logic [Ports-1:0]        rsp_ready_i,
  output logic      [Ports*256-1:0]    rsp_rdata_o,
  output logic      [Ports*8-1:0]      rsp_tag_o
);
  localparam int Beats  = 1 << (AddrBits - 5);
  localparam int QBits  = $clog2(QueueDepth);

  if (Ports < 1 || AddrBits < 6 || AddrBits > 28 || ReadLatency < 1 ||
      QueueDepth < 2 || (1 << QBits) != QueueDepth) begin : gen_bad_params
    $error("ktpu_dram: need Ports >= 1, 6 <= AddrBits <= 28, ReadLatency >= 1, QueueDepth a power of two >= 2");
  end

  logic [255:0] mem [Beats];

  // Run-time latency per port; fixed after time 0 so due times stay
  // monotonic and a plain FIFO keeps each port's responses in order.
  int unsigned latency [Ports];
  initial begin
    int unsigned lat, slow_lat, slow;
    lat = ReadLatency;
    if ($value$plusargs("ktpu_dram_latency=%d", lat) && lat < 1)
      $fatal(1, "ktpu_dram: +ktpu_dram_latency must be >= 1");
    slow = 0;
    slow_lat = lat;
    if ($value$plusargs("ktpu_dram_slow_ports=%h", slow) &&
        (!$value$plusargs("ktpu_dram_slow_latency=%d", slow_lat) || slow_lat < 1))
      $fatal(1, "ktpu_dram: +ktpu_dram_slow_ports needs +ktpu_dram_slow_latency >= 1");
    for (int p = 0; p < Ports; p++) latency[p] = p < 32 && slow[p] ? slow_lat : lat;
  end

  logic [63:0] now_q;

  // Per-port in-flight queue, flattened as [port*QueueDepth + slot].
  logic [255:0]     q_data [Ports*QueueDepth];
  logic [7:0]       q_tag  [Ports*QueueDepth];
  logic [63:0]      q_due  [Ports*QueueDepth];
  logic [QBits-1:0] q_head [Ports];
  logic [QBits-1:0] q_tail [Ports];
  logic [QBits:0]   q_count [Ports];

  // Simulation speed: the model's clock runs only while a request arrives
  // or one is in flight. The cycle count now_q then stops with it, which
  // changes no answer: a due time is only ever compared while its request
  // is in flight, and every cycle of that is clocked.
  logic mclk, in_flight;
  always_comb begin
    in_flight = 1'b0;
    for (int p = 0; p < Ports; p++) in_flight = in_flight || q_count[p] != '0;
  end
  ktpu_clk_gate u_gate (.clk_i(clk_i), .en_i(rst_i || |req_valid_i || in_flight), .gclk_o(mclk));

  logic [Ports-1:0] acc, pop;
  always_comb begin
    for (int p = 0; p < Ports; p++) begin
      req_ready_o[p] = (q_count[p] != (QBits+1)'(QueueDepth));
      acc[p]         = req_valid_i[p] && req_ready_o[p];
      rsp_valid_o[p] = (q_count[p] != '0) && (q_due[p*QueueDepth + int'(q_head[p])] <= now_q);
      rsp_rdata_o[p*256 +: 256] = q_data[p*QueueDepth + int'(q_head[p])];
      rsp_tag_o[p*8 +: 8]       = q_tag[p*QueueDepth + int'(q_head[p])];
      pop[p]         = rsp_valid_o[p] && rsp_ready_i[p];
    end
  end

  always_ff @(posedge mclk) begin
    if (rst_i) begin
      now_q <= 64'd0;
      for (int p = 0; p < Ports; p++) begin
        q_head[p]  <= '0;
        q_tail[p]  <= '0;
        q_count[p] <= '0;
      end
    end else begin
      now_q <= now_q + 64'd1;
      for (int p = 0; p < Ports; p++) begin
        if (acc[p]) begin
          q_data[p*QueueDepth + int'(q_tail[p])] <= req_write_i[p] ? 256'd0
              : mem[req_addr_i[p*AddrBits + 5 +: AddrBits - 5]];
          q_tag[p*QueueDepth + int'(q_tail[p])]  <= req_tag_i[p*8 +: 8];
          q_due[p*QueueDepth + int'(q_tail[p])]  <= now_q + 64'(latency[p]);
          q_tail[p] <= q_tail[p] + 1'b1;
        end
        if (pop[p]) q_head[p] <= q_head[p] + 1'b1;
        q_count[p] <= q_count[p] + (QBits+1)'(acc[p]) - (QBits+1)'(pop[p]);
      end
    end
  end

  // Writes: applied at acceptance, byte by byte, ports in order.
  always_ff @(posedge mclk) begin
    for (int p = 0; p < Ports; p++) begin
      if (!rst_i && acc[p] && req_write_i[p]) begin
        for (int b = 0; b < 32; b++) begin
          if (req_wstrb_i[p*32 + b])
            mem[req_addr_i[p*AddrBits + 5 +: AddrBits - 5]][b*8 +: 8] <= req_wdata_i[p*256 + b*8 +: 8];
        end
      end
    end
  end

  // A request to a beat address with low bits set is a caller bug: the model
  // would silently round it down, so stop instead.
  always_ff @(posedge mclk) begin
    for (int p = 0; p < Ports; p++) begin
      if (!rst_i && acc[p] && req_addr_i[p*AddrBits +: 5] != 5'd0)
        $fatal(1, "ktpu_dram: port %0d request address 0x%0h is not 32-byte aligned",
               p, req_addr_i[p*AddrBits +: AddrBits]);
    end
  end

`ifdef VERILATOR
  export "DPI-C" function ktpu_dram_bd_write32;
  export "DPI-C" function ktpu_dram_bd_read32;
  export "DPI-C" function ktpu_dram_bd_bytes;

  function automatic void ktpu_dram_bd_write32(input int unsigned addr, input int unsigned data);
    if (addr < (32'd1 << AddrBits))
      mem[addr[AddrBits-1:5]][addr[4:2]*32 +: 32] = data;
  endfunction

  function automatic int unsigned ktpu_dram_bd_read32(input int unsigned addr);
    if (addr < (32'd1 << AddrBits))
      return mem[addr[AddrBits-1:5]][addr[4:2]*32 +: 32];
    return 32'd0;
  endfunction

  function automatic int unsigned ktpu_dram_bd_bytes();
    return 32'd1 << AddrBits;
  endfunction
`endif

endmodule

`default_nettype wire
