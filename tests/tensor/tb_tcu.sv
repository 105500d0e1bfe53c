`default_nettype none
// Bench top for ktpu_tcu: a CU with the cross-CU input (CascadeIn, W = C) and
// a CU without it at an operand delay of 3, on the same operands.
module tb_tcu (
  input  wire           clk_i,
  input  wire           en_i,
  input  wire  [223:0]  a_i,
  input  wire  [223:0]  b_i,
  input  wire  [383:0]  c_i,
  output wire  [383:0]  p_o,
  output wire  [383:0]  p_d3_o
);
`ifdef KTPU_GLBL
  glbl glbl ();
`endif
  ktpu_tcu #(.InDelay(0), .CascadeIn(1'b1)) u_tcu (.clk_i, .en_i, .a_i, .b_i, .c_i, .p_o);
  ktpu_tcu #(.InDelay(3), .CascadeIn(1'b0)) u_tcu_d3 (
    .clk_i, .en_i, .a_i, .b_i, .c_i(384'd0), .p_o(p_d3_o));
endmodule
`default_nettype wire
