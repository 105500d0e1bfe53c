// Bench top for the memory agent: ktpu_mem_agent on one port of ktpu_dram.
// The harness (mem_agent_tb.cpp) plays the mesh on both planes and uses the
// DRAM's DPI backdoor.
`default_nettype none

module mem_agent_top #(
  parameter int RspDepth = 128,
  parameter bit Split    = 0,     // built as on the two-agent machine (MEM_STREAMS_SPLIT streams)
  parameter int GroupWait = 20000 // a partial grouped read's wait: short, so the bench sees it expire
) (
  input  wire logic         clk_i,
  input  wire logic         rst_i,
  input  wire logic         req_valid_i,
  output logic              req_ready_o,
  input  wire logic [287:0] req_flit_i,
  output logic              rsp_valid_o,
  input  wire logic         rsp_ready_i,
  output logic      [287:0] rsp_flit_o,
  input  wire logic [31:0]  win_base_i,
  input  wire logic [31:0]  win_limit_i,
  output logic      [31:0]  win_err_count_o,
  output logic      [31:0]  bad_req_count_o,
  output logic      [31:0]  nonfinite_count_o,
  output logic      [31:0]  nonfinite_addr_o,
  output logic              dram_busy_o,      // a DRAM request offered this cycle
  output logic      [31:0]  gated_o           // cycles with the agent's clock stopped
);
  logic         d_req_valid, d_req_ready, d_req_write, d_rsp_valid, d_rsp_ready;
  logic [23:0]  d_req_addr;
  logic [255:0] d_req_wdata, d_rsp_rdata;
  logic [31:0]  d_req_wstrb;
  logic [7:0]   d_req_tag, d_rsp_tag;

  ktpu_mem_agent #(.X(1), .Y(0), .AddrBits(24), .RspDepth(RspDepth),
                   .QueueDepth(Split ? ktpu_pkg::MEM_STREAMS_SPLIT : ktpu_pkg::MEM_STREAMS),
                   .GroupWait(GroupWait)) u_agent (
    .clk_i, .rst_i,
    .req_valid_i, .req_ready_o, .req_flit_i,
    .rsp_valid_o, .rsp_ready_i, .rsp_flit_o,
    .dram_req_valid_o(d_req_valid), .dram_req_ready_i(d_req_ready),
    .dram_req_write_o(d_req_write), .dram_req_addr_o(d_req_addr),
    .dram_req_wdata_o(d_req_wdata), .dram_req_wstrb_o(d_req_wstrb), .dram_req_tag_o(d_req_tag),
    .dram_rsp_valid_i(d_rsp_valid), .dram_rsp_ready_o(d_rsp_ready),
    .dram_rsp_rdata_i(d_rsp_rdata), .dram_rsp_tag_i(d_rsp_tag),
    .win_base_i, .win_limit_i, .win_err_count_o, .bad_req_count_o,
    .nonfinite_count_o, .nonfinite_addr_o
  );

  ktpu_dram #(.Ports(1), .AddrBits(24), .ReadLatency(64)) u_dram (
    .clk_i, .rst_i,
    .req_valid_i(d_req_valid), .req_ready_o(d_req_ready), .req_write_i(d_req_write),
    .req_addr_i(d_req_addr), .req_wdata_i(d_req_wdata), .req_wstrb_i(d_req_wstrb),
    .req_tag_i(d_req_tag), .rsp_valid_o(d_rsp_valid), .rsp_ready_i(d_rsp_ready),
    .rsp_rdata_o(d_rsp_rdata), .rsp_tag_o(d_rsp_tag)
  );

  assign dram_busy_o = d_req_valid;
  always_ff @(posedge clk_i) gated_o <= rst_i ? '0 : gated_o + 32'(!u_agent.u_gate.en_q);
endmodule

`default_nettype wire
