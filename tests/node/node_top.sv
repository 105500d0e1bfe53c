`default_nettype none
// Bench top for the cluster node: two mesh planes (request, response) of
// Width x Height, a memory agent on every NODE_MEM place (MemPorts of them,
// each on its own port of the DRAM model; the second at (NODE_MEM1_X,
// NODE_MEM1_Y), as in ktpu_soc), a cluster node on
// every NODE_CLUSTER place, and the CPU place's four link ends brought out to
// the C++ harness, which plays the CPU (instructions in, completions out).
module node_top #(
  parameter int               Width  = 2,
  parameter int               Height = 2,
  parameter logic [4*256-1:0] Kinds  = 1024'h3321,
  parameter int               MemPorts = 1
) (
  input  wire          clk_i,
  input  wire          rst_i,
  // CPU on the request plane: its instructions in, nothing expected back
  input  wire          cpu_rq_valid_i,
  output logic         cpu_rq_ready_o,
  input  wire  [287:0] cpu_rq_flit_i,
  output logic         cpu_rq_out_valid_o,
  output logic [287:0] cpu_rq_out_flit_o,
  // CPU on the response plane: completions and strays
  output logic         cpu_rs_valid_o,
  input  wire          cpu_rs_ready_i,
  output logic [287:0] cpu_rs_flit_o,
  input  wire  [31:0]  win_limit_i,
  // while set, the second agent takes no request: its request link moves
  // nothing (a bench makes a FILL's second half answer late with it)
  input  wire          mem1_hold_i,
  output logic [31:0]  stray_rq_o,
  output logic [31:0]  stray_rs_o,
  // cluster-cycles with the node's clock stopped (ktpu_clk_gate), summed
  output logic [31:0]  gated_o,
  // bit 8y + x: the cluster node at (x, y) is sweeping (its SWEEP counter
  // counts this cycle)
  output logic [15:0]  sweep_o
);
`ifdef KTPU_GLBL
  glbl glbl ();
`endif
  localparam int N = Width * Height;
  logic [N-1:0]     rq_in_v, rq_in_r, rq_out_v, rq_out_r;
  logic [N*288-1:0] rq_in_f, rq_out_f;
  logic [N-1:0]     rs_in_v, rs_in_r, rs_out_v, rs_out_r;
  logic [N*288-1:0] rs_in_f, rs_out_f;

  ktpu_mesh #(.Width(Width), .Height(Height), .Kinds(Kinds)) u_rq (
    .clk_i(clk_i), .rst_i(rst_i),
    .node_in_valid_i(rq_in_v), .node_in_ready_o(rq_in_r), .node_in_flit_i(rq_in_f),
    .node_out_valid_o(rq_out_v), .node_out_ready_i(rq_out_r), .node_out_flit_o(rq_out_f),
    .stray_o(stray_rq_o));
  ktpu_mesh #(.Width(Width), .Height(Height), .Kinds(Kinds)) u_rs (
    .clk_i(clk_i), .rst_i(rst_i),
    .node_in_valid_i(rs_in_v), .node_in_ready_o(rs_in_r), .node_in_flit_i(rs_in_f),
    .node_out_valid_o(rs_out_v), .node_out_ready_i(rs_out_r), .node_out_flit_o(rs_out_f),
    .stray_o(stray_rs_o));

  // agent p on DRAM port p
  localparam int P = MemPorts;
  logic [P-1:0]     dq_v, dq_r, dq_w, dr_v, dr_r;
  logic [P*24-1:0]  dq_a;
  logic [P*256-1:0] dq_d, dr_d;
  logic [P*32-1:0]  dq_s;
  logic [P*8-1:0]   dq_t, dr_t;
  function automatic int mem_index(int n);   // agents before place n
    mem_index = 0;
    for (int i = 0; i < n; i++) if (Kinds[4*i +: 4] == 4'(ktpu_pkg::NODE_MEM)) mem_index++;
  endfunction
  ktpu_dram #(.Ports(P), .AddrBits(24)) u_dram (
    .clk_i(clk_i), .rst_i(rst_i),
    .req_valid_i(dq_v), .req_ready_o(dq_r), .req_write_i(dq_w), .req_addr_i(dq_a),
    .req_wdata_i(dq_d), .req_wstrb_i(dq_s), .req_tag_i(dq_t),
    .rsp_valid_o(dr_v), .rsp_ready_i(dr_r), .rsp_rdata_o(dr_d), .rsp_tag_o(dr_t));

  if (Width > 8 || Height > 2) begin : gen_bad_params
    $error("node_top: sweep_o has room for 8 x 2 places");
  end
  logic [N-1:0] gated, sweeping;
  logic [5:0]   act [N];
  always_comb begin
    sweep_o = '0;
    for (int n = 0; n < N; n++) sweep_o[8 * (n / Width) + n % Width] = sweeping[n];
  end
  logic [31:0]  gated_now;
  always_comb begin
    gated_now = '0;
    for (int n = 0; n < N; n++) gated_now = gated_now + 32'(gated[n]);
  end
  always_ff @(posedge clk_i) gated_o <= rst_i ? '0 : gated_o + gated_now;
  for (genvar n = 0; n < N; n++) begin : gen_node
    localparam logic [3:0] Kind = Kinds[4*n +: 4];
    if (Kind == 4'(ktpu_pkg::NODE_CLUSTER)) begin : gen_cluster
      /* verilator lint_off PINCONNECTEMPTY */
      ktpu_node #(.X(n % Width), .Y(n / Width), .MemPorts(MemPorts)) u_node (
        .clk_i(clk_i), .rst_i(rst_i),
        .rq_in_valid_i(rq_out_v[n]), .rq_in_ready_o(rq_out_r[n]), .rq_in_flit_i(rq_out_f[288*n +: 288]),
        .rq_out_valid_o(rq_in_v[n]), .rq_out_ready_i(rq_in_r[n]), .rq_out_flit_o(rq_in_f[288*n +: 288]),
        .rs_in_valid_i(rs_out_v[n]), .rs_in_ready_o(rs_out_r[n]), .rs_in_flit_i(rs_out_f[288*n +: 288]),
        .rs_out_valid_o(rs_in_v[n]), .rs_out_ready_i(rs_in_r[n]), .rs_out_flit_o(rs_in_f[288*n +: 288]),
        .act_o(act[n]));
      /* verilator lint_on PINCONNECTEMPTY */
      assign gated[n] = !u_node.u_gate.en_q;
      assign sweeping[n] = act[n][ktpu_pkg::CD_SWEEP_WORD - 1];
`ifndef SYNTHESIS
      // Write order with two agents: the agents do not order against each
      // other, so a write burst may leave for one agent only if none of this
      // node's unacknowledged bursts to the other overlaps its bytes (each
      // burst's extent [lo, hi) from its descriptor, to its last flit's last
      // masked byte; acknowledgements come back from each agent in the order
      // of its bursts).
      localparam int H = ktpu_pkg::FLIT_HDR_LSB;
      logic [63:0] wo0_q [$], wo1_q [$];   // per agent: {hi, lo} of each burst unacknowledged
      logic        wo_mid;                 // a packet's later flit is next
      always_ff @(posedge clk_i) begin
        logic [287:0] f, a;
        logic [31:0]  lo, hi, ctl, mask, top;
        logic [63:0]  o;
        logic         to1, bad;
        f = rq_in_f[288*n +: 288];
        a = rs_out_f[288*n +: 288];
        if (rst_i) begin
          wo_mid <= 1'b0;
          wo0_q.delete();
          wo1_q.delete();
        end else begin
          if (rq_in_v[n] && rq_in_r[n]) wo_mid <= !f[H + ktpu_pkg::FLIT_LAST_LSB];
          if (rq_in_v[n] && rq_in_r[n] && !wo_mid && f[H + ktpu_pkg::FLIT_TYPE_LSB +: 4] == 4'(ktpu_pkg::MSG_MEM_WR)) begin
            ctl = f[32*ktpu_pkg::WR_CTRL_WORD +: 32];
            lo  = f[32*ktpu_pkg::WR_ADDR_WORD +: 32];
            mask = f[32*ktpu_pkg::WR_MASK_WORD +: 32];
            top = 32'd0;
            for (int b = 0; b < 32; b++) if (mask[b]) top = 32'(b + 1);
            hi  = ctl[ktpu_pkg::WR_CTRL_ROWS_LSB +: 8] != 8'd0
                ? lo + 32'(ctl[ktpu_pkg::WR_CTRL_ROWS_LSB +: 8] - 8'd1) * f[32*ktpu_pkg::WR_STRIDE_WORD +: 32] +
                  32'(ctl[ktpu_pkg::WR_CTRL_COLS_LSB +: 8] - 8'd1) * f[32*ktpu_pkg::WR_STRIDE2_WORD +: 32] + top
                : lo + 32'(ctl[ktpu_pkg::WR_CTRL_COUNT_LSB +: 8] - 8'd1) * f[32*ktpu_pkg::WR_STRIDE_WORD +: 32] + top;
            to1 = MemPorts > 1 && f[H + ktpu_pkg::FLIT_DST_X_LSB +: 4] == 4'(ktpu_pkg::NODE_MEM1_X) &&
                  f[H + ktpu_pkg::FLIT_DST_Y_LSB +: 4] == 4'(ktpu_pkg::NODE_MEM1_Y);
            bad = 1'b0;
            for (int i = 0; i < (to1 ? wo0_q.size() : wo1_q.size()); i++) begin
              o = to1 ? wo0_q[i] : wo1_q[i];
              if (lo < o[63:32] && o[31:0] < hi) bad = 1'b1;
            end
            if (bad)
              $error("node_top: node (%0d,%0d): a write burst at 0x%0x to agent %0d overlaps an unacknowledged one to the other agent",
                     n % Width, n / Width, lo, to1);
            if (to1) wo1_q.push_back({hi, lo});
            else     wo0_q.push_back({hi, lo});
          end
          if (rs_out_v[n] && rs_out_r[n] && a[H + ktpu_pkg::FLIT_TYPE_LSB +: 4] == 4'(ktpu_pkg::MSG_MEM_ACK) &&
              a[32*ktpu_pkg::ACK_STATUS_WORD + ktpu_pkg::ACK_STATUS_OP_LSB +: 4] == 4'(ktpu_pkg::MSG_MEM_WR)) begin
            if (MemPorts > 1 && a[H + ktpu_pkg::FLIT_SRC_X_LSB +: 4] == 4'(ktpu_pkg::NODE_MEM1_X) &&
                a[H + ktpu_pkg::FLIT_SRC_Y_LSB +: 4] == 4'(ktpu_pkg::NODE_MEM1_Y)) void'(wo1_q.pop_front());
            else void'(wo0_q.pop_front());
          end
        end
      end
`endif
    end else if (Kind == 4'(ktpu_pkg::NODE_MEM)) begin : gen_mem
      localparam int A = mem_index(n);
      logic hold, req_r;
      assign hold        = A == 1 && mem1_hold_i;
      assign rq_out_r[n] = req_r && !hold;
      /* verilator lint_off PINCONNECTEMPTY */
      ktpu_mem_agent #(.X(n % Width), .Y(n / Width),
                       .QueueDepth(MemPorts > 1 ? ktpu_pkg::MEM_STREAMS_SPLIT : ktpu_pkg::MEM_STREAMS),
                       .GroupWait(20000)) u_mem (   // short: the bench waits for a lone member's refusal
        .clk_i(clk_i), .rst_i(rst_i),
        .req_valid_i(rq_out_v[n] && !hold), .req_ready_o(req_r), .req_flit_i(rq_out_f[288*n +: 288]),
        .rsp_valid_o(rs_in_v[n]), .rsp_ready_i(rs_in_r[n]), .rsp_flit_o(rs_in_f[288*n +: 288]),
        .dram_req_valid_o(dq_v[A]), .dram_req_ready_i(dq_r[A]), .dram_req_write_o(dq_w[A]),
        .dram_req_addr_o(dq_a[24*A +: 24]), .dram_req_wdata_o(dq_d[256*A +: 256]),
        .dram_req_wstrb_o(dq_s[32*A +: 32]), .dram_req_tag_o(dq_t[8*A +: 8]),
        .dram_rsp_valid_i(dr_v[A]), .dram_rsp_ready_o(dr_r[A]),
        .dram_rsp_rdata_i(dr_d[256*A +: 256]), .dram_rsp_tag_i(dr_t[8*A +: 8]),
        .win_base_i(32'd0), .win_limit_i(win_limit_i),
        .win_err_count_o(), .bad_req_count_o(), .nonfinite_count_o(), .nonfinite_addr_o());
      /* verilator lint_on PINCONNECTEMPTY */
      assign rs_out_r[n] = 1'b1;     // nothing answers the agent: sink strays
      assign gated[n] = 1'b0;
      assign sweeping[n] = 1'b0;
      assign rq_in_v[n] = 1'b0;
      assign rq_in_f[288*n +: 288] = '0;
    end else if (Kind == 4'(ktpu_pkg::NODE_CPU)) begin : gen_cpu
      assign rq_in_v[n]              = cpu_rq_valid_i;
      assign cpu_rq_ready_o          = rq_in_r[n];
      assign rq_in_f[288*n +: 288]   = cpu_rq_flit_i;
      assign cpu_rq_out_valid_o      = rq_out_v[n];
      assign cpu_rq_out_flit_o       = rq_out_f[288*n +: 288];
      assign rq_out_r[n]             = 1'b1;
      assign cpu_rs_valid_o          = rs_out_v[n];
      assign cpu_rs_flit_o           = rs_out_f[288*n +: 288];
      assign rs_out_r[n]             = cpu_rs_ready_i;
      assign rs_in_v[n]              = 1'b0;
      assign rs_in_f[288*n +: 288]   = '0;
      assign gated[n]                = 1'b0;
      assign sweeping[n]             = 1'b0;
    end else begin : gen_empty
      assign gated[n] = 1'b0;
      assign sweeping[n] = 1'b0;
      assign rq_in_v[n] = 1'b0;
      assign rq_in_f[288*n +: 288] = '0;
      assign rq_out_r[n] = 1'b1;
      assign rs_in_v[n] = 1'b0;
      assign rs_in_f[288*n +: 288] = '0;
      assign rs_out_r[n] = 1'b1;
    end
  end
  logic unused_ok;
  assign unused_ok = ^{rq_in_r, rs_in_r, rs_out_v, rs_out_f};  // the agent's place sinks
endmodule
`default_nettype wire
