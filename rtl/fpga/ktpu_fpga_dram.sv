// ktpu_fpga_dram: the board build's accelerator DRAM in on-chip block RAM
// (docs/fpga.md): 2^AddrBits bytes behind Ports ports of the SoC's DRAM
// protocol (the contract of rtl/mem/ktpu_dram.sv, docs/soc.md: byte
// addresses of 32-byte beats, a write applied when accepted under its byte
// strobes, every request answered by one response with its tag, in
// acceptance order per port, a write's with zero data). The top reaches it
// over AXI4 (ktpu_axi_dram_port: two of its ports per SoC DRAM port, one for
// reads, one for writes); a DDR4 controller takes its place on a board that
// has one (docs/fpga.md). 2 MiB of it is 512 RAMB36.
//
// One request is served per cycle over all ports (round-robin among those
// waiting), so a read accepted after a write on any port sees it. The beat
// is 32 byte lanes, each a ktpu_ram "block" of 8 bits (the wrapper has no
// byte enables: a lane is written when its strobe is set), read latency 2.
// Each port's responses wait in its own FIFO (RspDepth, LUTRAM); a port is
// offered the memory only while its FIFO has room for everything in flight.
`default_nettype none

module ktpu_fpga_dram #(
  parameter int Ports    = 2,
  parameter int AddrBits = 21,
  parameter int RspDepth = 8
) (
  input  wire logic                      clk_i,
  input  wire logic                      rst_i,
  input  wire logic [Ports-1:0]          req_valid_i,
  output logic      [Ports-1:0]          req_ready_o,
  input  wire logic [Ports-1:0]          req_write_i,
  input  wire logic [Ports*AddrBits-1:0] req_addr_i,
  input  wire logic [Ports*256-1:0]      req_wdata_i,
  input  wire logic [Ports*32-1:0]       req_wstrb_i,
  input  wire logic [Ports*8-1:0]        req_tag_i,
  output logic      [Ports-1:0]          rsp_valid_o,
  input  wire logic [Ports-1:0]          rsp_ready_i,
  output logic      [Ports*256-1:0]      rsp_rdata_o,
  output logic      [Ports*8-1:0]        rsp_tag_o
);
  localparam int BW = AddrBits - 5;            // beat address bits
  localparam int PW = Ports > 1 ? $clog2(Ports) : 1;
  localparam int CW = $clog2(RspDepth + 1);
  localparam int Lat = 2;                      // ktpu_ram ReadLatency below

  if (Ports < 1 || AddrBits < 6 || RspDepth < 4) begin : gen_bad_params
    $error("ktpu_fpga_dram: need Ports >= 1, AddrBits >= 6, RspDepth >= 4");
  end

  // ---------------------------------------------------------------- arbiter
  logic [Ports-1:0] room;
  logic [CW-1:0]    fill [Ports];               // FIFO entries + requests in flight
  logic [PW-1:0]    last_q, pick;
  logic             any;
  logic [PW-1:0]    cand;
  always_comb begin
    any = 1'b0;
    pick = last_q;
    // the first waiting port after the one served last
    for (int k = 1; k <= Ports; k++) begin
      cand = PW'((int'(last_q) + k) % Ports);
      if (!any && req_valid_i[cand] && room[cand]) begin
        any = 1'b1;
        pick = cand;
      end
    end
  end
  always_comb for (int p = 0; p < Ports; p++) req_ready_o[p] = any && pick == PW'(p);
  always_ff @(posedge clk_i) begin
    if (rst_i) last_q <= PW'(Ports - 1);
    else if (any) last_q <= pick;
  end

  logic          wr;
  logic [BW-1:0] beat;
  logic [255:0]  wdata;
  logic [31:0]   wstrb;
  assign wr    = any && req_write_i[pick];
  assign beat  = req_addr_i[int'(pick)*AddrBits + 5 +: BW];
  assign wdata = req_wdata_i[int'(pick)*256 +: 256];
  assign wstrb = req_wstrb_i[int'(pick)*32 +: 32];

  // ---------------------------------------------------------------- memory
  logic [255:0] rdata;
  for (genvar b = 0; b < 32; b++) begin : gen_lane
    ktpu_ram #(.Width(8), .Depth(1 << BW), .ReadLatency(Lat), .Primitive("block")) u_lane (
      .clk_i,
      .we_i   (wr && wstrb[b]),
      .waddr_i(beat),
      .wdata_i(wdata[8*b +: 8]),
      .re_i   (any && !wr),
      .raddr_i(beat),
      .rdata_o(rdata[8*b +: 8])
    );
  end

  // the request's port, tag and kind beside the RAM's latency
  logic          v_q   [Lat];
  logic          w_q   [Lat];
  logic [PW-1:0] p_q   [Lat];
  logic [7:0]    tag_q [Lat];
  always_ff @(posedge clk_i) begin
    for (int s = 0; s < Lat; s++) begin
      if (rst_i) v_q[s] <= 1'b0;
      else v_q[s] <= s == 0 ? any : v_q[s-1];
      w_q[s]   <= s == 0 ? wr : w_q[s-1];
      p_q[s]   <= s == 0 ? pick : p_q[s-1];
      tag_q[s] <= s == 0 ? req_tag_i[int'(pick)*8 +: 8] : tag_q[s-1];
    end
  end

  // ---------------------------------------------------------------- responses
  for (genvar p = 0; p < Ports; p++) begin : gen_port
    logic         push, empty, full;
    logic [CW-1:0] count;
    logic [263:0] head;
    logic [CW-1:0] inflight;
    assign push = v_q[Lat-1] && p_q[Lat-1] == PW'(p);
    always_comb begin
      inflight = '0;
      for (int s = 0; s < Lat; s++) if (v_q[s] && p_q[s] == PW'(p)) inflight = inflight + CW'(1);
    end
    assign fill[p] = count + inflight;
    assign room[p] = fill[p] < CW'(RspDepth);
    ktpu_fifo #(.Width(264), .Depth(RspDepth), .Primitive("distributed"), .Name("ktpu_fpga_dram rsp")) u_rsp (
      .clk_i, .rst_ni(!rst_i),
      .push_i (push),
      .wdata_i({tag_q[Lat-1], w_q[Lat-1] ? 256'd0 : rdata}),
      .pop_i  (rsp_valid_o[p] && rsp_ready_i[p]),
      .rdata_o(head),
      .empty_o(empty),
      .full_o (full),
      .count_o(count)
    );
    assign rsp_valid_o[p] = !empty;
    assign rsp_rdata_o[256*p +: 256] = head[255:0];
    assign rsp_tag_o[8*p +: 8] = head[263:256];
    logic unused;
    assign unused = full;
  end
endmodule

`default_nettype wire
