`default_nettype none
// Clock gate: gclk_o follows clk_i in the cycles whose en_i was high at the
// falling edge before them, and stays low in the others (glitch-free: en_i
// is taken while clk_i is low, so gclk_o never starts or ends mid-pulse).
// The gated logic and the rest of the design are one synchronous clock
// domain: a gated register samples, at the rising edge it sees, the same
// values every free-running register does.
//   - simulation and Yosys: a falling-edge enable register and an AND;
//   - FPGA build with +define+KTPU_XPM (the vendor's libraries present): a
//     BUFGCE (CE_TYPE "SYNC", glitch-free), a global clock buffer per gated
//     block. It passes or blocks a clock pulse by CE as it was set up
//     before that pulse's rising edge (UG572, BUFGCE_1 and BUFGCTRL), a
//     full-cycle path; the model samples en_i at the falling edge instead,
//     which is the same whenever en_i settles in the first half of the
//     cycle, as it always does in a zero-delay simulation.
// What it is for: a block with nothing to do costs no clock power on the
// board and no evaluation in Verilator, where a gated block's logic runs
// only at the edges it sees (docs/simulation.md, "Idle clusters").
module ktpu_clk_gate (
  input  wire  clk_i,
  input  wire  en_i,     // settled before clk_i falls
  output logic gclk_o
);
`ifdef KTPU_XPM
  BUFGCE #(.CE_TYPE("SYNC")) u_bufgce (.I(clk_i), .CE(en_i), .O(gclk_o));
`else
  // In simulation open at power-up (the one register with an initial value
  // there; on the device every register has one): the first clock edge
  // reaches the gated block like every other, so a reset applied from time
  // 0 resets all blocks at the same edge. Starting random, a gated block
  // could miss the first reset edge and drive its reset-time garbage into
  // a neighbour that already counts reset cycles (the AXI4 checker's "a
  // VALID is high in reset", seen once the DRAM model and the ports were
  // gated). Not for Yosys: with the initial value the router maps to 3,873
  // LUTs and 13 levels instead of 2,772 and 12.
`ifdef SYNTHESIS
  logic en_q;
`else
  logic en_q = 1'b1;
`endif
  always_ff @(negedge clk_i) en_q <= en_i;
  assign gclk_o = clk_i & en_q;
`endif
endmodule
`default_nettype wire
