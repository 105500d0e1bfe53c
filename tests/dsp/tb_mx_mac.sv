`default_nettype none
// Bench top for ktpu_mx_mac: one instance with every adder input in use
// (Z = PCIN, W = C) and one with neither (a chain's first stage), same operands.
module tb_mx_mac (
  input  wire         clk_i,
  input  wire         en_i,
  input  wire  [6:0]  w1_i,
  input  wire  [6:0]  w0_i,
  input  wire  [6:0]  a_i,
  input  wire  [47:0] c_i,
  input  wire  [47:0] pcin_i,
  output wire  [47:0] p_o,
  output wire  [47:0] pcout_o,
  output wire  [47:0] p_plain_o
);
`ifdef KTPU_GLBL
  // The vendor model reaches glbl.GSR upwards from every DSP48E2.
  glbl glbl ();
`endif
  ktpu_mx_mac #(.CascadeIn(1'b1), .AddC(1'b1)) u_full (
    .clk_i, .en_i, .w1_i, .w0_i, .a_i, .c_i, .pcin_i, .p_o, .pcout_o
  );
  /* verilator lint_off UNUSEDSIGNAL */
  wire [47:0] plain_pcout;
  /* verilator lint_on UNUSEDSIGNAL */
  ktpu_mx_mac u_plain (
    .clk_i, .en_i, .w1_i, .w0_i, .a_i, .c_i, .pcin_i, .p_o(p_plain_o), .pcout_o(plain_pcout)
  );
endmodule
`default_nettype wire
