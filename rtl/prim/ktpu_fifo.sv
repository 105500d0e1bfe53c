`default_nettype none
// Generic synchronous FIFO, first-word fall-through: while empty_o is low,
// rdata_o is the oldest entry and pop_i removes it.
//
// Storage is the RAM wrapper (ktpu_ram, read latency 1, primitive named by
// the instantiating block), whose read port holds its output while re_i is
// low; that output register *is* the FIFO head, so the head costs no extra
// register or mux. A read is issued whenever the head is free (empty or being
// popped) and the RAM holds an entry, so pops can run every cycle.
//
// Timing: an entry pushed in cycle k is at the head (empty_o low) in cycle
// k+2. Pushing when full and popping when empty are errors in the caller;
// simulation stops on either.
module ktpu_fifo #(
  parameter int unsigned Width     = 8,
  parameter int unsigned Depth     = 16,        // a power of two, >= 2
  parameter              Primitive = "distributed",
  parameter              Name      = "ktpu_fifo" // for the assertion messages
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,     // synchronous, active low
  input  logic                     push_i,
  input  logic [Width-1:0]         wdata_i,
  input  logic                     pop_i,
  output logic [Width-1:0]         rdata_o,
  output logic                     empty_o,
  output logic                     full_o,
  output logic [$clog2(Depth+1)-1:0] count_o
);
  localparam int unsigned AW = $clog2(Depth);
  localparam int unsigned CW = $clog2(Depth + 1);

  if (Depth < 2 || (1 << AW) != Depth) begin : gen_bad_depth
    $fatal(1, "ktpu_fifo: Depth must be a power of two >= 2");
  end

  logic [AW-1:0] wptr_q, rptr_q;
  logic [CW-1:0] ram_cnt_q;    // entries in the RAM not yet read out
  logic [CW-1:0] cnt_q;        // every entry (the RAM's and the head): pushes - pops
  logic          head_q;       // the RAM output register holds the head
  logic          re;

  // count and full from a register of their own, not summed from the RAM's
  // count and the head: callers decide their ready from them (docs/timing.md)
  assign re      = (ram_cnt_q != '0) && (!head_q || pop_i);
  assign empty_o = !head_q;
  assign count_o = cnt_q;
  assign full_o  = (cnt_q == CW'(Depth));

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      wptr_q    <= '0;
      rptr_q    <= '0;
      ram_cnt_q <= '0;
      cnt_q     <= '0;
      head_q    <= 1'b0;
    end else begin
      if (push_i) wptr_q <= wptr_q + AW'(1);
      if (re)     rptr_q <= rptr_q + AW'(1);
      ram_cnt_q <= ram_cnt_q + CW'(push_i) - CW'(re);
      cnt_q     <= cnt_q + CW'(push_i) - CW'(pop_i);
      if (re)         head_q <= 1'b1;
      else if (pop_i) head_q <= 1'b0;
    end
  end

  ktpu_ram #(
    .Width       (Width),
    .Depth       (Depth),
    .ReadLatency (1),
    .Primitive   (Primitive)
  ) u_ram (
    .clk_i   (clk_i),
    .we_i    (push_i),
    .waddr_i (wptr_q),
    .wdata_i (wdata_i),
    .re_i    (re),
    .raddr_i (rptr_q),
    .rdata_o (rdata_o)
  );

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (push_i && full_o)   $error("%s: overflow (push while full, %0d entries)", Name, Depth);
      if (pop_i && empty_o)   $error("%s: underflow (pop while empty)", Name);
      assert (cnt_q == ram_cnt_q + CW'(head_q)) else $error("%s: count %0d, entries %0d", Name, cnt_q, ram_cnt_q + CW'(head_q));
    end
  end
`endif
endmodule
`default_nettype wire
