`default_nettype none
// Cluster node sequencer: turns one started job into the accumulator's
// command stream, one command (and one chain slot) per cycle.
//
//   GEMM  for kb < nk: for g < gm: for h < gn:
//           chain <- L1A[aoff + g*nk + kb], L1B[boff + h*nk + kb]
//           acc   <- (kb == 0 && !acc) ? LOAD : (kb == nk-1 && emit) ? ADD_EMIT : ADD
//                    at tile toff + g*gn + h                       (SPEC §6)
//         K is outermost, so two commands to one tile are gm*gn issues apart.
//         A job whose last block is a LOAD (nk = 1, acc = 0) cannot fuse its
//         emit: it runs a second pass of EMITs over the same tiles.
//         With fwd (nk = 1, acc = emit = 0, checked by the node) every command
//         is FWD instead: peer out = R22(v), the tile untouched; its address
//         only tags the output (the interlock spaces it like the LOAD it
//         replaces, which is harmless).
//   EMIT  one EMIT per tile toff + g*gn + h (a DRAIN to memory)
//   SEND  one SEND per tile toff + h, h < gn (gm = 1)
//   RECV  one ADD_PEER per sub-tile arriving on pin_*, at toff + its index,
//         until gn have been issued
//
// A GEMM's stage 0 waits at each K pass until kb_ready_i (its operands of
// that K block have landed in L1: the node's streaming start).
// Two stages: stage 0 walks the loops and reads L1 (read latency 1), stage 1
// holds the command while the L1 output holds the operands. Stage 1 issues
// unless the accumulator refuses (output credits, peer-in FIFO full) or the
// tile was commanded fewer than ReuseMin cycles ago: the hazard check pads
// idle cycles only when the same tile comes back too soon, which happens
// only for tilings gm*gn < ReuseMin or a job revisiting the tiles just
// touched (e.g. a DRAIN right after the GEMM that wrote them). So the reuse
// contract holds by construction for every instruction sequence.
module ktpu_node_seq #(
  parameter int unsigned L1Depth  = ktpu_pkg::L1_DEPTH,
  parameter int unsigned AccDepth = ktpu_pkg::ACC_DEPTH,
  parameter int unsigned ReuseMin = ktpu_pkg::ACC_REUSE_MIN,
  parameter int unsigned L1W      = $clog2(L1Depth),
  parameter int unsigned TW       = $clog2(AccDepth)
) (
  input  wire             clk_i,
  input  wire             rst_i,
  // Job start (only while free_o is high); fields already range-checked.
  input  wire             start_i,
  input  wire [1:0]       mode_i,      // ModeGemm / ModeEmit / ModeSend / ModeRecv
  input  wire [L1W-1:0]   aoff_i,
  input  wire [L1W-1:0]   boff_i,
  input  wire [TW-1:0]    toff_i,
  input  wire [15:0]      gm_i,
  input  wire [15:0]      gn_i,
  input  wire [15:0]      nk_i,
  input  wire             acc_i,
  input  wire             emit_i,
  input  wire             fwd_i,       // GEMM: FWD instead of LOAD (nk = 1, acc = emit = 0)
  // Streaming: a GEMM's K pass kb_o reads L1 only once kb_ready_i says its
  // operands have landed; starved_o: held so, with nothing else to issue.
  // The fill engine checks kb_o and kb1_o (kb_o + 1) a cycle ahead and
  // kb_same_o / kb_next_o say which check is about the K pass of now: the
  // one it made for kb_o (no step), for kb1_o (a step), or neither (a new
  // pass count: the GEMM waits a cycle).
  output logic [15:0]     kb_o,
  output logic [15:0]     kb1_o,
  output logic            kb_same_o,
  output logic            kb_next_o,
  input  wire             kb_ready_i,
  output logic            starved_o,
  output logic            busy_o,
  output logic            free_o,      // stage 0 idle: a new job may start (stage 1 may still
                                       // hold the last command of the previous one)
  output logic            stall_o,     // stage 1 holds a command that did not issue
  output logic            pad_o,       // ... because of the reuse interlock
  // L1 reads (both sides, same cycle)
  output logic            l1_re_o,
  output logic [L1W-1:0]  l1a_addr_o,
  output logic [L1W-1:0]  l1b_addr_o,
  // Peer sub-tiles waiting (RECV): index within the stream; taken on issue.
  input  wire             pin_valid_i,
  input  wire  [15:0]     pin_index_i,
  output logic            pin_take_o,
  // Accumulator command port; issue_o is also the chain's valid_i.
  output logic            cmd_valid_o,
  input  wire             cmd_ready_i,
  output logic [2:0]      cmd_op_o,
  output logic [TW-1:0]   cmd_addr_o,
  input  wire             peer_ready_i,
  output logic            issue_o
);
  localparam logic [1:0] ModeGemm = 2'd0, ModeEmit = 2'd1, ModeSend = 2'd2, ModeRecv = 2'd3;
  localparam logic [2:0] OpLoad    = 3'(ktpu_pkg::ACC_OP_LOAD);
  localparam logic [2:0] OpAdd     = 3'(ktpu_pkg::ACC_OP_ADD);
  localparam logic [2:0] OpAddPeer = 3'(ktpu_pkg::ACC_OP_ADD_PEER);
  localparam logic [2:0] OpSend    = 3'(ktpu_pkg::ACC_OP_SEND);
  localparam logic [2:0] OpFwd     = 3'(ktpu_pkg::ACC_OP_FWD);
  localparam logic [2:0] OpEmit    = 3'(ktpu_pkg::ACC_OP_EMIT);
  localparam logic [2:0] OpAddEmit = 3'(ktpu_pkg::ACC_OP_ADD_EMIT);
  localparam int unsigned HistN = ReuseMin - 1;

  if (ReuseMin < 2) begin : gen_bad_reuse
    $error("ktpu_node_seq: ReuseMin must be at least 2");
  end

  // ---- stage 0: the loops ---------------------------------------------------
  logic            act_q;                  // loops running (not RECV)
  logic            recv_q;                 // RECV stream open
  logic [1:0]      mode_q;
  logic            acc_q, emit_q, fwd_q, pass2_q;
  logic [15:0]     kb_q, kb1_q, g_q, h_q;   // kb1_q = kb_q + 1
  logic            kb_same_q, kb_next_q;
  logic [L1W-1:0]  nk_q;                  // NK as an L1 row step (its low bits)
  logic [15:0]     gm1_q, gn1_q, nk1_q;   // the loop counts less one: each loop's last
                                          // step is a compare, not a sum and a compare
  logic [L1W-1:0]  aoff_q, boff_q, arow_q, brow_q;
  logic [TW-1:0]   toff_q, tile_q;
  logic            s1_v_q;
  logic [2:0]      s1_op_q;
  logic [TW-1:0]   s1_tile_q;
  logic            adv, s0_v, last_h, last_g, last_kb;
  logic [2:0]      s0_op;
  logic [TW-1:0]   s0_tile;

  assign last_h  = h_q == gn1_q;
  assign last_g  = g_q == gm1_q;
  assign last_kb = kb_q == nk1_q;

  always_comb begin
    s0_op = OpAdd;
    unique case (mode_q)
      ModeGemm: begin
        if (fwd_q)                         s0_op = OpFwd;
        else if (kb_q == 16'd0 && !acc_q) s0_op = OpLoad;
        else if (last_kb && emit_q)        s0_op = OpAddEmit;
        else                               s0_op = OpAdd;
      end
      ModeEmit: s0_op = OpEmit;
      ModeSend: s0_op = OpSend;
      default:  s0_op = OpAddPeer;
    endcase
  end
  // RECV loads stage 1 only when it is empty: the sub-tile stays in the
  // assembler until its ADD_PEER issues (it is pushed in that cycle).
  logic gate;
  assign gate    = mode_q == ModeGemm && !kb_ready_i;
  assign s0_v    = (act_q && !gate) || (recv_q && pin_valid_i && !s1_v_q);
  assign s0_tile = recv_q ? toff_q + TW'(pin_index_i) : tile_q;
  assign adv     = s0_v && (!s1_v_q || issue_o);

  assign l1_re_o    = adv && act_q;
  assign l1a_addr_o = arow_q;
  assign l1b_addr_o = brow_q;

  logic [15:0] recv_n_q;   // ADD_PEERs still to issue
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      act_q     <= 1'b0;
      recv_q    <= 1'b0;
      kb_same_q <= 1'b0;
      kb_next_q <= 1'b0;
    end else if (start_i && free_o) begin
      mode_q  <= mode_i;
      acc_q   <= acc_i;
      emit_q  <= emit_i;
      fwd_q   <= mode_i == ModeGemm && fwd_i;
      pass2_q <= mode_i == ModeGemm && emit_i && !acc_i && nk_i == 16'd1;
      nk_q    <= (mode_i == ModeGemm) ? L1W'(nk_i) : L1W'(1);
      gm1_q   <= (mode_i == ModeSend) ? 16'd0 : gm_i - 16'd1;
      gn1_q   <= gn_i - 16'd1;
      nk1_q   <= (mode_i == ModeGemm) ? nk_i - 16'd1 : 16'd0;
      kb_q    <= '0;
      kb1_q   <= 16'd1;
      kb_same_q <= 1'b0;
      kb_next_q <= 1'b0;
      g_q     <= '0;
      h_q     <= '0;
      aoff_q  <= aoff_i;
      boff_q  <= boff_i;
      arow_q  <= aoff_i;
      brow_q  <= boff_i;
      toff_q  <= toff_i;
      tile_q  <= toff_i;
      act_q   <= mode_i != ModeRecv;
      recv_q  <= mode_i == ModeRecv;
      recv_n_q <= gn_i;
    end else begin
      kb_same_q <= 1'b1;
      kb_next_q <= 1'b0;
      if (adv && act_q) begin
        if (!last_h) begin
          h_q    <= h_q + 16'd1;
          brow_q <= brow_q + nk_q;
          tile_q <= tile_q + TW'(1);
        end else if (!last_g) begin
          h_q    <= '0;
          g_q    <= g_q + 16'd1;
          arow_q <= arow_q + nk_q;
          brow_q <= boff_q + L1W'(kb_q);
          tile_q <= tile_q + TW'(1);
        end else if (!last_kb) begin
          h_q    <= '0;
          g_q    <= '0;
          kb_q   <= kb1_q;
          kb1_q  <= kb1_q + 16'd1;
          kb_same_q <= 1'b0;
          kb_next_q <= 1'b1;
          arow_q <= aoff_q + L1W'(kb1_q);
          brow_q <= boff_q + L1W'(kb1_q);
          tile_q <= toff_q;
        end else if (pass2_q) begin
          // the unfusable emit: one more pass, EMIT only
          pass2_q <= 1'b0;
          mode_q  <= ModeEmit;
          nk_q    <= L1W'(1);
          nk1_q   <= 16'd0;
          kb_q    <= '0;
          kb1_q   <= 16'd1;
          kb_same_q <= 1'b0;
          g_q     <= '0;
          h_q     <= '0;
          tile_q  <= toff_q;
        end else begin
          act_q <= 1'b0;
        end
      end
      if (recv_q && pin_take_o) begin
        recv_n_q <= recv_n_q - 16'd1;
        if (recv_n_q == 16'd1) recv_q <= 1'b0;
      end
    end
  end

  // ---- stage 1: command, hazard check ---------------------------------------
  // hazard: stage 1's tile is one of the last HistN issued. It is found a
  // cycle ahead, for both of stage 1's next contents, against the history
  // as it will be (shifted; the command issuing now at its head): s0's tile
  // if it advances, else stage 1's own, which then did not issue (if it
  // did, stage 1 is empty and the hazard means nothing). So no compare lies
  // between the history and the accumulator's issue (once the node's
  // longest path, docs/timing.md).
  logic [HistN-1:0]  hist_v_q;
  logic [TW-1:0]     hist_a_q [HistN];
  logic              hazard, hz_adv, hz_keep;
  always_comb begin
    hz_adv  = 1'b0;
    hz_keep = 1'b0;
    for (int i = 0; i < HistN - 1; i++) begin
      if (hist_v_q[i] && hist_a_q[i] == s0_tile)   hz_adv  = 1'b1;
      if (hist_v_q[i] && hist_a_q[i] == s1_tile_q) hz_keep = 1'b1;
    end
  end

  assign cmd_valid_o = s1_v_q && !hazard && (s1_op_q != OpAddPeer || peer_ready_i);
  assign cmd_op_o    = s1_op_q;
  assign cmd_addr_o  = s1_tile_q;
  assign issue_o     = cmd_valid_o && cmd_ready_i;
  assign pin_take_o  = issue_o && s1_op_q == OpAddPeer;
  assign stall_o     = s1_v_q && !issue_o;
  assign pad_o       = s1_v_q && hazard;

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      s1_v_q   <= 1'b0;
      hist_v_q <= '0;
      hazard   <= 1'b0;
    end else begin
      if (adv)          s1_v_q <= 1'b1;
      else if (issue_o) s1_v_q <= 1'b0;
      hist_v_q <= {hist_v_q[HistN-2:0], issue_o};
      hazard   <= adv ? (issue_o && s1_tile_q == s0_tile) || hz_adv : hz_keep;
    end
    if (adv) begin
      s1_op_q   <= s0_op;
      s1_tile_q <= s0_tile;
    end
    hist_a_q[0] <= s1_tile_q;
    for (int i = 1; i < HistN; i++) hist_a_q[i] <= hist_a_q[i-1];
  end

`ifndef SYNTHESIS
  // the register is the compare it replaced, whenever stage 1 holds a command
  always_ff @(posedge clk_i) begin
    if (!rst_i && s1_v_q) begin
      logic h;
      h = 1'b0;
      for (int i = 0; i < HistN; i++) if (hist_v_q[i] && hist_a_q[i] == s1_tile_q) h = 1'b1;
      assert (hazard == h) else $error("ktpu_node_seq: hazard register %0d, the history says %0d", hazard, h);
    end
  end
`endif

  assign busy_o = act_q || recv_q || s1_v_q;
  assign kb_o      = kb_q;
  assign kb1_o     = kb1_q;
  assign kb_same_o = kb_same_q;
  assign kb_next_o = kb_next_q;
  assign starved_o = act_q && gate && !s1_v_q;
  assign free_o = !act_q && !recv_q;
  // the index was range-checked against the stream length when it arrived
  logic unused_ok;
  assign unused_ok = ^pin_index_i;
endmodule
`default_nettype wire
