// ktpu_soc: the whole machine (SPEC §7, §9): the sequencer (ktpu_soc_seq:
// CPU, local RAM, MMIO, DRAM window) on a mesh of two planes (ktpu_mesh,
// request and response, docs/noc.md) with MemPorts memory agents and Clusters
// cluster nodes. 1 + MemPorts DRAM ports leave the SoC: the CPU's window
// and one per memory agent (ktpu_dram in simulation, memory controllers
// behind an interconnect on an FPGA).
//
// Two memory agents (MemPorts = 2): a cluster reads half of every FP16
// FILL's rows through each and an MXFP7 FILL whole through the nearer one,
// and sends its drains' row bands to them in turn (ktpu_node_fill,
// ktpu_node_drain). Each agent reaches the whole DRAM,
// under the same window: the split spreads bandwidth, it never refuses. The
// two agents do not order their accesses against each other: the node keeps
// its own writes in order, and no job reads what it writes (docs/soc.md,
// two memory ports).
//
// Placement: the CPU at (NODE_CPU_X, NODE_CPU_Y), agent 0 at (NODE_MEM_X,
// NODE_MEM_Y), agent 1 at (NODE_MEM1_X, NODE_MEM1_Y), clusters on the
// remaining places in node order (node n = y*W + x), unused places EMPTY.
// The mesh is 2 rows of W = max(2, ceil((Clusters + 1 + MemPorts) / 2))
// (one row for Clusters = 0 and one agent):
//   1 port:  Clusters 1: 2x2, kinds 0x0321   2: 2x2, 0x3321   4: 3x2, 0x333321
//   2 ports: Clusters 4: 4x2, kinds 0x0323_3321.
// Firmware reads the same placement from SOC_MESH and SOC_KINDS0/1.
//
// The CPU's one flit channel each way joins both planes: a flit it sends
// goes to the plane its type names (type bit MSG_PLANE_BIT), and its
// receive register takes flits from either plane, alternating when both
// wait. Responses (CL_DONE, MEM_ACK) arrive on the response plane; a flit
// the CPU addresses to itself comes back through its own router.
`default_nettype none

module ktpu_soc #(
  parameter int DramAddrBits = 24,
  parameter int Clusters     = 2,
  parameter int MemPorts     = 1,
  parameter int UartClksPerBit = ktpu_pkg::UART_SIM_CLKS_PER_BIT,   // clock / baud
  parameter int unsigned BootWait = ktpu_pkg::BOOT_WAIT_SIM,        // cycles (MMIO BOOT_WAIT)
  parameter RamPrimitive     = "block",  // untyped, as ktpu_ram expects
  parameter RamInit          = ""        // local RAM's initial contents (ktpu_soc_seq)
) (
  input  wire logic                    clk_i,
  input  wire logic                    rst_i,
  // loader port into local RAM (while the CPU is held in reset)
  input  wire logic                    ld_valid_i,
  input  wire logic [31:0]             ld_addr_i,
  input  wire logic [3:0]              ld_be_i,
  input  wire logic [31:0]             ld_data_i,
  // the serial port (8N1): lines and request-to-send
  output logic                         uart_txd_o,
  input  wire logic                    uart_rxd_i,
  output logic                         uart_rts_o,
  // simulation control (harmless registers on an FPGA)
  output logic                         sim_exit_valid_o,
  output logic [30:0]                  sim_exit_code_o,
  output logic [3:0]                   sim_exit_be_o,
  output logic                         mbox_valid_o,
  output logic [31:0]                  mbox_cmd_o,
  output logic [31:0]                  mbox_arg0_o,
  output logic [31:0]                  mbox_arg1_o,
  input  wire logic [31:0]             mbox_resp_i,
  // DRAM port 0: the CPU's window (docs/soc.md)
  output logic                         dram_req_valid_o,
  input  wire logic                    dram_req_ready_i,
  output logic                         dram_req_write_o,
  output logic [DramAddrBits-1:0]      dram_req_addr_o,
  output logic [255:0]                 dram_req_wdata_o,
  output logic [31:0]                  dram_req_wstrb_o,
  output logic [7:0]                   dram_req_tag_o,
  input  wire logic                    dram_rsp_valid_i,
  output logic                         dram_rsp_ready_o,
  input  wire logic [255:0]            dram_rsp_rdata_i,
  input  wire logic [7:0]              dram_rsp_tag_i,
  // DRAM ports 1 .. MemPorts: the memory agents' (agent p at [p*width +: width])
  output logic [MemPorts-1:0]          mem_req_valid_o,
  input  wire logic [MemPorts-1:0]     mem_req_ready_i,
  output logic [MemPorts-1:0]          mem_req_write_o,
  output logic [MemPorts*DramAddrBits-1:0] mem_req_addr_o,
  output logic [MemPorts*256-1:0]      mem_req_wdata_o,
  output logic [MemPorts*32-1:0]       mem_req_wstrb_o,
  output logic [MemPorts*8-1:0]        mem_req_tag_o,
  input  wire logic [MemPorts-1:0]     mem_rsp_valid_i,
  output logic [MemPorts-1:0]          mem_rsp_ready_o,
  input  wire logic [MemPorts*256-1:0] mem_rsp_rdata_i,
  input  wire logic [MemPorts*8-1:0]   mem_rsp_tag_i,
  // the agents' address window [base, limit) and health counters (saturating,
  // summed over the agents)
  input  wire logic [31:0]             mem_win_base_i,
  input  wire logic [31:0]             mem_win_limit_i,
  output logic [31:0]                  mem_win_err_o,
  output logic [31:0]                  mem_bad_req_o,
  output logic [31:0]                  mem_nonfinite_o,
  output logic [31:0]                  stray_rq_o,      // misaddressed flits, per plane
  output logic [31:0]                  stray_rs_o,
  // test hook: while bit c is set, cluster c's four mesh links move nothing
  // (co-simulation stress, tests/soc/regress_gemm.sh); tie to 0 on a board
  input  wire logic [13:0]             cl_hold_i,
  // cluster c's activity bits (ktpu_node act_o) at [6c +: 6], for a
  // co-simulation timeline; leave open on a board
  output logic [14*6-1:0]              cl_act_o
);
  localparam int CpuX = ktpu_pkg::NODE_CPU_X, CpuY = ktpu_pkg::NODE_CPU_Y;
  localparam int MemX = ktpu_pkg::NODE_MEM_X, MemY = ktpu_pkg::NODE_MEM_Y;
  localparam int Mem1X = ktpu_pkg::NODE_MEM1_X, Mem1Y = ktpu_pkg::NODE_MEM1_Y;
  localparam int W  = (Clusters + MemPorts + 2) / 2 > 2 ? (Clusters + MemPorts + 2) / 2 : 2;
  localparam int H  = Clusters + 1 + MemPorts > W ? 2 : 1;
  localparam int N  = W * H;
  localparam int CpuN = CpuY * W + CpuX;
  localparam int MemN = MemY * W + MemX;
  localparam int Mem1N = MemPorts > 1 ? Mem1Y * W + Mem1X : -1;
  localparam int F  = ktpu_pkg::FLIT_BITS;
  localparam int PlaneBit = ktpu_pkg::FLIT_HDR_LSB + ktpu_pkg::FLIT_TYPE_LSB + ktpu_pkg::MSG_PLANE_BIT;

  if (Clusters < 0 || Clusters + MemPorts > 15 || MemPorts < 1 || MemPorts > 2 ||
      CpuX >= W || MemX >= W || CpuY >= H || MemY >= H || CpuN == MemN ||
      (MemPorts > 1 && (Mem1X >= W || Mem1Y >= H || Mem1N == CpuN || Mem1N == MemN))) begin : gen_bad_params
    $error("ktpu_soc: Clusters 0..14 and 1 or 2 memory agents, at most 16 places, the CPU and agents inside the mesh");
  end

  // NODE_* per place: CPU, agents, then clusters in node order, then EMPTY.
  function automatic logic [63:0] place_kinds();
    logic [63:0] k;
    int c;
    k = 64'd0;
    c = 0;
    for (int n = 0; n < N; n++) begin
      if (n == CpuN) k[4*n +: 4] = 4'(ktpu_pkg::NODE_CPU);
      else if (n == MemN || n == Mem1N) k[4*n +: 4] = 4'(ktpu_pkg::NODE_MEM);
      else if (c < Clusters) begin
        k[4*n +: 4] = 4'(ktpu_pkg::NODE_CLUSTER);
        c = c + 1;
      end
    end
    place_kinds = k;
  endfunction
  localparam logic [63:0] Kinds = place_kinds();

  // cluster number (0, 1, ...) of place n, a cluster place
  function automatic int cluster_index(int n);
    int c;
    c = 0;
    for (int i = 0; i < n; i++)
      if (Kinds[4*i +: 4] == 4'(ktpu_pkg::NODE_CLUSTER)) c = c + 1;
    cluster_index = c;
  endfunction

  // ---------------------------------------------------------------- planes
  logic [N-1:0]   rq_in_v, rq_in_r, rq_out_v, rq_out_r;
  logic [N*F-1:0] rq_in_f, rq_out_f;
  logic [N-1:0]   rs_in_v, rs_in_r, rs_out_v, rs_out_r;
  logic [N*F-1:0] rs_in_f, rs_out_f;

  ktpu_mesh #(.Width(W), .Height(H), .Kinds({960'd0, Kinds})) u_rq (
    .clk_i, .rst_i,
    .node_in_valid_i(rq_in_v), .node_in_ready_o(rq_in_r), .node_in_flit_i(rq_in_f),
    .node_out_valid_o(rq_out_v), .node_out_ready_i(rq_out_r), .node_out_flit_o(rq_out_f),
    .stray_o(stray_rq_o));
  ktpu_mesh #(.Width(W), .Height(H), .Kinds({960'd0, Kinds})) u_rs (
    .clk_i, .rst_i,
    .node_in_valid_i(rs_in_v), .node_in_ready_o(rs_in_r), .node_in_flit_i(rs_in_f),
    .node_out_valid_o(rs_out_v), .node_out_ready_i(rs_out_r), .node_out_flit_o(rs_out_f),
    .stray_o(stray_rs_o));

  // ---------------------------------------------------------------- sequencer
  logic         cpu_tx_v, cpu_tx_r, cpu_rx_v, cpu_rx_r;
  logic [F-1:0] cpu_tx_f, cpu_rx_f;

  ktpu_soc_seq #(.DramAddrBits(DramAddrBits), .MeshW(W), .MeshH(H), .Kinds(Kinds),
                 .UartClksPerBit(UartClksPerBit), .BootWait(BootWait), .RamPrimitive(RamPrimitive),
                 .RamInit(RamInit)) u_seq (
    .clk_i, .rst_i,
    .ld_valid_i, .ld_addr_i, .ld_be_i, .ld_data_i,
    .uart_txd_o, .uart_rxd_i, .uart_rts_o,
    .sim_exit_valid_o, .sim_exit_code_o, .sim_exit_be_o,
    .mbox_valid_o, .mbox_cmd_o, .mbox_arg0_o, .mbox_arg1_o, .mbox_resp_i,
    .win_base_i(mem_win_base_i), .win_limit_i(mem_win_limit_i),
    .mesh_tx_valid_o(cpu_tx_v), .mesh_tx_flit_o(cpu_tx_f), .mesh_tx_ready_i(cpu_tx_r),
    .mesh_rx_valid_i(cpu_rx_v), .mesh_rx_flit_i(cpu_rx_f), .mesh_rx_ready_o(cpu_rx_r),
    .dram_req_valid_o, .dram_req_ready_i, .dram_req_write_o, .dram_req_addr_o,
    .dram_req_wdata_o, .dram_req_wstrb_o, .dram_req_tag_o,
    .dram_rsp_valid_i, .dram_rsp_ready_o, .dram_rsp_rdata_i, .dram_rsp_tag_i
  );

  // CPU receive: both planes into one register; the plane not served last
  // wins when both wait, so neither can starve the other.
  logic cpu_take_rs, cpu_last_rs_q;
  assign cpu_take_rs = rs_out_v[CpuN] && (!rq_out_v[CpuN] || !cpu_last_rs_q);
  assign cpu_rx_v    = rs_out_v[CpuN] || rq_out_v[CpuN];
  assign cpu_rx_f    = cpu_take_rs ? rs_out_f[CpuN*F +: F] : rq_out_f[CpuN*F +: F];
  always_ff @(posedge clk_i) begin
    if (rst_i) cpu_last_rs_q <= 1'b0;
    else if (cpu_rx_v && cpu_rx_r) cpu_last_rs_q <= cpu_take_rs;
  end

  // the agents' health counters, summed without wrapping
  logic [31:0] win_err [MemPorts], bad_req [MemPorts], nonfinite [MemPorts];
  function automatic logic [31:0] sat_sum(input logic [31:0] a, input logic [31:0] b);
    logic [32:0] s;
    s = {1'b0, a} + {1'b0, b};
    sat_sum = s[32] ? 32'hFFFF_FFFF : s[31:0];
  endfunction
  if (MemPorts > 1) begin : gen_sum2
    assign mem_win_err_o   = sat_sum(win_err[0], win_err[1]);
    assign mem_bad_req_o   = sat_sum(bad_req[0], bad_req[1]);
    assign mem_nonfinite_o = sat_sum(nonfinite[0], nonfinite[1]);
  end else begin : gen_sum1
    assign mem_win_err_o   = win_err[0];
    assign mem_bad_req_o   = bad_req[0];
    assign mem_nonfinite_o = nonfinite[0];
  end

  // ---------------------------------------------------------------- places
  for (genvar c = Clusters; c < 14; c++) begin : gen_no_act
    assign cl_act_o[6*c +: 6] = '0;
  end
  for (genvar n = 0; n < N; n++) begin : gen_node
    localparam logic [3:0] Kind = Kinds[4*n +: 4];
    if (Kind == 4'(ktpu_pkg::NODE_CLUSTER)) begin : gen_cluster
      // held: each side sees the other neither offer nor take (every
      // sender keeps its valid and flit, as the protocol asks of it)
      localparam int C = cluster_index(n);
      logic hold, n_rq_in_r, n_rq_out_v, n_rs_in_r, n_rs_out_v;
      assign hold = cl_hold_i[C];
      assign rq_out_r[n] = n_rq_in_r && !hold;
      assign rs_out_r[n] = n_rs_in_r && !hold;
      assign rq_in_v[n]  = n_rq_out_v && !hold;
      assign rs_in_v[n]  = n_rs_out_v && !hold;
      ktpu_node #(.X(n % W), .Y(n / W), .MemX(MemX), .MemY(MemY), .MemPorts(MemPorts),
                  .Mem1X(Mem1X), .Mem1Y(Mem1Y)) u_node (
        .clk_i, .rst_i,
        .rq_in_valid_i(rq_out_v[n] && !hold), .rq_in_ready_o(n_rq_in_r), .rq_in_flit_i(rq_out_f[F*n +: F]),
        .rq_out_valid_o(n_rq_out_v), .rq_out_ready_i(rq_in_r[n] && !hold), .rq_out_flit_o(rq_in_f[F*n +: F]),
        .rs_in_valid_i(rs_out_v[n] && !hold), .rs_in_ready_o(n_rs_in_r), .rs_in_flit_i(rs_out_f[F*n +: F]),
        .rs_out_valid_o(n_rs_out_v), .rs_out_ready_i(rs_in_r[n] && !hold), .rs_out_flit_o(rs_in_f[F*n +: F]),
        .act_o(cl_act_o[6*C +: 6]));
    end else if (Kind == 4'(ktpu_pkg::NODE_MEM)) begin : gen_mem
      localparam int P = n == Mem1N ? 1 : 0;   // which agent, which DRAM port
      localparam int A = DramAddrBits;
      /* verilator lint_off PINCONNECTEMPTY */
      ktpu_mem_agent #(.X(n % W), .Y(n / W), .AddrBits(DramAddrBits),
                       .QueueDepth(MemPorts > 1 ? ktpu_pkg::MEM_STREAMS_SPLIT : ktpu_pkg::MEM_STREAMS)) u_mem (
        .clk_i, .rst_i,
        .req_valid_i(rq_out_v[n]), .req_ready_o(rq_out_r[n]), .req_flit_i(rq_out_f[F*n +: F]),
        .rsp_valid_o(rs_in_v[n]), .rsp_ready_i(rs_in_r[n]), .rsp_flit_o(rs_in_f[F*n +: F]),
        .dram_req_valid_o(mem_req_valid_o[P]), .dram_req_ready_i(mem_req_ready_i[P]),
        .dram_req_write_o(mem_req_write_o[P]), .dram_req_addr_o(mem_req_addr_o[A*P +: A]),
        .dram_req_wdata_o(mem_req_wdata_o[256*P +: 256]), .dram_req_wstrb_o(mem_req_wstrb_o[32*P +: 32]),
        .dram_req_tag_o(mem_req_tag_o[8*P +: 8]), .dram_rsp_valid_i(mem_rsp_valid_i[P]),
        .dram_rsp_ready_o(mem_rsp_ready_o[P]), .dram_rsp_rdata_i(mem_rsp_rdata_i[256*P +: 256]),
        .dram_rsp_tag_i(mem_rsp_tag_i[8*P +: 8]),
        .win_base_i(mem_win_base_i), .win_limit_i(mem_win_limit_i),
        .win_err_count_o(win_err[P]), .bad_req_count_o(bad_req[P]),
        .nonfinite_count_o(nonfinite[P]), .nonfinite_addr_o());
      /* verilator lint_on PINCONNECTEMPTY */
      // The agent only answers: it sends nothing on the request plane, and a
      // response-plane flit addressed to it (a stray) is sunk.
      assign rq_in_v[n] = 1'b0;
      assign rq_in_f[F*n +: F] = '0;
      assign rs_out_r[n] = 1'b1;
    end else if (Kind == 4'(ktpu_pkg::NODE_CPU)) begin : gen_cpu
      assign rq_in_v[n]        = cpu_tx_v && !cpu_tx_f[PlaneBit];
      assign rs_in_v[n]        = cpu_tx_v && cpu_tx_f[PlaneBit];
      assign rq_in_f[F*n +: F] = cpu_tx_f;
      assign rs_in_f[F*n +: F] = cpu_tx_f;
      assign cpu_tx_r          = cpu_tx_f[PlaneBit] ? rs_in_r[n] : rq_in_r[n];
      assign rs_out_r[n]       = cpu_rx_r && cpu_take_rs;
      assign rq_out_r[n]       = cpu_rx_r && !cpu_take_rs;
    end else begin : gen_empty
      assign rq_in_v[n] = 1'b0;
      assign rq_in_f[F*n +: F] = '0;
      assign rq_out_r[n] = 1'b1;
      assign rs_in_v[n] = 1'b0;
      assign rs_in_f[F*n +: F] = '0;
      assign rs_out_r[n] = 1'b1;
    end
  end

  // The agents' places leave their response-plane output and request-plane
  // input unused; EMPTY places leave everything unused, and cl_hold_i has
  // a bit per possible cluster.
  logic unused_links;
  assign unused_links = ^{rq_in_r, rs_in_r, rs_out_v, rs_out_f, rq_out_v, rq_out_f, cl_hold_i};
endmodule

`default_nettype wire
