`default_nettype none
// Bench top joining the cluster datapath and the accumulator, as the cluster
// node will: a command is accepted together with its operand pair (the
// datapath's valid_i is the accepted command), so every command takes one
// chain slot. The scale bytes do not travel through ktpu_cluster_dp, so
// here they ride a delay line of the datapath's latency with the same
// enable -- the node must do the same (or the datapath must carry them).
module tb_cluster_acc (
  input  wire           clk_i,
  input  wire           rst_ni,
  input  wire           cmd_valid_i,
  output wire           cmd_ready_o,
  input  wire  [2:0]    cmd_op_i,
  input  wire  [8:0]    cmd_addr_i,
  input  wire  [895:0]  a_i,
  input  wire  [895:0]  b_i,
  input  wire  [31:0]   sa_i,
  input  wire  [31:0]   sb_i,
  output wire           emit_valid_o,
  input  wire           emit_ready_i,
  output wire  [255:0]  emit_data_o,
  output wire  [8:0]    emit_addr_o,
  output wire           busy_o,
  output wire  [2:0]    flags_o
);
`ifdef KTPU_GLBL
  glbl glbl ();
`endif
  wire          issue = cmd_valid_i && cmd_ready_o;
  wire          dp_valid;
  wire [303:0]  partial;
  wire [63:0]   scales;

  ktpu_cluster_dp u_dp (
    .clk_i(clk_i), .rst_i(!rst_ni), .en_i(1'b1), .valid_i(issue), .a_i(a_i), .b_i(b_i),
    .valid_o(dp_valid), .partial_o(partial)
  );
  ktpu_delay #(.Width(64), .Depth(ktpu_pkg::CLUSTER_DP_LATENCY)) u_scales (
    .clk_i(clk_i), .en_i(1'b1), .d_i({sb_i, sa_i}), .q_o(scales)
  );

  /* verilator lint_off PINCONNECTEMPTY */
  ktpu_acc u_acc (
    .clk_i(clk_i), .rst_ni(rst_ni),
    .cmd_valid_i(cmd_valid_i), .cmd_ready_o(cmd_ready_o), .cmd_op_i(cmd_op_i), .cmd_addr_i(cmd_addr_i),
    .res_valid_i(dp_valid), .res_p_i(partial), .res_sa_i(scales[31:0]), .res_sb_i(scales[63:32]),
    .peer_in_valid_i(1'b0), .peer_in_ready_o(), .peer_in_data_i(352'd0),
    .peer_out_valid_o(), .peer_out_ready_i(1'b1), .peer_out_data_o(), .peer_out_addr_o(),
    .emit_valid_o(emit_valid_o), .emit_ready_i(emit_ready_i), .emit_data_o(emit_data_o),
    .emit_addr_o(emit_addr_o),
    .busy_o(busy_o), .inflight_o(), .flags_o(flags_o), .stat_clear_i(1'b0),
    .cnt_acc_ovf_o(), .cnt_acc_unf_o(), .cnt_f16_ovf_o()
  );
  /* verilator lint_on PINCONNECTEMPTY */
endmodule
`default_nettype wire
