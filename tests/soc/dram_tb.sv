// dram_tb: ktpu_dram with two ports, small address space and queue, so the
// C++ bench can reach address conflicts and a full queue.
`default_nettype none
module dram_tb (
  input  wire logic           clk_i,
  input  wire logic           rst_i,
  input  wire logic [1:0]     req_valid_i,
  output logic      [1:0]     req_ready_o,
  input  wire logic [1:0]     req_write_i,
  input  wire logic [2*12-1:0] req_addr_i,
  input  wire logic [2*256-1:0] req_wdata_i,
  input  wire logic [2*32-1:0]  req_wstrb_i,
  input  wire logic [2*8-1:0]   req_tag_i,
  output logic      [1:0]     rsp_valid_o,
  input  wire logic [1:0]     rsp_ready_i,
  output logic      [2*256-1:0] rsp_rdata_o,
  output logic      [2*8-1:0]   rsp_tag_o
);
  ktpu_dram #(.Ports(2), .AddrBits(12), .ReadLatency(9), .QueueDepth(16)) u_dram (
    .clk_i, .rst_i, .req_valid_i, .req_ready_o, .req_write_i, .req_addr_i, .req_wdata_i,
    .req_wstrb_i, .req_tag_i, .rsp_valid_o, .rsp_ready_i, .rsp_rdata_o, .rsp_tag_o
  );
endmodule
`default_nettype wire
