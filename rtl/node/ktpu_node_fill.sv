`default_nettype none
// Fill engine of the cluster node (docs/node.md, "Fills"): NODE_FILL_SLOTS
// FILLs in flight, each answered by one CL_DONE when its last word has
// landed in L1 or the memory agent refused it (CLERR_MEM).
//
// A FILL is one MEM_RD (txn {0x28, slot}). With two memory agents an FP16
// FILL is two: its first 2^sh row groups from agent 0 and the rest from
// agent 1, each half K-block-major on its own, so both ports carry every
// operand's load whatever its address (the split decides bandwidth, never
// correctness: both agents reach the whole DRAM, docs/soc.md). 2^sh is the
// power of two nearest half the groups (found by ktpu_node_iq with the
// head's checks, half_i), so the second half's first row and first L1
// entry are shifts of the stride and NK, never products. An MXFP7 FILL
// goes whole to the nearer agent: it reads one DRAM beat per flit, so an
// agent sends as fast as a node's one ejection port takes, and two agents
// sending halves to the same node at once hold each other's flits for
// other nodes behind theirs in the routers (an FP16 half reads two beats
// per flit: two agents together fill one port). Each half counts its own
// K blocks; a FILL has landed block kb when both halves have (a FILL read
// whole has one half, the other counts as landed), and is done when each
// half has landed every block or was refused.
//
// Streaming (docs/node.md): a FILL in flight is "streamed" for the GEMM at
// the head when its entries are where the sweep reads them in the same K
// pass (same side and offset, NK = the GEMM's: its entry g*NK + kb is the
// GEMM's aoff/boff + g*nk + kb, whatever the group counts); the GEMM then
// starts without it and the sequencer holds each K pass kb until every such
// FILL (dep_q, taken at the start) has landed K block kb. Any other FILL in
// flight holds the start until it is complete, as does a refused one; and a
// streamed one holds it until a word of each half is in (so neither half
// was refused: the agent refuses a read whole, before any data).
module ktpu_node_fill #(
  parameter int unsigned X        = 0,
  parameter int unsigned Y        = 1,
  parameter int unsigned MemX     = ktpu_pkg::NODE_MEM_X,
  parameter int unsigned MemY     = ktpu_pkg::NODE_MEM_Y,
  parameter int unsigned MemPorts = 1,
  parameter int unsigned Mem1X    = ktpu_pkg::NODE_MEM1_X,
  parameter int unsigned Mem1Y    = ktpu_pkg::NODE_MEM1_Y,
  parameter bit          Near1    = 1'b0,  // the second agent is the nearer one: MXFP7 FILLs go there
  parameter int unsigned L1Depth  = ktpu_pkg::L1_DEPTH,
  localparam int unsigned L1W     = $clog2(L1Depth)
) (
  input  wire              clk_i,
  input  wire              rst_i,
  // a FILL from the engine: alloc_i only while ready_o
  output logic             ready_o,
  input  wire              alloc_i,
  input  wire              side_i,       // 0: L1 A, 1: L1 B
  input  wire  [L1W-1:0]   off_i,
  input  wire  [15:0]      gm_i,
  input  wire  [4:0]       half_i,       // {split, sh}: the first half's groups are 2^sh
  input  wire  [15:0]      nk_i,
  input  wire  [31:0]      base_i,
  input  wire  [31:0]      stride_i,
  input  wire  [1:0]       fmt_i,
  input  wire  [6:0]       grp_i,        // {GROUP_N, GROUP_ID}: a grouped read (docs/mem.md) when N >= 2
  input  wire              silent_i,     // CI_OP SILENT: no CL_DONE unless refused or non-finite
  input  wire  [3:0]       sx_i,         // the instruction's sender and txn
  input  wire  [3:0]       sy_i,
  input  wire  [7:0]       txn_i,
  // MEM_RD requests (request plane)
  output logic             rd_valid_o,
  input  wire              rd_ready_i,
  output logic [287:0]     rd_flit_o,
  // response plane in (always taken): this engine's MEM_DATA and MEM_ACK
  input  wire              rs_valid_i,
  input  wire  [287:0]     rs_flit_i,
  // L1 lane-bank writes (the data is rs_flit_i[231:0])
  output logic [3:0]       l1a_we_o,
  output logic [3:0]       l1b_we_o,
  output logic [L1W-1:0]   l1_waddr_o,
  // streaming: the GEMM at the head, its start, the sequencer's K pass
  input  wire  [15:0]      g_nk_i,
  input  wire  [L1W-1:0]   g_aoff_i,
  input  wire  [L1W-1:0]   g_boff_i,
  input  wire              g_start_i,
  input  wire              g_stay_i,     // the head stays: valid and not popped this cycle
  input  wire  [15:0]      seq_kb_i,     // the sequencer's K pass and the next one; which
  input  wire  [15:0]      seq_kb1_i,    // of the checks made a cycle ago is about the pass
  input  wire              seq_kb_same_i,  // of now: seq_kb_i's, seq_kb1_i's, or neither
  input  wire              seq_kb_next_i,  // (ktpu_node_seq)
  output logic             fills_ok_o,   // the GEMM at the head may start
  output logic             kb_ready_o,   // its K pass seq_kb_i may run
  // completions (response plane), poison
  output logic             done_valid_o,
  input  wire              done_ready_i,
  output logic [287:0]     done_flit_o,
  input  wire              clear_i,      // STATUS CLEAR
  output logic             poison_o,     // a FILL was refused since the last CLEAR
  output logic             busy_o,       // a FILL in flight or a request waiting
  output logic             nf_o          // a non-finite block landed this cycle
);
  localparam int unsigned H     = ktpu_pkg::FLIT_HDR_LSB;
  localparam int unsigned NSlot = ktpu_pkg::NODE_FILL_SLOTS;
  localparam bit          Split = MemPorts > 1;
  localparam logic [5:0]  TxnTag = 6'h28;
  localparam logic [3:0]  TyRd = 4'(ktpu_pkg::MSG_MEM_RD), TyData = 4'(ktpu_pkg::MSG_MEM_DATA);
  localparam logic [3:0]  TyAck = 4'(ktpu_pkg::MSG_MEM_ACK), TyDone = 4'(ktpu_pkg::MSG_CL_DONE);

  if (NSlot != 4 || (1 << L1W) != L1Depth) begin : gen_bad_params
    $error("ktpu_node_fill: 4 fill slots, a power-of-two L1");
  end

  function automatic logic [287:0] mkflit(input logic [3:0] dx, input logic [3:0] dy,
      input logic [3:0] ty, input logic [7:0] txn, input logic [255:0] pl);
    mkflit = {ktpu_pkg::flit_pack(dx, dy, 4'(X), 4'(Y), ty, txn, 1'b1), pl};
  endfunction
  function automatic logic [287:0] rdflit(input logic h, input logic [1:0] slot,
      input logic [31:0] base, input logic [31:0] stride, input logic [15:0] groups,
      input logic [15:0] nk, input logic [1:0] fmt, input logic [6:0] grp);
    rdflit = mkflit(h ? 4'(Mem1X) : 4'(MemX), h ? 4'(Mem1Y) : 4'(MemY), TyRd, {TxnTag, slot},
                    {128'd0, 32'(fmt) << ktpu_pkg::RD_CTRL_FMT_LSB | 32'(grp[3:0]) << ktpu_pkg::RD_CTRL_GROUP_ID_LSB |
                     32'(grp[6:4]) << ktpu_pkg::RD_CTRL_GROUP_N_LSB, nk, groups, stride, base});
  endfunction
  // ---- what arrives -------------------------------------------------------------
  logic [3:0]  rs_ty;
  logic [31:0] rs_tag, rs_ack;
  logic        ours, data_in, ack_in, d_half;
  logic [1:0]  d_slot, d_lane;
  logic [2:0]  dh;                       // {half, slot}: the per-half arrays' index
  assign rs_ty   = rs_flit_i[H + ktpu_pkg::FLIT_TYPE_LSB +: 4];
  assign rs_tag  = rs_flit_i[32*ktpu_pkg::DATA_TAG_WORD +: 32];
  assign rs_ack  = rs_flit_i[32*ktpu_pkg::ACK_STATUS_WORD +: 32];
  assign ours    = rs_valid_i && rs_flit_i[H + ktpu_pkg::FLIT_TXN_LSB + 2 +: 6] == TxnTag;
  assign data_in = ours && rs_ty == TyData;
  assign ack_in  = ours && rs_ty == TyAck && rs_ack[ktpu_pkg::ACK_STATUS_OP_LSB +: 4] == TyRd;
  assign d_slot  = rs_flit_i[H + ktpu_pkg::FLIT_TXN_LSB +: 2];
  assign d_half  = Split && rs_flit_i[H + ktpu_pkg::FLIT_SRC_X_LSB +: 4] == 4'(Mem1X) &&
                   rs_flit_i[H + ktpu_pkg::FLIT_SRC_Y_LSB +: 4] == 4'(Mem1Y);
  assign dh      = {d_half, d_slot};
  assign d_lane  = rs_tag[ktpu_pkg::DATA_TAG_WORD_LSB +: 2];
  assign nf_o    = data_in && rs_tag[ktpu_pkg::DATA_TAG_NONFINITE_LSB];

  // ---- slots: per FILL, and per half (index {half, slot}) -------------------------
  logic [NSlot-1:0] sl_v_q, sl_side_q, sl_nf_q, sl_silent_q, dep_q;
  logic [15:0]      sl_nk_q [NSlot];
  logic [3:0]       sl_memst_q [NSlot], sl_x_q [NSlot], sl_y_q [NSlot];
  logic [7:0]       sl_txn_q [NSlot];
  logic [31:0]      sl_addr_q [NSlot];
  logic [2*NSlot-1:0] hf_got_q;          // a word of the half has landed
  logic [2*NSlot-1:0] hf_err_q;          // the half was refused
  logic [L1W-1:0]   hf_off_q [2*NSlot];  // L1 entry of the half's entry 0
  logic [15:0]      hf_gm_q [2*NSlot];   // the half's row groups
  logic [15:0]      hf_blk_q [2*NSlot];  // K blocks landed (every group's entry): NK = done
  logic [15:0]      hf_bw_q [2*NSlot];   // words of the current K block still to land

  // a FILL's state from its halves' (one port: the first half's alone, so
  // the one-port node's logic is what it was before the split). A SILENT
  // FILL that landed whole and finite frees its slot by itself (sl_hush),
  // unanswered: only the slots that answer take turns at the completion
  // register, so whether to answer is not chosen after the slot select,
  // which runs from the K-block compares.
  logic [NSlot-1:0] sl_err, sl_got, sl_done, sl_hush;
  logic             have_free, have_done;
  logic [1:0]       free_slot, done_slot;
  always_comb begin
    have_free = 1'b0; free_slot = '0;
    have_done = 1'b0; done_slot = '0;
    for (int s = NSlot - 1; s >= 0; s--) begin
      sl_err[s]  = hf_err_q[s] || (Split && hf_err_q[NSlot + s]);
      sl_got[s]  = hf_got_q[s] && (!Split || hf_got_q[NSlot + s]);
      sl_done[s] = (hf_blk_q[s] == sl_nk_q[s] || hf_err_q[s]) &&
                   (!Split || hf_blk_q[NSlot + s] == sl_nk_q[s] || hf_err_q[NSlot + s]);
      sl_hush[s] = sl_v_q[s] && sl_done[s] && sl_silent_q[s] && !sl_err[s] && !sl_nf_q[s];
      if (!sl_v_q[s]) begin have_free = 1'b1; free_slot = 2'(s); end
      if (sl_v_q[s] && sl_done[s] && !sl_hush[s]) begin have_done = 1'b1; done_slot = 2'(s); end
    end
  end

  // ---- requests: the first half's at the allocation, the second's after it ----
  logic        rd_v_q, p_v_q;            // p: the second half still to request
  logic [1:0]  p_slot_q;
  logic [3:0]  p_sh_q;
  logic [15:0] p_gm_q, p_nk_q;
  logic [31:0] p_base_q, p_stride_q;
  logic [1:0]  p_fmt_q;
  logic [6:0]  p_grp_q;
  logic [L1W-1:0] p_off_q;
  logic [287:0] rd_f_q;
  logic [4:0]  fh;
  logic        split, h0;
  logic [15:0] g0, p_g1;                 // the first request's groups, the second's
  assign fh    = Split ? half_i : 5'd0;   // one port: no split
  assign split = Split && fh[4] && fmt_i == 2'(ktpu_pkg::FMT_FP16);
  // the first request's agent: 1 = whole to agent 1; a grouped MXFP7 FILL
  // goes whole to agent 0 from every cluster, so its members meet there
  assign h0    = Split && Near1 && !split && grp_i[6:4] < 3'd2;
  assign g0    = split ? 16'd1 << fh[3:0] : gm_i;
  assign p_g1  = p_gm_q - (16'd1 << p_sh_q);
  assign ready_o    = have_free && !rd_v_q && !p_v_q;
  assign rd_valid_o = rd_v_q;
  assign rd_flit_o  = rd_f_q;
  assign busy_o     = sl_v_q != '0;      // a request waits only for an allocated slot

  // ---- streaming ---------------------------------------------------------------------
  // A slot is streamed by the head's GEMM if it fills what the GEMM reads
  // (same NK, its side's offset). The compares are made a cycle ahead
  // (match_q) and trusted only if nothing they read has changed since: the
  // same head (match_ok_q; a slot is allocated only as its FILL leaves the
  // head, so that covers the slots too); else the GEMM waits a cycle. So the
  // head's start decision holds no compare (docs/timing.md).
  logic [NSlot-1:0] match, match_q, done_clr;
  logic             match_ok_q;
  always_comb
    for (int s = 0; s < NSlot; s++)
      match[s] = sl_nk_q[s] == g_nk_i && hf_off_q[s] == (sl_side_q[s] ? g_boff_i : g_aoff_i);
  always_ff @(posedge clk_i) begin
    match_q    <= match;
    match_ok_q <= g_stay_i;
  end
  // The streaming check: every streamed FILL has landed K block kb. Made a
  // cycle ahead, for the sequencer's K pass and the one after it
  // (kb_ok_q, kb1_ok_q), and taken for the pass that is current then
  // (seq_kb_same_i / seq_kb_next_i): so the sequencer's advance holds no
  // compare (docs/timing.md). A check a cycle old is still true: a
  // streamed FILL's landed count only grows and the streamed set only
  // shrinks until the next GEMM starts, and then the sequencer takes
  // neither check for a cycle. A block that lands just as its pass comes
  // up is seen a cycle later.
  logic kb_ok, kb1_ok, kb_ok_q, kb1_ok_q;
  always_comb begin
    kb_ok  = 1'b1;
    kb1_ok = 1'b1;
    for (int s = 0; s < NSlot; s++) begin
      if (dep_q[s] && (hf_blk_q[s] <= seq_kb_i || (Split && hf_blk_q[NSlot + s] <= seq_kb_i))) kb_ok = 1'b0;
      if (dep_q[s] && (hf_blk_q[s] <= seq_kb1_i || (Split && hf_blk_q[NSlot + s] <= seq_kb1_i))) kb1_ok = 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    kb_ok_q  <= kb_ok;
    kb1_ok_q <= kb1_ok;
  end
  assign kb_ready_o = (seq_kb_same_i && kb_ok_q) || (seq_kb_next_i && kb1_ok_q);
  always_comb begin
    fills_ok_o = 1'b1;
    done_clr   = '0;
    for (int s = 0; s < NSlot; s++)
      if (sl_v_q[s] && !(match_ok_q && match_q[s] && !sl_err[s] && sl_got[s])) fills_ok_o = 1'b0;
    // a constant index per slot: Yosys 0.23 builds [done_slot] = with 32-bit
    // index arithmetic in front of every bit (docs/timing.md)
    for (int s = 0; s < NSlot; s++)
      if (have_done && (!done_valid_o || done_ready_i) && done_slot == 2'(s)) done_clr[s] = 1'b1;
    done_clr = done_clr | sl_hush;
  end

  // ---- L1 writes ---------------------------------------------------------------------
  assign l1_waddr_o = hf_off_q[dh] + L1W'(rs_tag[ktpu_pkg::DATA_TAG_ENTRY_LSB +: 16]);
  for (genvar l = 0; l < 4; l++) begin : gen_we
    assign l1a_we_o[l] = data_in && !sl_side_q[d_slot] && d_lane == 2'(l);
    assign l1b_we_o[l] = data_in && sl_side_q[d_slot] && d_lane == 2'(l);
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      rd_v_q       <= 1'b0;
      p_v_q        <= 1'b0;
      sl_v_q       <= '0;
      dep_q        <= '0;
      poison_o     <= 1'b0;
      done_valid_o <= 1'b0;
    end else begin
      if (clear_i) poison_o <= 1'b0;
      dep_q <= (g_start_i ? sl_v_q : dep_q) & ~done_clr;
      if (rd_v_q && rd_ready_i) rd_v_q <= 1'b0;
      if (alloc_i) begin
        rd_v_q <= 1'b1;
        rd_f_q <= rdflit(h0, free_slot, base_i, stride_i, g0, nk_i, fmt_i, grp_i);
        p_v_q  <= split;
        p_slot_q <= free_slot; p_sh_q <= fh[3:0]; p_gm_q <= gm_i; p_nk_q <= nk_i;
        p_base_q <= base_i; p_stride_q <= stride_i; p_fmt_q <= fmt_i; p_off_q <= off_i;
        p_grp_q <= grp_i;
        // packed bits through a loop, not [free_slot] <=: Yosys 0.23 puts
        // 32-bit index arithmetic in front of a variable-index write to a
        // vector (it was the node's longest path, docs/timing.md)
        for (int k = 0; k < NSlot; k++)
          if (free_slot == 2'(k)) begin
            sl_v_q[k]    <= 1'b1;
            sl_side_q[k] <= side_i;
            sl_nf_q[k]   <= 1'b0;
            sl_silent_q[k] <= silent_i;
            hf_got_q[k]  <= h0;                // a half not read: landed and done
            hf_err_q[k]  <= 1'b0;
            hf_got_q[NSlot + k] <= !split && !h0;
            hf_err_q[NSlot + k] <= 1'b0;
          end
        sl_nk_q[free_slot]  <= nk_i;
        sl_x_q[free_slot]   <= sx_i;
        sl_y_q[free_slot]   <= sy_i;
        sl_txn_q[free_slot] <= txn_i;
        // half 0's offset is the FILL's (streaming compares it) whichever
        // agent reads it; a split's second half gets its own below
        hf_off_q[{1'b0, free_slot}] <= off_i;
        hf_off_q[{1'b1, free_slot}] <= off_i;
        hf_gm_q[{h0, free_slot}]    <= g0;
        hf_blk_q[{h0, free_slot}]   <= '0;
        hf_bw_q[{h0, free_slot}]    <= g0 << 2;
        hf_blk_q[{!h0, free_slot}]  <= split ? 16'd0 : nk_i;
      end
      // the second half, once the first has left: its rows start 2^sh groups
      // (4 * 2^sh rows) on, its entries 2^sh * NK on
      if (p_v_q && (!rd_v_q || rd_ready_i)) begin
        p_v_q  <= 1'b0;
        rd_v_q <= 1'b1;
        rd_f_q <= rdflit(1'b1, p_slot_q, p_base_q + (p_stride_q << (5'(p_sh_q) + 5'd2)), p_stride_q,
                         p_g1, p_nk_q, p_fmt_q, p_grp_q);
        hf_off_q[{1'b1, p_slot_q}] <= p_off_q + L1W'(p_nk_q << p_sh_q);
        hf_gm_q[{1'b1, p_slot_q}]  <= p_g1;
        hf_bw_q[{1'b1, p_slot_q}]  <= p_g1 << 2;
      end
      if (data_in) begin
        for (int k = 0; k < 2 * NSlot; k++) if (dh == 3'(k)) hf_got_q[k] <= 1'b1;
        for (int k = 0; k < NSlot; k++)
          if (d_slot == 2'(k) && rs_tag[ktpu_pkg::DATA_TAG_NONFINITE_LSB]) sl_nf_q[k] <= 1'b1;
        if (hf_bw_q[dh] == 16'd1) begin
          hf_blk_q[dh] <= hf_blk_q[dh] + 16'd1;
          hf_bw_q[dh]  <= hf_gm_q[dh] << 2;
        end else begin
          hf_bw_q[dh]  <= hf_bw_q[dh] - 16'd1;
        end
      end
      // a refusal: the first half's is the one reported if both are refused
      // (whichever answers first), so the address does not depend on timing
      if (ack_in) begin
        for (int k = 0; k < 2 * NSlot; k++) if (dh == 3'(k)) hf_err_q[k] <= 1'b1;
        if (!d_half || !hf_err_q[{1'b0, d_slot}]) begin
          sl_memst_q[d_slot] <= rs_ack[ktpu_pkg::ACK_STATUS_CODE_LSB +: 4];
          sl_addr_q[d_slot]  <= rs_flit_i[32*ktpu_pkg::ACK_ADDR_WORD +: 32];
        end
      end
      if (done_valid_o && done_ready_i) done_valid_o <= 1'b0;
      if (have_done && (!done_valid_o || done_ready_i)) begin
        logic [255:0] pl;
        pl = '0;
        pl[ktpu_pkg::CD_STATUS_OP_LSB +: 4] = 4'(ktpu_pkg::CLOP_FILL);
        if (sl_err[done_slot]) begin
          pl[ktpu_pkg::CD_STATUS_CODE_LSB +: 8]  = 8'(ktpu_pkg::CLERR_MEM);
          pl[ktpu_pkg::CD_STATUS_MEMST_LSB +: 4] = sl_memst_q[done_slot];
          pl[32*ktpu_pkg::CD_ADDR_WORD +: 32]    = sl_addr_q[done_slot];
        end else if (sl_nf_q[done_slot]) begin
          pl[ktpu_pkg::CD_STATUS_CODE_LSB +: 8]  = 8'(ktpu_pkg::CLERR_NONFINITE);
        end
        done_valid_o <= 1'b1;
        done_flit_o  <= mkflit(sl_x_q[done_slot], sl_y_q[done_slot], TyDone, sl_txn_q[done_slot], pl);
        for (int k = 0; k < NSlot; k++) if (done_slot == 2'(k)) sl_v_q[k] <= 1'b0;
        if (sl_err[done_slot]) poison_o <= 1'b1;
      end
      for (int k = 0; k < NSlot; k++) if (sl_hush[k]) sl_v_q[k] <= 1'b0;
    end
  end

`ifndef SYNTHESIS
  // a slot leaves the streamed set as it completes (else a FILL reusing it
  // would hold the sweep), and a trusted match is the compare of now
  always_ff @(posedge clk_i) begin
    if (!rst_i)
      assert ((dep_q & ~sl_v_q) == '0)
        else $error("ktpu_node_fill: the streamed set %b holds a slot with no FILL in flight (%b)", dep_q, sl_v_q);
    if (!rst_i && match_ok_q)
      assert (match_q == match) else $error("ktpu_node_fill: stream match %b is stale (now %b)", match_q, match);
    if (!rst_i && kb_ready_o)
      assert (kb_ok) else $error("ktpu_node_fill: K pass %0d let run before its blocks landed", seq_kb_i);
  end
  // Every answer belongs to a FILL in flight: a slot is freed only once both
  // halves are over (a refused half's slot waits for the other's words).
  // Streaming relies on the agent's K-block-major order: a word of a half
  // belongs to the K block being counted, never to a later one.
  always_ff @(posedge clk_i) begin
    if (!rst_i && (data_in || ack_in))
      assert (sl_v_q[d_slot])
        else $error("ktpu_node_fill: MEM_%s for fill slot %0d, which has no FILL in flight",
                    data_in ? "DATA" : "ACK", d_slot);
    if (!rst_i && data_in && sl_v_q[d_slot])
      assert (16'(rs_tag[ktpu_pkg::DATA_TAG_ENTRY_LSB +: 16] % sl_nk_q[d_slot]) == hf_blk_q[dh])
        else $error("ktpu_node_fill: MEM_DATA entry %0d of slot %0d half %0d outside K block %0d (not K-block-major)",
                    rs_tag[ktpu_pkg::DATA_TAG_ENTRY_LSB +: 16], d_slot, d_half, hf_blk_q[dh]);
  end
`endif

  logic unused_ok;
  assign unused_ok = ^{rs_tag, rs_ack, rs_flit_i};
endmodule
`default_nettype wire
