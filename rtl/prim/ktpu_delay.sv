`default_nettype none
// Delay line: q_o is d_o delayed by Depth enabled cycles (Depth = 0 is a wire).
// Written as a plain shift register with a clock enable and no reset, which is
// what maps to SRL16E/SRL32E (one LUT per bit at any depth up to 16/32):
// Yosys (shregmap) packs chains of 3 or more; shorter ones stay flip-flops,
// which cost no LUTs. A reset would forbid the SRL, so callers must not need
// the contents after reset: the datapath's valid travels in its own
// resettable pipeline, never in here.
module ktpu_delay #(
  parameter int unsigned Width = 1,
  parameter int unsigned Depth = 1
) (
  input  wire              clk_i,
  input  wire              en_i,
  input  wire  [Width-1:0] d_i,
  output wire  [Width-1:0] q_o
);
  if (Width < 1) begin : gen_bad_width
    $fatal(1, "ktpu_delay: Width must be at least 1");
  end

  if (Depth == 0) begin : gen_wire
    assign q_o = d_i;
    // The clock and enable are unused for a zero-depth line.
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_ok = ^{clk_i, en_i};
    /* verilator lint_on UNUSEDSIGNAL */
  end else begin : gen_shift
    (* srl_style = "srl" *) logic [Width-1:0] sr_q [Depth];
    always_ff @(posedge clk_i) begin
      if (en_i) begin
        sr_q[0] <= d_i;
        for (int unsigned s = 1; s < Depth; s++) sr_q[s] <= sr_q[s-1];
      end
    end
    assign q_o = sr_q[Depth-1];
  end
endmodule
`default_nettype wire
