// Bench top: the two mesh planes (request, response) with the memory agent
// and its DRAM at node Agent; the harness (noc_agent_tb.cpp) plays every
// other node on both planes.
`default_nettype none

module noc_agent_top #(
  parameter int Width  = 3,
  parameter int Height = 3,
  parameter int AgentX = 1,
  parameter int AgentY = 0
) (
  input  wire logic                        clk_i,
  input  wire logic                        rst_i,
  input  wire logic [Width*Height-1:0]     rq_in_valid_i,   // nodes -> request plane
  output logic      [Width*Height-1:0]     rq_in_ready_o,
  input  wire logic [Width*Height*288-1:0] rq_in_flit_i,
  output logic      [Width*Height-1:0]     rq_out_valid_o,  // request plane -> nodes
  input  wire logic [Width*Height-1:0]     rq_out_ready_i,
  output logic      [Width*Height*288-1:0] rq_out_flit_o,
  input  wire logic [Width*Height-1:0]     rs_in_valid_i,   // nodes -> response plane
  output logic      [Width*Height-1:0]     rs_in_ready_o,
  input  wire logic [Width*Height*288-1:0] rs_in_flit_i,
  output logic      [Width*Height-1:0]     rs_out_valid_o,  // response plane -> nodes
  input  wire logic [Width*Height-1:0]     rs_out_ready_i,
  output logic      [Width*Height*288-1:0] rs_out_flit_o,
  output logic      [31:0]                 stray_rq_o,
  output logic      [31:0]                 stray_rs_o,
  output logic      [31:0]                 nonfinite_count_o
);
  localparam int N = Width * Height;
  localparam int A = AgentY * Width + AgentX;

  logic [N-1:0]     rq_in_valid, rq_out_ready, rs_in_valid;
  logic [N*288-1:0] rq_in_flit, rs_in_flit;
  logic             a_req_valid, a_req_ready, a_rsp_valid, a_rsp_ready;
  logic [287:0]     a_req_flit, a_rsp_flit;

  // The agent's node: it sends nothing on the request plane, takes its
  // requests from it, and sends on the response plane.
  always_comb begin
    rq_in_valid = rq_in_valid_i;
    rq_in_flit  = rq_in_flit_i;
    rq_in_valid[A] = 1'b0;
    rq_out_ready = rq_out_ready_i;
    rq_out_ready[A] = a_req_ready;
    rs_in_valid = rs_in_valid_i;
    rs_in_flit  = rs_in_flit_i;
    rs_in_valid[A] = a_rsp_valid;
    rs_in_flit[A*288 +: 288] = a_rsp_flit;
  end
  assign a_req_valid = rq_out_valid_o[A];
  assign a_req_flit  = rq_out_flit_o[A*288 +: 288];
  assign a_rsp_ready = rs_in_ready_o[A];

  ktpu_mesh #(.Width(Width), .Height(Height)) u_rq (
    .clk_i, .rst_i,
    .node_in_valid_i(rq_in_valid), .node_in_ready_o(rq_in_ready_o), .node_in_flit_i(rq_in_flit),
    .node_out_valid_o(rq_out_valid_o), .node_out_ready_i(rq_out_ready),
    .node_out_flit_o(rq_out_flit_o), .stray_o(stray_rq_o)
  );
  ktpu_mesh #(.Width(Width), .Height(Height)) u_rs (
    .clk_i, .rst_i,
    .node_in_valid_i(rs_in_valid), .node_in_ready_o(rs_in_ready_o), .node_in_flit_i(rs_in_flit),
    .node_out_valid_o(rs_out_valid_o), .node_out_ready_i(rs_out_ready_i),
    .node_out_flit_o(rs_out_flit_o), .stray_o(stray_rs_o)
  );

  logic         d_req_valid, d_req_ready, d_req_write, d_rsp_valid, d_rsp_ready;
  logic [23:0]  d_req_addr;
  logic [255:0] d_req_wdata, d_rsp_rdata;
  logic [31:0]  d_req_wstrb;
  logic [7:0]   d_req_tag, d_rsp_tag;
  logic [31:0]  unused_win_err, unused_bad_req, unused_nf_addr;

  ktpu_mem_agent #(.X(AgentX), .Y(AgentY)) u_agent (
    .clk_i, .rst_i,
    .req_valid_i(a_req_valid), .req_ready_o(a_req_ready), .req_flit_i(a_req_flit),
    .rsp_valid_o(a_rsp_valid), .rsp_ready_i(a_rsp_ready), .rsp_flit_o(a_rsp_flit),
    .dram_req_valid_o(d_req_valid), .dram_req_ready_i(d_req_ready),
    .dram_req_write_o(d_req_write), .dram_req_addr_o(d_req_addr),
    .dram_req_wdata_o(d_req_wdata), .dram_req_wstrb_o(d_req_wstrb), .dram_req_tag_o(d_req_tag),
    .dram_rsp_valid_i(d_rsp_valid), .dram_rsp_ready_o(d_rsp_ready),
    .dram_rsp_rdata_i(d_rsp_rdata), .dram_rsp_tag_i(d_rsp_tag),
    .win_base_i(32'h0000_1000), .win_limit_i(32'h0010_0000),
    .win_err_count_o(unused_win_err), .bad_req_count_o(unused_bad_req),
    .nonfinite_count_o(nonfinite_count_o), .nonfinite_addr_o(unused_nf_addr)
  );

  ktpu_dram #(.Ports(1), .AddrBits(24), .ReadLatency(64)) u_dram (
    .clk_i, .rst_i,
    .req_valid_i(d_req_valid), .req_ready_o(d_req_ready), .req_write_i(d_req_write),
    .req_addr_i(d_req_addr), .req_wdata_i(d_req_wdata), .req_wstrb_i(d_req_wstrb),
    .req_tag_i(d_req_tag), .rsp_valid_o(d_rsp_valid), .rsp_ready_i(d_rsp_ready),
    .rsp_rdata_o(d_rsp_rdata), .rsp_tag_o(d_rsp_tag)
  );
endmodule

`default_nettype wire
