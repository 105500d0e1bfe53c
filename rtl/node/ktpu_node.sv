`default_nettype none
// Cluster node (SPEC §6): one mesh endpoint around the cluster datapath, the
// accumulator and L1 A / L1 B. Instructions (CL_INSTR, one flit each) are
// executed in order by the engine below and each is answered by one CL_DONE
// (layouts: data/ktpu.def "cluster node"; design: docs/node.md).
//
//   FILL    one MEM_RD to the memory agent (two with two agents, half the
//           row groups each); retires at once into a fill slot of
//           ktpu_node_fill (NODE_FILL_SLOTS in flight); MEM_DATA flits are
//           written to L1 by their (entry, word) tag and counted per K block;
//           CL_DONE when the last word lands (or the agent refuses: CLERR_MEM).
//   GEMM    waits for the previous sweep, starts the sweep (ktpu_node_seq)
//           and answers at once; the sweep runs on while the next FILLs
//           execute (double buffering). Streaming: a FILL laid out as the
//           GEMM reads it (same side, offset and NK, enough groups) does not
//           hold the start; each K pass waits only until that K block of
//           every such FILL has landed (MEM_DATA arrive K-block-major). Any
//           other FILL still in flight holds the start until it completes.
//           Results: STATUS waits until the accumulator's issued-minus-
//           retired count is zero and every drain write is acknowledged.
//           With EMIT and WRITTEN, a CL_WRITTEN (same txn) follows once the
//           tile's last write burst is acknowledged: the sender may announce
//           the tile.
//   DRAIN   EMITs into ktpu_node_drain (MEM_WR bursts); answered when every
//           burst is acknowledged.
//   SEND    after the receiver's PEER_GRANT: SENDs, each FP22 sub-tile one
//           2-flit PEER_DATA packet; answered when all have left.
//   RECV    grants the sender one stream and ADD_PEERs what arrives.
//   STATUS  waits for quiescence, answers with the counters.
// SILENT (any op but STATUS): the CL_DONE above is left out when the
// instruction succeeds; an error, a refusal or a non-finite FILL is answered
// as ever. The sender takes a STATUS answer as the completion of every SILENT
// instruction sent before it (the STATUS waited for them; a FILL's answer
// leaves ahead of the engine's).
// Range checks come first: a bad field is answered with its CLERR code and
// nothing else happens. A refused FILL (CLERR_MEM) poisons the node: every
// later GEMM, DRAIN, SEND and RECV is answered CLERR_FILLFAIL and does
// nothing until a STATUS CLEAR, so no tile is computed from, or drained
// after, an L1 region the refused FILL left stale. No GEMM can have started
// on it: the agent refuses a read whole, before any data, and a GEMM streams
// a FILL only once a word of each of its reads has landed.
//
// No deadlock (docs/noc.md, docs/node.md): response-plane input is always
// taken (L1 write, counters, grant table); request-plane input takes
// CL_INSTR into a NODE_IQ_DEPTH FIFO (the sender keeps at most that many
// instructions uncompleted) and PEER_DATA only from the stream this node
// granted; everything else on it is dropped and flagged.
module ktpu_node #(
  parameter int unsigned X        = 0,
  parameter int unsigned Y        = 1,
  parameter int unsigned MemX     = ktpu_pkg::NODE_MEM_X,
  parameter int unsigned MemY     = ktpu_pkg::NODE_MEM_Y,
  // a second memory agent at (Mem1X, Mem1Y): an FP16 FILL reads half its
  // row groups from each agent, an MXFP7 FILL all from the nearer one, a
  // drain's row bands alternate between them, band 0 to the nearer one
  // (ktpu_node_fill, ktpu_node_drain, docs/soc.md)
  parameter int unsigned MemPorts = 1,
  parameter int unsigned Mem1X    = ktpu_pkg::NODE_MEM1_X,
  parameter int unsigned Mem1Y    = ktpu_pkg::NODE_MEM1_Y,
  parameter int unsigned L1Depth  = ktpu_pkg::L1_DEPTH,
  parameter int unsigned AccDepth = ktpu_pkg::ACC_DEPTH
) (
  input  wire          clk_i,
  input  wire          rst_i,
  input  wire          rq_in_valid_i,    // request plane, mesh -> node
  output logic         rq_in_ready_o,
  input  wire  [287:0] rq_in_flit_i,
  output logic         rq_out_valid_o,   // request plane, node -> mesh
  input  wire          rq_out_ready_i,
  output logic [287:0] rq_out_flit_o,
  input  wire          rs_in_valid_i,    // response plane, mesh -> node
  output logic         rs_in_ready_o,
  input  wire  [287:0] rs_in_flit_i,
  output logic         rs_out_valid_o,   // response plane, node -> mesh
  input  wire          rs_out_ready_i,
  output logic [287:0] rs_out_flit_o,
  // what the STATUS counters count this cycle, bit CD_<counter>_WORD - 1
  // (fill, sweep, drain, idle, starved, back-pressured): the per-cycle view
  // behind them (ktpu-sim --timeline); nothing reads it on a board
  output logic [5:0]   act_o
);
  localparam int unsigned L1W = $clog2(L1Depth);
  localparam int unsigned TW  = $clog2(AccDepth);
  localparam int unsigned H   = ktpu_pkg::FLIT_HDR_LSB;
  // the agent nearer this node (Manhattan distance; a tie goes to agent 0)
  localparam int unsigned Dist0 = (X > MemX ? X - MemX : MemX - X) + (Y > MemY ? Y - MemY : MemY - Y);
  localparam int unsigned Dist1 = (X > Mem1X ? X - Mem1X : Mem1X - X) + (Y > Mem1Y ? Y - Mem1Y : Mem1Y - Y);
  localparam bit          Near1 = MemPorts > 1 && Dist1 < Dist0;
  localparam logic [3:0] TyWr = 4'(ktpu_pkg::MSG_MEM_WR);
  localparam logic [3:0] TyIns = 4'(ktpu_pkg::MSG_CL_INSTR), TyPd = 4'(ktpu_pkg::MSG_PEER_DATA);
  localparam logic [3:0] TyAck = 4'(ktpu_pkg::MSG_MEM_ACK);
  localparam logic [3:0] TyDone = 4'(ktpu_pkg::MSG_CL_DONE), TyGr = 4'(ktpu_pkg::MSG_PEER_GRANT);
  localparam logic [3:0] TyWritten = 4'(ktpu_pkg::MSG_CL_WRITTEN);
  localparam logic [3:0] OpFill = 4'(ktpu_pkg::CLOP_FILL), OpGemm = 4'(ktpu_pkg::CLOP_GEMM);
  localparam logic [3:0] OpDrain = 4'(ktpu_pkg::CLOP_DRAIN), OpSend = 4'(ktpu_pkg::CLOP_SEND);
  localparam logic [3:0] OpRecv = 4'(ktpu_pkg::CLOP_RECV), OpStatus = 4'(ktpu_pkg::CLOP_STATUS);

  if (ktpu_pkg::ENTRY_WORDS != 4 || (1 << L1W) != L1Depth ||
      (1 << TW) != AccDepth || MemPorts < 1 || MemPorts > 2) begin : gen_bad_params
    $error("ktpu_node: 4-lane entries, power-of-two depths, 1 or 2 memory ports");
  end

  function automatic logic [287:0] mkflit(input logic [3:0] dx, input logic [3:0] dy,
      input logic [3:0] ty, input logic [7:0] txn, input logic last, input logic [255:0] pl);
    mkflit = {ktpu_pkg::flit_pack(dx, dy, 4'(X), 4'(Y), ty, txn, last), pl};
  endfunction
  function automatic logic [3:0] hdr4(input logic [287:0] f, input int lsb);
    hdr4 = f[H + lsb +: 4];
  endfunction

  // ==== request-plane input: instructions and peer data ======================
  logic [3:0]  rq_ty;
  logic        rq_last, rq_skip_q;
  assign rq_ty   = hdr4(rq_in_flit_i, ktpu_pkg::FLIT_TYPE_LSB);
  assign rq_last = rq_in_flit_i[H + ktpu_pkg::FLIT_LAST_LSB];

  // ==== clock gate ===============================================================
  // Everything but the STATUS counters runs on gclk, which stops while the
  // node is asleep (nothing queued, in flight or waiting to leave) and no
  // flit arrives: the next edge would change nothing then, and an idle
  // cluster costs neither clock power nor simulation time (docs/node.md,
  // "Clock gate"). A flit arriving wakes it for the edge that takes it.
  logic gclk, asleep;
  ktpu_clk_gate u_gate (.clk_i(clk_i), .en_i(rst_i || rq_in_valid_i || rs_in_valid_i || !asleep),
                        .gclk_o(gclk));

  // Instruction FIFO: {bad length, src x, src y, txn, payload words 0..6}.
  localparam int unsigned IqW = 1 + 4 + 4 + 8 + 224;
  logic           iq_empty, iq_full, iq_push;   // empty: nothing queued, not even at the head
  logic           hd_v_q, hd_pop;               // hd_pop: the engine is done with the head
  logic [IqW-1:0] hd_q;
  logic [7:0]     hd_chk_q;                     // the head's CLERR_* but LENGTH and FILLFAIL
  logic [15:0]    hd_gmgn_q;                    // its GM x GN (a FWD GEMM's packet count)
  logic [4:0]     hd_half_q;                    // a FILL's split over two agents
  // the FIFO, and its head checked a cycle ahead of the engine (ktpu_node_iq)
  ktpu_node_iq #(.Width(IqW), .X(X), .Y(Y), .L1Depth(L1Depth), .AccDepth(AccDepth)) u_iq (
    .clk_i(gclk), .rst_i(rst_i), .push_i(iq_push),
    .wdata_i({!rq_last, rq_in_flit_i[H + ktpu_pkg::FLIT_SRC_X_LSB +: 4],
              rq_in_flit_i[H + ktpu_pkg::FLIT_SRC_Y_LSB +: 4],
              rq_in_flit_i[H + ktpu_pkg::FLIT_TXN_LSB +: 8], rq_in_flit_i[223:0]}),
    .full_o(iq_full), .empty_o(iq_empty),
    .valid_o(hd_v_q), .head_o(hd_q), .chk_o(hd_chk_q), .gmgn_o(hd_gmgn_q), .half_o(hd_half_q),
    .pop_i(hd_pop)
  );

  // Peer stream (RECV): one open stream, from one sender.
  logic        st_open_q;
  logic [3:0]  st_x_q, st_y_q;
  logic [15:0] st_n_q, st_got_q;
  logic        pa_lo_v_q, pa_v_q;
  logic [255:0] pa_lo_q;
  logic [351:0] pa_data_q;
  logic [15:0] pa_idx_q;
  logic        pin_take, pd_ok, pd_in, stray_pd;
  logic [15:0] pd_idx;
  assign pd_in  = rq_in_valid_i && rq_ty == TyPd;
  assign pd_idx = rq_in_flit_i[32*ktpu_pkg::PD_INDEX_WORD +: 16];
  assign pd_ok  = st_open_q && hdr4(rq_in_flit_i, ktpu_pkg::FLIT_SRC_X_LSB) == st_x_q &&
                  hdr4(rq_in_flit_i, ktpu_pkg::FLIT_SRC_Y_LSB) == st_y_q &&
                  (!rq_last || pd_idx < st_n_q);

  // PEER_DATA is taken whenever the peer buffer is free, a stray too (it
  // is then dropped): whether a flit belongs to the stream (its source, its
  // index inside the stream: a 16-bit compare) is not decided in front of
  // ready, where it ran on into the router's pop (the flat machine's
  // longest path, docs/timing.md). A stray waits at most until the buffered
  // sub-tile is added, which needs nothing from this plane.
  always_comb begin
    rq_in_ready_o = 1'b1;
    if (rq_ty == TyIns && !rq_skip_q) rq_in_ready_o = !iq_full;
    if (rq_ty == TyPd)                rq_in_ready_o = !pa_v_q;
  end
  assign iq_push  = rq_in_valid_i && rq_ty == TyIns && !rq_skip_q && !iq_full;
  assign stray_pd = pd_in && !pd_ok;

  // ==== engine state ==========================================================
  logic        eng_v_q;                 // completion/grant flit waiting to leave
  logic [287:0] eng_f_q;
  logic        eng_take;
  logic        ph_q;                     // phase 1 of DRAIN / SEND / RECV
  logic        recv_start;
  logic [15:0] recv_n;

  always_ff @(posedge gclk) begin
    if (rst_i) begin
      rq_skip_q <= 1'b0;
      st_open_q <= 1'b0;
      pa_lo_v_q <= 1'b0;
      pa_v_q    <= 1'b0;
    end else begin
      if (rq_in_valid_i && rq_in_ready_o && rq_ty == TyIns) rq_skip_q <= !rq_last;
      if (recv_start) begin
        st_open_q <= 1'b1;
        st_x_q    <= px;
        st_y_q    <= py;
        st_n_q    <= recv_n;
        st_got_q  <= '0;
      end
      if (pd_in && pd_ok && !pa_v_q) begin
        if (!rq_last) begin
          pa_lo_q   <= rq_in_flit_i[255:0];
          pa_lo_v_q <= 1'b1;
        end else if (pa_lo_v_q) begin
          pa_data_q <= {rq_in_flit_i[95:0], pa_lo_q};
          pa_idx_q  <= pd_idx;
          pa_v_q    <= 1'b1;
          pa_lo_v_q <= 1'b0;
          st_got_q  <= st_got_q + 16'd1;
          if (st_got_q + 16'd1 == st_n_q) st_open_q <= 1'b0;
        end
      end
      if (pin_take) pa_v_q <= 1'b0;
    end
  end

  // ==== response-plane input: L1 fills, acks, grants ==========================
  assign rs_in_ready_o = 1'b1;
  logic [3:0]  rs_ty;
  logic [31:0] rs_ack;
  assign rs_ty  = hdr4(rs_in_flit_i, ktpu_pkg::FLIT_TYPE_LSB);
  assign rs_ack = rs_in_flit_i[32*ktpu_pkg::ACK_STATUS_WORD +: 32];
  logic        wrack_in, grant_in;
  assign wrack_in = rs_in_valid_i && rs_ty == TyAck &&
                    rs_ack[ktpu_pkg::ACK_STATUS_OP_LSB +: 4] == TyWr;
  assign grant_in = rs_in_valid_i && rs_ty == TyGr;

  // Fills: the MEM_RD requests, the slots, the L1 writes, the streaming
  // start (ktpu_node_fill, below the head's fields).
  logic           fill_alloc, fill_ready, fills_busy, fill_nf, poison_q;
  logic           rd_v, rd_r, fill_v;
  logic [287:0]   rd_f, fill_f;
  logic [3:0]     l1a_we, l1b_we;
  logic [L1W-1:0] l1_waddr;
  logic           gemm_go, fills_ok, kb_ready, stat_clear;
  logic [15:0]    seq_kb, seq_kb1;
  logic           seq_kb_same, seq_kb_next;
  // L1: per side four lane banks of 232 bits ({scale, 32 x int7}), written by
  // MEM_DATA (one word per flit), read together as one 928-bit entry.
  logic [L1W-1:0] l1a_raddr, l1b_raddr;
  logic           l1_re;
  logic [231:0]   l1a_q [4], l1b_q [4];
  for (genvar l = 0; l < 4; l++) begin : gen_l1
    ktpu_ram #(.Width(232), .Depth(L1Depth), .ReadLatency(ktpu_pkg::L1_READ_LATENCY),
               .Primitive("block")) u_l1a (
      .clk_i(gclk), .we_i(l1a_we[l]), .waddr_i(l1_waddr), .wdata_i(rs_in_flit_i[231:0]),
      .re_i(l1_re), .raddr_i(l1a_raddr), .rdata_o(l1a_q[l]));
    ktpu_ram #(.Width(232), .Depth(L1Depth), .ReadLatency(ktpu_pkg::L1_READ_LATENCY),
               .Primitive("block")) u_l1b (
      .clk_i(gclk), .we_i(l1b_we[l]), .waddr_i(l1_waddr), .wdata_i(rs_in_flit_i[231:0]),
      .re_i(l1_re), .raddr_i(l1b_raddr), .rdata_o(l1b_q[l]));
  end

  // Grant table: receivers that granted this node a stream.
  logic [3:0] gr_v_q;
  logic [3:0] gr_x_q [4], gr_y_q [4];
  logic       gr_hit, gr_use, gr_full;
  logic [1:0] gr_idx, gr_free;
  logic [3:0] px, py;

  // ==== engine: the head's fields ===============================================
  logic        i_badlen;
  logic [3:0]  i_sx, i_sy;
  logic [7:0]  i_txn;
  logic [31:0] w [7];
  assign {i_badlen, i_sx, i_sy, i_txn} = hd_q[IqW-1:224];
  for (genvar k = 0; k < 7; k++) begin : gen_w
    assign w[k] = hd_q[32*k +: 32];
  end
  logic [3:0]  op;
  logic [15:0] aoff, boff, toff, gm, gn, nk;
  logic [31:0] base, stride;
  assign op     = w[ktpu_pkg::CI_OP_WORD][ktpu_pkg::CI_OP_CODE_LSB +: 4];
  assign px     = w[ktpu_pkg::CI_OP_WORD][ktpu_pkg::CI_OP_PX_LSB +: 4];
  assign py     = w[ktpu_pkg::CI_OP_WORD][ktpu_pkg::CI_OP_PY_LSB +: 4];
  assign aoff   = w[ktpu_pkg::CI_OFF_WORD][ktpu_pkg::CI_OFF_AOFF_LSB +: 16];
  assign boff   = w[ktpu_pkg::CI_OFF_WORD][ktpu_pkg::CI_OFF_BOFF_LSB +: 16];
  assign toff   = w[ktpu_pkg::CI_TOFF_WORD][ktpu_pkg::CI_TOFF_TOFF_LSB +: 16];
  assign gm     = w[ktpu_pkg::CI_SHAPE_WORD][ktpu_pkg::CI_SHAPE_GM_LSB +: 16];
  assign gn     = w[ktpu_pkg::CI_SHAPE_WORD][ktpu_pkg::CI_SHAPE_GN_LSB +: 16];
  assign nk     = w[ktpu_pkg::CI_NK_WORD][ktpu_pkg::CI_NK_NK_LSB +: 16];
  assign base   = w[ktpu_pkg::CI_BASE_WORD];
  assign stride = w[ktpu_pkg::CI_STRIDE_WORD];
  logic i_side, i_acc, i_emit, i_written, i_fwd, i_clear, i_silent;
  logic [1:0] i_fmt;
  assign i_side  = w[0][ktpu_pkg::CI_OP_SIDE_LSB];
  assign i_fmt   = w[0][ktpu_pkg::CI_OP_FMT_LSB +: 2];
  logic [6:0] i_grp;   // FILL: {GROUP_N, GROUP_ID}, passed to its MEM_RD
  assign i_grp   = {w[0][ktpu_pkg::CI_OP_GROUP_N_LSB +: 3], w[0][ktpu_pkg::CI_OP_GROUP_ID_LSB +: 4]};
  assign i_acc   = w[0][ktpu_pkg::CI_OP_ACC_LSB];
  assign i_emit  = w[0][ktpu_pkg::CI_OP_EMIT_LSB];
  assign i_written = w[0][ktpu_pkg::CI_OP_WRITTEN_LSB];
  assign i_fwd   = w[0][ktpu_pkg::CI_OP_FWD_LSB];
  assign i_clear = w[0][ktpu_pkg::CI_OP_CLEAR_LSB];
  assign i_silent = w[0][ktpu_pkg::CI_OP_SILENT_LSB];

  // The two checks whose answer can change while an instruction waits at
  // the head are made at dispatch, in this order: a bad length, then a
  // FILL refused since the last STATUS CLEAR (poison); then the head's.
  logic [7:0] err;
  always_comb begin
    err = hd_chk_q;
    if (i_badlen) err = 8'(ktpu_pkg::CLERR_LENGTH);
    else if (poison_q && op != OpFill && op != OpStatus) err = 8'(ktpu_pkg::CLERR_FILLFAIL);
  end

  ktpu_node_fill #(.X(X), .Y(Y), .MemX(MemX), .MemY(MemY), .MemPorts(MemPorts),
                   .Mem1X(Mem1X), .Mem1Y(Mem1Y), .Near1(Near1), .L1Depth(L1Depth)) u_fill (
    .clk_i(gclk), .rst_i(rst_i),
    .ready_o(fill_ready), .alloc_i(fill_alloc), .side_i(i_side), .off_i(L1W'(aoff)), .gm_i(gm),
    .half_i(hd_half_q), .nk_i(nk), .base_i(base), .stride_i(stride), .fmt_i(i_fmt), .grp_i(i_grp),
    .silent_i(i_silent),
    .sx_i(i_sx), .sy_i(i_sy), .txn_i(i_txn),
    .rd_valid_o(rd_v), .rd_ready_i(rd_r), .rd_flit_o(rd_f),
    .rs_valid_i(rs_in_valid_i), .rs_flit_i(rs_in_flit_i),
    .l1a_we_o(l1a_we), .l1b_we_o(l1b_we), .l1_waddr_o(l1_waddr),
    .g_nk_i(nk), .g_aoff_i(L1W'(aoff)), .g_boff_i(L1W'(boff)), .g_start_i(gemm_go),
    .g_stay_i(hd_v_q && !hd_pop), .seq_kb_i(seq_kb), .seq_kb1_i(seq_kb1), .seq_kb_same_i(seq_kb_same),
    .seq_kb_next_i(seq_kb_next),
    .fills_ok_o(fills_ok), .kb_ready_o(kb_ready),
    .done_valid_o(fill_v), .done_ready_i(rs_out_ready_i), .done_flit_o(fill_f),
    .clear_i(stat_clear), .poison_o(poison_q), .busy_o(fills_busy), .nf_o(fill_nf)
  );

  // ==== the datapath: sequencer, chain, accumulator ============================
  logic        seq_start, seq_busy, seq_free, seq_stall, seq_pad, seq_starved, issue;
  logic [1:0]  seq_mode;
  logic        cmd_valid, cmd_ready, peer_ready;
  logic [2:0]  cmd_op;
  logic [TW-1:0] cmd_addr;
  ktpu_node_seq #(.L1Depth(L1Depth), .AccDepth(AccDepth)) u_seq (
    .clk_i(gclk), .rst_i(rst_i),
    .start_i(seq_start), .mode_i(seq_mode), .aoff_i(L1W'(aoff)), .boff_i(L1W'(boff)),
    .toff_i(TW'(toff)), .gm_i(gm), .gn_i(gn), .nk_i(nk), .acc_i(i_acc), .emit_i(i_emit), .fwd_i(i_fwd),
    .kb_o(seq_kb), .kb1_o(seq_kb1), .kb_same_o(seq_kb_same), .kb_next_o(seq_kb_next), .kb_ready_i(kb_ready),
    .starved_o(seq_starved),
    .busy_o(seq_busy), .free_o(seq_free), .stall_o(seq_stall), .pad_o(seq_pad),
    .l1_re_o(l1_re), .l1a_addr_o(l1a_raddr), .l1b_addr_o(l1b_raddr),
    .pin_valid_i(pa_v_q), .pin_index_i(pa_idx_q), .pin_take_o(pin_take),
    .cmd_valid_o(cmd_valid), .cmd_ready_i(cmd_ready), .cmd_op_o(cmd_op), .cmd_addr_o(cmd_addr),
    .peer_ready_i(peer_ready), .issue_o(issue)
  );

  logic [895:0] a_ent, b_ent;
  logic [31:0]  sa, sb;
  for (genvar l = 0; l < 4; l++) begin : gen_ent
    assign a_ent[224*l +: 224] = l1a_q[l][223:0];
    assign b_ent[224*l +: 224] = l1b_q[l][223:0];
    assign sa[8*l +: 8]        = l1a_q[l][231:224];
    assign sb[8*l +: 8]        = l1b_q[l][231:224];
  end
  logic         dp_valid;
  logic [303:0] partial;
  logic [63:0]  scales;
  ktpu_cluster_dp u_dp (
    .clk_i(gclk), .rst_i(rst_i), .en_i(1'b1), .valid_i(issue), .a_i(a_ent), .b_i(b_ent),
    .valid_o(dp_valid), .partial_o(partial)
  );
  // The scales do not pass through the datapath: they ride beside it.
  ktpu_delay #(.Width(64), .Depth(ktpu_pkg::CLUSTER_DP_LATENCY)) u_scales (
    .clk_i(gclk), .en_i(1'b1), .d_i({sb, sa}), .q_o(scales)
  );

  logic         emit_v, emit_r, pout_v, pout_r, acc_busy;
  logic [255:0] emit_d;
  logic [351:0] pout_d;
  logic [2:0]   acc_flags;
  /* verilator lint_off PINCONNECTEMPTY */
  ktpu_acc #(.Depth(AccDepth)) u_acc (
    .clk_i(gclk), .rst_ni(!rst_i),
    .cmd_valid_i(cmd_valid), .cmd_ready_o(cmd_ready), .cmd_op_i(cmd_op), .cmd_addr_i(cmd_addr),
    .res_valid_i(dp_valid), .res_p_i(partial), .res_sa_i(scales[31:0]), .res_sb_i(scales[63:32]),
    .peer_in_valid_i(pin_take), .peer_in_ready_o(peer_ready), .peer_in_data_i(pa_data_q),
    .peer_out_valid_o(pout_v), .peer_out_ready_i(pout_r), .peer_out_data_o(pout_d),
    .peer_out_addr_o(),
    .emit_valid_o(emit_v), .emit_ready_i(emit_r), .emit_data_o(emit_d), .emit_addr_o(),
    .busy_o(acc_busy), .inflight_o(), .flags_o(acc_flags), .stat_clear_i(stat_clear),
    .cnt_acc_ovf_o(), .cnt_acc_unf_o(), .cnt_f16_ovf_o()
  );
  /* verilator lint_on PINCONNECTEMPTY */

  // Drain to memory. A job's tag comes back when the job is written:
  // {a GEMM's fused drain that asked for CL_WRITTEN, its sender, its txn}.
  logic         job_push, job_full, dr_v, dr_r, dr_busy, wr_v, wr_r;
  logic [287:0] dr_f;
  logic [16:0]  wr_tag;
  ktpu_node_drain #(.X(X), .Y(Y), .MemX(MemX), .MemY(MemY), .MemPorts(MemPorts), .TagW(17),
                    .Mem1X(Mem1X), .Mem1Y(Mem1Y), .Near1(Near1)) u_drain (
    .clk_i(gclk), .rst_i(rst_i),
    .job_push_i(job_push), .job_base_i(base), .job_stride_i(stride), .job_gm_i(gm),
    .job_gn_i(gn), .job_tag_i({op == OpGemm && i_written, i_sx, i_sy, i_txn}), .job_full_o(job_full),
    .emit_valid_i(emit_v), .emit_ready_o(emit_r), .emit_data_i(emit_d),
    .out_valid_o(dr_v), .out_ready_i(dr_r), .out_flit_o(dr_f),
    .ack_i(wrack_in), .ack1_i(MemPorts > 1 && hdr4(rs_in_flit_i, ktpu_pkg::FLIT_SRC_X_LSB) == 4'(Mem1X) &&
                              hdr4(rs_in_flit_i, ktpu_pkg::FLIT_SRC_Y_LSB) == 4'(Mem1Y)),
    .written_valid_o(wr_v), .written_ready_i(wr_r), .written_tag_o(wr_tag),
    .busy_o(dr_busy)
  );

  // Peer out: each FP22 sub-tile one PEER_DATA packet of two flits.
  logic        pk_hi_q;
  logic [3:0]  pk_x_q, pk_y_q;
  logic [15:0] pk_idx_q, pk_left_q;
  logic        pk_v, pk_r, send_start;
  logic [287:0] pk_f;
  logic [255:0] pk_pl;
  always_comb begin
    pk_pl = '0;
    if (!pk_hi_q) pk_pl = pout_d[255:0];
    else begin
      pk_pl[95:0] = pout_d[351:256];
      pk_pl[32*ktpu_pkg::PD_INDEX_WORD +: 16] = pk_idx_q;
    end
  end
  assign pk_v   = pout_v;
  assign pk_f   = mkflit(pk_x_q, pk_y_q, TyPd, 8'h50, pk_hi_q, pk_pl);
  assign pout_r = pk_v && pk_r && pk_hi_q;
  always_ff @(posedge gclk) begin
    if (rst_i) begin
      pk_hi_q   <= 1'b0;
      pk_left_q <= '0;
    end else begin
      if (send_start) begin
        pk_x_q    <= px;
        pk_y_q    <= py;
        pk_idx_q  <= '0;
        pk_left_q <= (op == OpGemm) ? hd_gmgn_q : gn;   // FWD: gm x gn
      end
      if (pk_v && pk_r) begin
        pk_hi_q <= !pk_hi_q;
        if (pk_hi_q) begin
          pk_idx_q  <= pk_idx_q + 16'd1;
          pk_left_q <= pk_left_q - 16'd1;
        end
      end
    end
  end

  // ==== request-plane output: MEM_RD, drain bursts, peer data ================
  logic        lock_q;
  logic [1:0]  lsrc_q, sel;
  always_comb begin
    if (lock_q)      sel = lsrc_q;
    else if (rd_v)   sel = 2'd0;
    else if (pk_v)   sel = 2'd2;
    else             sel = 2'd1;
    unique case (sel)
      2'd0:    begin rq_out_valid_o = rd_v;   rq_out_flit_o = rd_f;   end
      2'd2:    begin rq_out_valid_o = pk_v;   rq_out_flit_o = pk_f;   end
      default: begin rq_out_valid_o = dr_v;   rq_out_flit_o = dr_f;   end
    endcase
  end
  assign rd_r = rq_out_ready_i && sel == 2'd0;
  assign dr_r = rq_out_ready_i && sel == 2'd1;
  assign pk_r = rq_out_ready_i && sel == 2'd2;
  logic rq_take;
  assign rq_take = rq_out_valid_o && rq_out_ready_i;
  always_ff @(posedge gclk) begin
    if (rst_i) lock_q <= 1'b0;
    else if (rq_take) begin
      lock_q <= !rq_out_flit_o[H + ktpu_pkg::FLIT_LAST_LSB];
      lsrc_q <= sel;
    end
  end

  // ==== response-plane output: engine answers and grants, fill completions,
  // tiles written ================================================================
  logic        wn_v_q, wn_take;
  logic [287:0] wn_f_q;
  logic        wrerr_q;         // sticky: a write refused since the last CLEAR,
  logic [3:0]  wrerr_st_q;      // the first such: its MEMST code and address
  logic [31:0] wrerr_addr_q;
  // A FILL's completion leaves before the engine's answers: a refused FILL's
  // CLERR_MEM reaches the sender ahead of the CLERR_FILLFAIL it causes. The
  // engine's answers leave before CL_WRITTEN: a GEMM's CL_DONE, posted when
  // its sweep started, before its tile's; a STATUS waits for quiet, which
  // waits until every CL_WRITTEN has left.
  assign rs_out_valid_o = eng_v_q || fill_v || wn_v_q;
  assign rs_out_flit_o  = fill_v ? fill_f : eng_v_q ? eng_f_q : wn_f_q;
  assign eng_take  = !fill_v && eng_v_q && rs_out_ready_i;
  assign wn_take   = !fill_v && !eng_v_q && wn_v_q && rs_out_ready_i;
  // a DRAIN's job is answered by the engine (when the drain is idle): its
  // written tag is only taken
  assign wr_r = !wr_tag[16] || !wn_v_q || wn_take;
  always_ff @(posedge gclk) begin
    if (rst_i) wn_v_q <= 1'b0;
    else begin
      if (wn_take) wn_v_q <= 1'b0;
      if (wr_v && wr_r && wr_tag[16]) begin
        logic [255:0] pl;
        pl = '0;
        pl[ktpu_pkg::CD_STATUS_OP_LSB +: 4] = OpGemm;
        if (wrerr_q) begin   // a write refused since the last CLEAR: C is not whole
          pl[ktpu_pkg::CD_STATUS_CODE_LSB +: 8]  = 8'(ktpu_pkg::CLERR_MEM);
          pl[ktpu_pkg::CD_STATUS_MEMST_LSB +: 4] = wrerr_st_q;
          pl[32*ktpu_pkg::CD_ADDR_WORD +: 32]    = wrerr_addr_q;
        end
        wn_v_q <= 1'b1;
        wn_f_q <= mkflit(wr_tag[15:12], wr_tag[11:8], TyWritten, wr_tag[7:0], 1'b1, pl);
      end
    end
  end

  // ==== counters =================================================================
  logic [31:0] c_fill_q, c_sweep_q, c_drain_q, c_idle_q, c_starve_q, c_bp_q;
  logic [15:0] c_err_q;
  logic [9:0]  c_pad_q;
  logic        nf_q, stray_q, sweep_q, starving, post_err;
  function automatic logic [31:0] inc(input logic [31:0] c, input logic e);
    inc = (e && c != 32'hFFFF_FFFF) ? c + 32'd1 : c;
  endfunction

  // ==== engine ====================================================================
  logic        eng_post;                 // load eng_f_q this cycle
  logic [255:0] eng_pl;
  logic        fill_go, quiet;
  assign quiet   = !seq_busy && !fills_busy && !dr_busy && !acc_busy && !pout_v &&
                   pk_left_q == '0 && !wn_v_q;
  assign asleep  = iq_empty && quiet && !eng_v_q && !fill_v;
  assign fill_go = hd_v_q && err == '0 && op == OpFill && fill_ready;
  // a FWD GEMM also needs its receiver's grant and the peer packetiser free
  // (an earlier FWD GEMM answered at its start; its packets may still leave)
  // A GEMM starts as soon as the sequencer's loops are free: the previous
  // job's last command may still be in stage 1 (it issues first, in order).
  assign gemm_go = hd_v_q && err == '0 && op == OpGemm && seq_free && fills_ok &&
                   !eng_v_q && !(i_emit && job_full) && !(i_fwd && (!gr_hit || pk_left_q != '0));
  // starved: the datapath has nothing to do because the next GEMM's operands
  // are still arriving, before its start or at a K pass (waiting behind a
  // running sweep is not starving)
  assign starving = (hd_v_q && err == '0 && op == OpGemm && !fills_ok && !seq_busy) ||
                    seq_starved;

  always_comb begin
    gr_hit = 1'b0; gr_idx = '0; gr_full = 1'b1; gr_free = '0;
    for (int k = 3; k >= 0; k--) begin
      if (gr_v_q[k] && gr_x_q[k] == px && gr_y_q[k] == py) begin gr_hit = 1'b1; gr_idx = 2'(k); end
      if (!gr_v_q[k]) begin gr_full = 1'b0; gr_free = 2'(k); end
    end
  end

  always_comb begin
    hd_pop = 1'b0; eng_post = 1'b0; eng_pl = '0; seq_start = 1'b0; seq_mode = 2'd0;
    job_push = 1'b0; send_start = 1'b0; recv_start = 1'b0; recv_n = gn; gr_use = 1'b0;
    fill_alloc = 1'b0; stat_clear = 1'b0; post_err = 1'b0;
    eng_pl[ktpu_pkg::CD_STATUS_OP_LSB +: 4] = op;
    if (hd_v_q && !eng_v_q) begin
      if (err != '0) begin
        eng_post = 1'b1; hd_pop = 1'b1; post_err = 1'b1;
        eng_pl[ktpu_pkg::CD_STATUS_CODE_LSB +: 8] = err;
      end else begin
        unique case (op)
          OpFill: if (fill_go) begin fill_alloc = 1'b1; hd_pop = 1'b1; end
          OpGemm: if (gemm_go) begin
            seq_start = 1'b1; seq_mode = 2'd0; job_push = i_emit;
            send_start = i_fwd; gr_use = i_fwd;
            eng_post = !i_silent; hd_pop = 1'b1;
          end
          OpDrain: begin
            if (!ph_q && !seq_busy && !job_full) begin
              seq_start = 1'b1; seq_mode = 2'd1; job_push = 1'b1;
            end else if (ph_q && !seq_busy && !dr_busy) begin
              eng_post = !i_silent; hd_pop = 1'b1;
            end
          end
          OpSend: begin
            if (!ph_q && !seq_busy && gr_hit && pk_left_q == '0) begin
              seq_start = 1'b1; seq_mode = 2'd2; send_start = 1'b1; gr_use = 1'b1;
            end else if (ph_q && !seq_busy && pk_left_q == '0) begin
              eng_post = !i_silent; hd_pop = 1'b1;
            end
          end
          OpRecv: begin
            if (!ph_q && !seq_busy && !st_open_q && !pa_v_q) begin
              // the grant leaves first, through the same register
              seq_start = 1'b1; seq_mode = 2'd3; recv_start = 1'b1; eng_post = 1'b1;
            end else if (ph_q && !seq_busy) begin
              eng_post = !i_silent; hd_pop = 1'b1;
            end
          end
          default: if (quiet) begin            // STATUS
            eng_post = 1'b1; hd_pop = 1'b1; stat_clear = i_clear;
            eng_pl[32*ktpu_pkg::CD_FILL_WORD +: 32]    = c_fill_q;
            eng_pl[32*ktpu_pkg::CD_SWEEP_WORD +: 32]   = c_sweep_q;
            eng_pl[32*ktpu_pkg::CD_DRAIN_WORD +: 32]   = c_drain_q;
            eng_pl[32*ktpu_pkg::CD_IDLE_WORD +: 32]    = c_idle_q;
            eng_pl[32*ktpu_pkg::CD_STARVED_WORD +: 32] = c_starve_q;
            eng_pl[32*ktpu_pkg::CD_BP_WORD +: 32]      = c_bp_q;
            eng_pl[32*ktpu_pkg::CD_FLAGS_WORD +: 32]   =
                {c_err_q, c_pad_q, stray_q, wrerr_q, nf_q, acc_flags};
          end
        endcase
      end
    end
  end

  always_ff @(posedge gclk) begin
    if (rst_i) begin
      eng_v_q <= 1'b0;
      ph_q    <= 1'b0;
      gr_v_q  <= '0;
      sweep_q <= 1'b0;
    end else begin
      if (eng_take) eng_v_q <= 1'b0;
      if (eng_post) begin
        eng_v_q <= 1'b1;
        eng_f_q <= recv_start
            ? mkflit(px, py, TyGr, 8'h47, 1'b1, 256'd0)
            : mkflit(i_sx, i_sy, TyDone, i_txn, 1'b1, eng_pl);
      end
      if (hd_pop) ph_q <= 1'b0;
      else if (seq_start) ph_q <= 1'b1;
      if (gemm_go) sweep_q <= 1'b1;
      else if (!seq_busy) sweep_q <= 1'b0;
      // grants
      for (int k = 0; k < 4; k++) begin
        if (gr_use && gr_idx == 2'(k))                  gr_v_q[k] <= 1'b0;
        if (grant_in && !gr_full && gr_free == 2'(k))   gr_v_q[k] <= 1'b1;
      end
      if (grant_in && !gr_full) begin
        gr_x_q[gr_free] <= hdr4(rs_in_flit_i, ktpu_pkg::FLIT_SRC_X_LSB);
        gr_y_q[gr_free] <= hdr4(rs_in_flit_i, ktpu_pkg::FLIT_SRC_Y_LSB);
      end
    end
  end

  // counters and sticky flags
  localparam int ActFill = ktpu_pkg::CD_FILL_WORD - 1, ActSweep = ktpu_pkg::CD_SWEEP_WORD - 1,
                 ActDrain = ktpu_pkg::CD_DRAIN_WORD - 1, ActIdle = ktpu_pkg::CD_IDLE_WORD - 1,
                 ActStarved = ktpu_pkg::CD_STARVED_WORD - 1, ActBp = ktpu_pkg::CD_BP_WORD - 1;
  always_comb begin
    act_o = '0;
    act_o[ActFill]    = fills_busy;
    act_o[ActSweep]   = sweep_q && !seq_starved;
    act_o[ActDrain]   = dr_busy || pout_v || pk_left_q != '0;
    act_o[ActIdle]    = iq_empty && quiet;
    act_o[ActStarved] = starving;
    act_o[ActBp]      = (rq_out_valid_o && !rq_out_ready_i) || (rs_out_valid_o && !rs_out_ready_i) ||
                        (seq_stall && cmd_valid && !cmd_ready);
  end
  always_ff @(posedge clk_i) begin
    if (rst_i || stat_clear) begin
      c_fill_q <= '0; c_sweep_q <= '0; c_drain_q <= '0; c_idle_q <= '0;
      c_starve_q <= '0; c_bp_q <= '0; c_err_q <= '0; c_pad_q <= '0;
      nf_q <= 1'b0; wrerr_q <= 1'b0; stray_q <= 1'b0;
    end else begin
      c_fill_q   <= inc(c_fill_q, act_o[ActFill]);
      c_sweep_q  <= inc(c_sweep_q, act_o[ActSweep]);
      c_drain_q  <= inc(c_drain_q, act_o[ActDrain]);
      c_idle_q   <= inc(c_idle_q, act_o[ActIdle]);
      c_starve_q <= inc(c_starve_q, act_o[ActStarved]);
      c_bp_q     <= inc(c_bp_q, act_o[ActBp]);
      if (post_err && c_err_q != 16'hFFFF) c_err_q <= c_err_q + 16'd1;
      if (seq_pad && c_pad_q != 10'h3FF) c_pad_q <= c_pad_q + 10'd1;
      if (fill_nf) nf_q <= 1'b1;
      if (wrack_in && rs_ack[ktpu_pkg::ACK_STATUS_CODE_LSB +: 4] != 4'(ktpu_pkg::MEMST_OK)) begin
        wrerr_q <= 1'b1;
        if (!wrerr_q) begin
          wrerr_st_q   <= rs_ack[ktpu_pkg::ACK_STATUS_CODE_LSB +: 4];
          wrerr_addr_q <= rs_in_flit_i[32*ktpu_pkg::ACK_ADDR_WORD +: 32];
        end
      end
      if (stray_pd || (grant_in && gr_full)) stray_q <= 1'b1;
    end
  end

`ifndef SYNTHESIS
  // quiet covers the request plane and the peer stream: no request flit
  // waits and no peer packet is half assembled while the node sleeps
  always_ff @(posedge clk_i) begin
    if (!rst_i && asleep)
      assert (!rq_out_valid_o && !pa_lo_v_q && !pa_v_q)
        else $error("ktpu_node: asleep with a request flit or a peer packet pending");
  end
`endif

  logic unused_ok;
  assign unused_ok = ^{rs_ack, rs_in_flit_i, rq_in_flit_i, w[0], w[2], w[4], st_got_q,
                       aoff[15:L1W], boff[15:L1W], toff[15:TW]};   // the head checked they fit
endmodule
`default_nettype wire
