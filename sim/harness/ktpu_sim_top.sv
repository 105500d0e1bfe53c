// ktpu_sim_top: what build/ktpu-sim simulates: the SoC (Clusters cluster
// nodes, MemPorts memory agents) and the DRAM model behind it (port 0 the
// CPU's window, port 1 + p memory agent p). Everything the harness drives or
// watches is a port here; the beat counters are the report's DRAM traffic.
`default_nettype none

module ktpu_sim_top #(
  parameter int Clusters = 2,
  parameter int MemPorts = 1
) (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  input  wire logic        ld_valid_i,
  input  wire logic [31:0] ld_addr_i,
  input  wire logic [3:0]  ld_be_i,
  input  wire logic [31:0] ld_data_i,
  output logic             uart_txd_o,       // the serial lines, 8N1 at
  input  wire logic        uart_rxd_i,       // UART_SIM_CLKS_PER_BIT cycles a bit
  output logic             uart_rts_o,
  output logic             sim_exit_valid_o,
  output logic [30:0]      sim_exit_code_o,
  output logic [3:0]       sim_exit_be_o,    // byte lanes of that SIM_EXIT store (4'hF: a sw)
  output logic             mbox_valid_o,
  output logic [31:0]      mbox_cmd_o,
  output logic [31:0]      mbox_arg0_o,
  output logic [31:0]      mbox_arg1_o,
  input  wire logic [31:0] mbox_resp_i,
  // the memory agent's window [base, limit) and the cluster-hold stress hook
  input  wire logic [31:0] mem_win_base_i,
  input  wire logic [31:0] mem_win_limit_i,
  input  wire logic [13:0] cl_hold_i,
  // health and traffic, read by the harness at the end of a run
  output logic [31:0]      stray_rq_o,
  output logic [31:0]      stray_rs_o,
  output logic [31:0]      mem_win_err_o,
  output logic [31:0]      mem_bad_req_o,
  output logic [31:0]      mem_nonfinite_o,
  output logic [63:0]      agent_rd_beats_o,   // agent 0's port
  output logic [63:0]      agent_wr_beats_o,
  output logic [63:0]      agent1_rd_beats_o,  // agent 1's (0 with one agent)
  output logic [63:0]      agent1_wr_beats_o,
  output logic [63:0]      cpu_rd_beats_o,
  output logic [63:0]      cpu_wr_beats_o
);
`ifdef KTPU_GLBL
  glbl glbl ();   // the vendor DSP48E2 model reaches glbl.GSR (DSP48E2_MODEL=...)
`endif
  localparam int DramAddrBits = $clog2(ktpu_pkg::DRAM_SIM_BYTES);

  localparam int AW = DramAddrBits;
  localparam int P  = 1 + MemPorts;   // DRAM model ports

  // port p of the DRAM model at [p*W +: W]; 0 = CPU window, 1 + a = agent a
  logic [P-1:0]     req_valid, req_ready, req_write, rsp_valid, rsp_ready;
  logic [P*AW-1:0]  req_addr;
  logic [P*256-1:0] req_wdata, rsp_rdata;
  logic [P*32-1:0]  req_wstrb;
  logic [P*8-1:0]   req_tag, rsp_tag;

  ktpu_soc #(.DramAddrBits(DramAddrBits), .Clusters(Clusters), .MemPorts(MemPorts)) u_soc (
    .clk_i, .rst_i,
    .ld_valid_i, .ld_addr_i, .ld_be_i, .ld_data_i,
    .uart_txd_o, .uart_rxd_i, .uart_rts_o,
    .sim_exit_valid_o, .sim_exit_code_o, .sim_exit_be_o,
    .mbox_valid_o, .mbox_cmd_o, .mbox_arg0_o, .mbox_arg1_o, .mbox_resp_i,
    .dram_req_valid_o(req_valid[0]), .dram_req_ready_i(req_ready[0]),
    .dram_req_write_o(req_write[0]), .dram_req_addr_o(req_addr[0 +: AW]),
    .dram_req_wdata_o(req_wdata[0 +: 256]), .dram_req_wstrb_o(req_wstrb[0 +: 32]),
    .dram_req_tag_o(req_tag[0 +: 8]), .dram_rsp_valid_i(rsp_valid[0]),
    .dram_rsp_ready_o(rsp_ready[0]), .dram_rsp_rdata_i(rsp_rdata[0 +: 256]),
    .dram_rsp_tag_i(rsp_tag[0 +: 8]),
    .mem_req_valid_o(req_valid[P-1:1]), .mem_req_ready_i(req_ready[P-1:1]),
    .mem_req_write_o(req_write[P-1:1]), .mem_req_addr_o(req_addr[P*AW-1:AW]),
    .mem_req_wdata_o(req_wdata[P*256-1:256]), .mem_req_wstrb_o(req_wstrb[P*32-1:32]),
    .mem_req_tag_o(req_tag[P*8-1:8]), .mem_rsp_valid_i(rsp_valid[P-1:1]),
    .mem_rsp_ready_o(rsp_ready[P-1:1]), .mem_rsp_rdata_i(rsp_rdata[P*256-1:256]),
    .mem_rsp_tag_i(rsp_tag[P*8-1:8]),
    .mem_win_base_i, .mem_win_limit_i,
    .mem_win_err_o, .mem_bad_req_o, .mem_nonfinite_o, .stray_rq_o, .stray_rs_o, .cl_hold_i
  );

  ktpu_dram #(.Ports(P), .AddrBits(DramAddrBits)) u_dram (
    .clk_i, .rst_i,
    .req_valid_i(req_valid), .req_ready_o(req_ready), .req_write_i(req_write),
    .req_addr_i (req_addr),  .req_wdata_i(req_wdata), .req_wstrb_i(req_wstrb),
    .req_tag_i  (req_tag),   .rsp_valid_o(rsp_valid), .rsp_ready_i(rsp_ready),
    .rsp_rdata_o(rsp_rdata), .rsp_tag_o  (rsp_tag)
  );

  // beats accepted per DRAM port and direction
  logic [63:0] rd_beats [P], wr_beats [P];
  always_ff @(posedge clk_i) begin
    for (int p = 0; p < P; p++) begin
      if (rst_i) begin
        rd_beats[p] <= 64'd0;
        wr_beats[p] <= 64'd0;
      end else if (req_valid[p] && req_ready[p]) begin
        if (req_write[p]) wr_beats[p] <= wr_beats[p] + 64'd1;
        else rd_beats[p] <= rd_beats[p] + 64'd1;
      end
    end
  end
  assign cpu_rd_beats_o    = rd_beats[0];
  assign cpu_wr_beats_o    = wr_beats[0];
  assign agent_rd_beats_o  = rd_beats[1];
  assign agent_wr_beats_o  = wr_beats[1];
  assign agent1_rd_beats_o = MemPorts > 1 ? rd_beats[P-1] : 64'd0;
  assign agent1_wr_beats_o = MemPorts > 1 ? wr_beats[P-1] : 64'd0;

endmodule

`default_nettype wire
