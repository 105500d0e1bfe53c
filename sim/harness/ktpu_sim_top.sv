// ktpu_sim_top: what build/ktpu-sim simulates: the SoC and the DRAM model
// behind its window. Everything the harness drives or watches is a port here.
`default_nettype none

module ktpu_sim_top (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  input  wire logic        ld_valid_i,
  input  wire logic [31:0] ld_addr_i,
  input  wire logic [3:0]  ld_be_i,
  input  wire logic [31:0] ld_data_i,
  output logic             uart_tx_valid_o,
  output logic [7:0]       uart_tx_data_o,
  input  wire logic        uart_rx_valid_i,
  input  wire logic [7:0]  uart_rx_data_i,
  output logic             uart_rx_ready_o,
  output logic             sim_exit_valid_o,
  output logic [30:0]      sim_exit_code_o,
  output logic             mbox_valid_o,
  output logic [31:0]      mbox_cmd_o,
  output logic [31:0]      mbox_arg0_o,
  output logic [31:0]      mbox_arg1_o,
  input  wire logic [31:0] mbox_resp_i
);
  localparam int DramAddrBits = $clog2(ktpu_pkg::DRAM_SIM_BYTES);

  logic         req_valid, req_ready, req_write, rsp_valid, rsp_ready;
  logic [DramAddrBits-1:0] req_addr;
  logic [255:0] req_wdata, rsp_rdata;
  logic [31:0]  req_wstrb;
  logic [7:0]   req_tag, rsp_tag;
  logic         unused_mesh_tx_valid, unused_mesh_rx_ready;
  logic [287:0] unused_mesh_tx_flit;

  ktpu_soc #(.DramAddrBits(DramAddrBits), .MeshLoopback(1'b1)) u_soc (
    .clk_i, .rst_i,
    .ld_valid_i, .ld_addr_i, .ld_be_i, .ld_data_i,
    .uart_tx_valid_o, .uart_tx_data_o, .uart_tx_ready_i(1'b1),
    .uart_rx_valid_i, .uart_rx_data_i, .uart_rx_ready_o,
    .sim_exit_valid_o, .sim_exit_code_o,
    .mbox_valid_o, .mbox_cmd_o, .mbox_arg0_o, .mbox_arg1_o, .mbox_resp_i,
    .mesh_tx_valid_o(unused_mesh_tx_valid),
    .mesh_tx_flit_o (unused_mesh_tx_flit),
    .mesh_tx_ready_i(1'b0),
    .mesh_rx_valid_i(1'b0),
    .mesh_rx_flit_i ('0),
    .mesh_rx_ready_o(unused_mesh_rx_ready),
    .dram_req_valid_o(req_valid), .dram_req_ready_i(req_ready), .dram_req_write_o(req_write),
    .dram_req_addr_o (req_addr),  .dram_req_wdata_o(req_wdata), .dram_req_wstrb_o(req_wstrb),
    .dram_req_tag_o  (req_tag),   .dram_rsp_valid_i(rsp_valid), .dram_rsp_ready_o(rsp_ready),
    .dram_rsp_rdata_i(rsp_rdata), .dram_rsp_tag_i  (rsp_tag)
  );

  ktpu_dram #(.Ports(1), .AddrBits(DramAddrBits)) u_dram (
    .clk_i, .rst_i,
    .req_valid_i(req_valid), .req_ready_o(req_ready), .req_write_i(req_write),
    .req_addr_i (req_addr),  .req_wdata_i(req_wdata), .req_wstrb_i(req_wstrb),
    .req_tag_i  (req_tag),   .rsp_valid_o(rsp_valid), .rsp_ready_i(rsp_ready),
    .rsp_rdata_o(rsp_rdata), .rsp_tag_o  (rsp_tag)
  );
endmodule

`default_nettype wire
