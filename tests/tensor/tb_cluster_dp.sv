`default_nettype none
// Bench top for ktpu_cluster_dp (the harness drives its ports directly).
module tb_cluster_dp (
  input  wire             clk_i,
  input  wire             rst_i,
  input  wire             en_i,
  input  wire             valid_i,
  input  wire  [895:0]    a_i,
  input  wire  [895:0]    b_i,
  output wire             valid_o,
  output wire  [303:0]    partial_o
);
`ifdef KTPU_GLBL
  // The vendor model reaches glbl.GSR upwards from every DSP48E2.
  glbl glbl ();
`endif
  ktpu_cluster_dp u_dut (.clk_i, .rst_i, .en_i, .valid_i, .a_i, .b_i, .valid_o, .partial_o);
endmodule
`default_nettype wire
