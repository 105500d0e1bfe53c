`default_nettype none
// The accumulator: the fifth unit of a cluster (SPEC §3.3-3.5, §5).
//
// Holds the resident FP22 output tile (Depth sub-tiles of 4x4) and executes
// one command per cycle on a whole sub-tile: 16 lanes (ktpu_acc_lane), each
// applying the block scales exactly and rounding once. docs/acc.md draws the
// pipeline and the interfaces; the short version:
//
//  * Every accepted command is paired with exactly one chain result
//    (res_valid_i), in order, through the command FIFO: the chain's latency
//    is the only delay, so it can change without anything here changing.
//    SEND / EMIT / ADD_PEER ignore the partials of their chain slot.
//  * A command is "popped" in the cycle its chain result arrives (cycle 0);
//    everything below counts cycles from there. The tile RAM is read in
//    cycle StRead and written in cycle StWrite, which sets REUSE_MIN.
//  * Outputs (emit, peer out) leave through FIFOs with valid/ready; a command
//    that produces one is accepted only with a free output credit, so the
//    pipeline itself never stalls and never drops a result.
module ktpu_acc #(
  parameter int unsigned Depth       = ktpu_pkg::ACC_DEPTH,
  parameter int unsigned CmdDepth    = ktpu_pkg::ACC_CMD_DEPTH,
  parameter int unsigned OutDepth    = ktpu_pkg::ACC_OUT_DEPTH,
  parameter int unsigned PeerInDepth = ktpu_pkg::ACC_PEER_IN_DEPTH,
  parameter int unsigned PWidth      = ktpu_pkg::LOWER_FIELD_BITS,
  parameter int unsigned CntW        = 32,
  // Derived; not to be overridden.
  parameter int unsigned AddrW       = $clog2(Depth),
  parameter int unsigned Lanes       = ktpu_pkg::TILE_ROWS * ktpu_pkg::TILE_COLS
) (
  input  logic                      clk_i,
  input  logic                      rst_ni,          // synchronous, active low
  // Commands: accepted on cmd_valid_i && cmd_ready_o. cmd_ready_o depends on
  // cmd_op_i (output credits) but never on cmd_valid_i.
  input  logic                      cmd_valid_i,
  output logic                      cmd_ready_o,
  input  logic [2:0]                cmd_op_i,
  input  logic [AddrW-1:0]          cmd_addr_i,
  // Chain results: one per accepted command, in order; cannot be stalled.
  // Lane l = 4i + j is element (i, j): partial p[l], scales sa[i], sb[j].
  input  logic                      res_valid_i,
  input  logic [Lanes*PWidth-1:0]   res_p_i,
  input  logic [4*8-1:0]            res_sa_i,
  input  logic [4*8-1:0]            res_sb_i,
  // Peer sub-tiles in (for ADD_PEER, consumed in order), FP22 lane l at [22l +: 22].
  input  logic                      peer_in_valid_i,
  output logic                      peer_in_ready_o,
  input  logic [Lanes*22-1:0]       peer_in_data_i,
  // Peer sub-tiles out (SEND, FWD), with the command's tile address.
  output logic                      peer_out_valid_o,
  input  logic                      peer_out_ready_i,
  output logic [Lanes*22-1:0]       peer_out_data_o,
  output logic [AddrW-1:0]          peer_out_addr_o,
  // FP16 sub-tiles out (EMIT, ADD_EMIT), lane l at [16l +: 16].
  output logic                      emit_valid_o,
  input  logic                      emit_ready_i,
  output logic [Lanes*16-1:0]       emit_data_o,
  output logic [AddrW-1:0]          emit_addr_o,
  // Status.
  output logic                      busy_o,          // not safe to take the tile
  output logic [$clog2(CmdDepth+16)-1:0] inflight_o, // issued minus retired
  output logic [2:0]                flags_o,         // sticky, FLAG_* bit order
  input  logic                      stat_clear_i,    // clears flags and counters
  output logic [CntW-1:0]           cnt_acc_ovf_o,   // elements saturated (R22)
  output logic [CntW-1:0]           cnt_acc_unf_o,   // elements flushed to +0 (R22)
  output logic [CntW-1:0]           cnt_f16_ovf_o    // elements saturated (R16)
);

  // ---- pipeline stages (cycles after the pop; see ktpu_acc_lane) ----------
  localparam int unsigned StPeer  = 5;   // lane takes the peer operand
  localparam int unsigned StT     = 6;   // lane takes T from the RAM
  localparam int unsigned StWrite = 11;  // lane's R22 result: RAM write, peer out
  localparam int unsigned StEmit  = 13;  // lane's R16 result: emit push
  // Retire once the output is at its FIFO's head (ktpu_fifo falls through in
  // 2 cycles): when busy_o falls, every result is visible, not just queued.
  localparam int unsigned StRetire = StEmit + 2;
  localparam int unsigned RamLat  = ktpu_pkg::ACC_READ_LATENCY;
  localparam int unsigned StRead  = StT - RamLat;
  // A command popped ReuseMin cycles after another presents its read address
  // in cycle StRead + ReuseMin = StWrite + 1, the cycle after the write.
  localparam int unsigned ReuseMin = StWrite - StRead + 1;
  localparam int unsigned NSt     = StRetire;
  localparam int unsigned IfW     = $clog2(CmdDepth + 16);
  localparam int unsigned OcW     = $clog2(OutDepth + 1);
  localparam int unsigned GapW    = $clog2(ReuseMin + 1);

  if (ReuseMin != ktpu_pkg::ACC_REUSE_MIN) begin : gen_bad_reuse
    $fatal(1, "ktpu_acc: the pipeline gives REUSE_MIN %0d but data/ktpu.def says %0d",
           ReuseMin, ktpu_pkg::ACC_REUSE_MIN);
  end
  if (Lanes != 16 || ktpu_pkg::ACC_TILE_BITS != Lanes * ktpu_pkg::FP22_BITS) begin : gen_bad_tile
    $fatal(1, "ktpu_acc: built for 4x4 sub-tiles of FP22");
  end
  if (AddrW != $clog2(Depth) || (1 << AddrW) != Depth) begin : gen_bad_depth
    $fatal(1, "ktpu_acc: Depth must be a power of two and AddrW left at its default");
  end
  if (StRead < 1) begin : gen_bad_lat
    $fatal(1, "ktpu_acc: RAM read latency too long for the lane's T stage");
  end

  // ---- opcode properties ----------------------------------------------------
  localparam logic [2:0] OpLoad    = 3'(ktpu_pkg::ACC_OP_LOAD);
  localparam logic [2:0] OpAdd     = 3'(ktpu_pkg::ACC_OP_ADD);
  localparam logic [2:0] OpAddPeer = 3'(ktpu_pkg::ACC_OP_ADD_PEER);
  localparam logic [2:0] OpSend    = 3'(ktpu_pkg::ACC_OP_SEND);
  localparam logic [2:0] OpFwd     = 3'(ktpu_pkg::ACC_OP_FWD);
  localparam logic [2:0] OpEmit    = 3'(ktpu_pkg::ACC_OP_EMIT);
  localparam logic [2:0] OpAddEmit = 3'(ktpu_pkg::ACC_OP_ADD_EMIT);
  function automatic logic op_uses_v(input logic [2:0] op);   // block contribution
    op_uses_v = op == OpLoad || op == OpAdd || op == OpFwd ||
           op == OpAddEmit;
  endfunction
  function automatic logic op_reads(input logic [2:0] op);    // T from the RAM
    op_reads = op == OpAdd || op == OpAddPeer || op == OpSend ||
           op == OpEmit || op == OpAddEmit;
  endfunction
  function automatic logic op_writes(input logic [2:0] op);
    op_writes = op == OpLoad || op == OpAdd || op == OpAddPeer ||
           op == OpAddEmit;
  endfunction
  function automatic logic op_peer_out(input logic [2:0] op);
    op_peer_out = op == OpSend || op == OpFwd;
  endfunction
  function automatic logic op_emit(input logic [2:0] op);
    op_emit = op == OpEmit || op == OpAddEmit;
  endfunction
  // Commands bound by the reuse contract: all that address the tile (FWD's
  // address only tags its output).
  function automatic logic op_tile(input logic [2:0] op);
    op_tile = op <= OpAddEmit && op != OpFwd;
  endfunction

  // ---- command port, output credits ---------------------------------------
  logic          issue;
  logic [OcW-1:0] emit_cred_q, pout_cred_q;
  logic          emit_pop, pout_pop;

  assign cmd_ready_o = !(op_emit(cmd_op_i) && emit_cred_q == '0) &&
                       !(op_peer_out(cmd_op_i) && pout_cred_q == '0);
  assign issue = cmd_valid_i && cmd_ready_o;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      emit_cred_q <= OcW'(OutDepth);
      pout_cred_q <= OcW'(OutDepth);
    end else begin
      emit_cred_q <= emit_cred_q - OcW'(issue && op_emit(cmd_op_i)) + OcW'(emit_pop);
      pout_cred_q <= pout_cred_q - OcW'(issue && op_peer_out(cmd_op_i)) + OcW'(pout_pop);
    end
  end

  // ---- command FIFO: pairs each command with its chain result ---------------
  logic [2:0]       head_op;
  logic [AddrW-1:0] head_addr;
  logic             cmd_empty, cmd_full;
  logic [$clog2(CmdDepth+1)-1:0] cmd_count;
  ktpu_fifo #(
    .Width     (3 + AddrW),
    .Depth     (CmdDepth),
    .Primitive ("distributed"),
    .Name      ("ktpu_acc command FIFO")
  ) u_cmd_fifo (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (issue),
    .wdata_i ({cmd_op_i, cmd_addr_i}),
    .pop_i   (res_valid_i),
    .rdata_o ({head_op, head_addr}),
    .empty_o (cmd_empty),
    .full_o  (cmd_full),
    .count_o (cmd_count)
  );

  // ---- control pipeline: valid, op, address per stage ----------------------
  logic [NSt:1]     vld_q;
  logic [2:0]       op_q   [1:NSt];
  logic [AddrW-1:0] addr_q [1:NSt];
  always_ff @(posedge clk_i) begin
    if (!rst_ni) vld_q <= '0;
    else         vld_q <= {vld_q[NSt-1:1], res_valid_i};
    op_q[1]   <= head_op;
    addr_q[1] <= head_addr;
    for (int s = 2; s <= NSt; s++) begin
      op_q[s]   <= op_q[s-1];
      addr_q[s] <= addr_q[s-1];
    end
  end

  // Chain result registered once before the lanes (cycle 1).
  logic [Lanes*PWidth-1:0] p1_q;
  logic [31:0]             sa1_q, sb1_q;
  always_ff @(posedge clk_i) begin
    p1_q  <= res_p_i;
    sa1_q <= res_sa_i;
    sb1_q <= res_sb_i;
  end

  // ---- peer-in FIFO (ADD_PEER takes its head in cycle StPeer) ---------------
  logic [Lanes*22-1:0] peer_head;
  logic                peer_empty, peer_full, peer_pop;
  logic [$clog2(PeerInDepth+1)-1:0] peer_count;
  assign peer_in_ready_o = !peer_full;
  assign peer_pop = vld_q[StPeer] && op_q[StPeer] == OpAddPeer;
  ktpu_fifo #(
    .Width     (Lanes * 22),
    .Depth     (PeerInDepth),
    .Primitive ("distributed"),
    .Name      ("ktpu_acc peer-in FIFO")
  ) u_peer_in (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (peer_in_valid_i && !peer_full),
    .wdata_i (peer_in_data_i),
    .pop_i   (peer_pop),
    .rdata_o (peer_head),
    .empty_o (peer_empty),
    .full_o  (peer_full),
    .count_o (peer_count)
  );

  // ---- the tile RAM --------------------------------------------------------
  logic [Lanes*22-1:0] t_rd, r22_all;
  logic [Lanes*16-1:0] r16_all;
  logic [Lanes-1:0]    aovf, aunf, fovf;
  ktpu_ram #(
    .Width       (ktpu_pkg::ACC_TILE_BITS),
    .Depth       (Depth),
    .ReadLatency (RamLat),
    .Primitive   ("block")
  ) u_tile (
    .clk_i   (clk_i),
    .we_i    (vld_q[StWrite] && op_writes(op_q[StWrite])),
    .waddr_i (addr_q[StWrite]),
    .wdata_i (r22_all),
    .re_i    (vld_q[StRead] && op_reads(op_q[StRead])),
    .raddr_i (addr_q[StRead]),
    .rdata_o (t_rd)
  );

  // ---- 16 lanes --------------------------------------------------------------
  for (genvar l = 0; l < Lanes; l++) begin : gen_lane
    ktpu_acc_lane #(.PWidth(PWidth)) u_lane (
      .clk_i      (clk_i),
      .p_i        (p1_q[l*PWidth +: PWidth]),
      .sa_i       (sa1_q[(l / 4) * 8 +: 8]),
      .sb_i       (sb1_q[(l % 4) * 8 +: 8]),
      .v_zero_i   (!op_uses_v(op_q[1])),
      .use_peer_i (op_q[StPeer] == OpAddPeer),
      .peer_i     (peer_head[l*22 +: 22]),
      .t_i        (t_rd[l*22 +: 22]),
      .t_zero_i   (!op_reads(op_q[StT])),
      .r22_o      (r22_all[l*22 +: 22]),
      .acc_ovf_o  (aovf[l]),
      .acc_unf_o  (aunf[l]),
      .r16_o      (r16_all[l*16 +: 16]),
      .f16_ovf_o  (fovf[l])
    );
  end

  // ---- output FIFOs ---------------------------------------------------------
  logic emit_empty, pout_empty, emit_full, pout_full;
  logic [OcW-1:0] emit_count, pout_count;
  ktpu_fifo #(
    .Width     (Lanes * 16 + AddrW),
    .Depth     (OutDepth),
    .Primitive ("distributed"),
    .Name      ("ktpu_acc emit FIFO")
  ) u_emit (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (vld_q[StEmit] && op_emit(op_q[StEmit])),
    .wdata_i ({addr_q[StEmit], r16_all}),
    .pop_i   (emit_pop),
    .rdata_o ({emit_addr_o, emit_data_o}),
    .empty_o (emit_empty),
    .full_o  (emit_full),
    .count_o (emit_count)
  );
  assign emit_valid_o = !emit_empty;
  assign emit_pop     = emit_valid_o && emit_ready_i;

  ktpu_fifo #(
    .Width     (Lanes * 22 + AddrW),
    .Depth     (OutDepth),
    .Primitive ("distributed"),
    .Name      ("ktpu_acc peer-out FIFO")
  ) u_pout (
    .clk_i   (clk_i),
    .rst_ni  (rst_ni),
    .push_i  (vld_q[StWrite] && op_peer_out(op_q[StWrite])),
    .wdata_i ({addr_q[StWrite], r22_all}),
    .pop_i   (pout_pop),
    .rdata_o ({peer_out_addr_o, peer_out_data_o}),
    .empty_o (pout_empty),
    .full_o  (pout_full),
    .count_o (pout_count)
  );
  assign peer_out_valid_o = !pout_empty;
  assign pout_pop         = peer_out_valid_o && peer_out_ready_i;

  // ---- busy / done: issued minus retired, plus the reuse gap ---------------
  logic [IfW-1:0]  inflight_q;
  logic [GapW-1:0] gap_q;
  logic            retire;
  assign retire = vld_q[NSt];
  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      inflight_q <= '0;
      gap_q      <= '0;
    end else begin
      inflight_q <= inflight_q + IfW'(issue) - IfW'(retire);
      if (issue)              gap_q <= GapW'(ReuseMin - 1);
      else if (gap_q != '0)   gap_q <= gap_q - GapW'(1);
    end
  end
  assign inflight_o = inflight_q;
  assign busy_o     = (inflight_q != '0) || (gap_q != '0);

  // ---- sticky flags and counters -------------------------------------------
  function automatic logic [4:0] popcnt(input logic [Lanes-1:0] x);
    popcnt = '0;
    for (int k = 0; k < Lanes; k++) popcnt = popcnt + 5'(x[k]);
  endfunction
  function automatic logic [CntW-1:0] sat_add(input logic [CntW-1:0] a, input logic [4:0] b);
    logic [CntW:0] s;
    s = {1'b0, a} + (CntW + 1)'(b);
    sat_add = s[CntW] ? {CntW{1'b1}} : s[CntW-1:0];
  endfunction

  logic [Lanes-1:0] aovf_v, aunf_v, fovf_v;
  assign aovf_v = vld_q[StWrite] ? aovf : '0;
  assign aunf_v = vld_q[StWrite] ? aunf : '0;
  assign fovf_v = (vld_q[StEmit] && op_emit(op_q[StEmit])) ? fovf : '0;

  // The counters add the popcount registered one cycle earlier: a popcount
  // and a 32-bit saturating add in one cycle were the longest LUT path of
  // the accumulator. Clearing clears the registered popcounts too, so a clear
  // still discards exactly the events up to its own cycle; the counts are
  // visible one cycle later (still before the command retires).
  logic [2:0] flags_q;
  logic [4:0] n_aovf_q, n_aunf_q, n_fovf_q;
  logic [CntW-1:0] c_aovf_q, c_aunf_q, c_fovf_q;
  always_ff @(posedge clk_i) begin
    if (!rst_ni || stat_clear_i) begin
      flags_q  <= '0;
      n_aovf_q <= '0;
      n_aunf_q <= '0;
      n_fovf_q <= '0;
      c_aovf_q <= '0;
      c_aunf_q <= '0;
      c_fovf_q <= '0;
    end else begin
      flags_q  <= flags_q | {|fovf_v, |aunf_v, |aovf_v};
      n_aovf_q <= popcnt(aovf_v);
      n_aunf_q <= popcnt(aunf_v);
      n_fovf_q <= popcnt(fovf_v);
      c_aovf_q <= sat_add(c_aovf_q, n_aovf_q);
      c_aunf_q <= sat_add(c_aunf_q, n_aunf_q);
      c_fovf_q <= sat_add(c_fovf_q, n_fovf_q);
    end
  end
  assign flags_o       = flags_q;
  assign cnt_acc_ovf_o = c_aovf_q;
  assign cnt_acc_unf_o = c_aunf_q;
  assign cnt_f16_ovf_o = c_fovf_q;

  // ---- simulation checks -----------------------------------------------------
`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      if (issue && cmd_op_i > OpAddEmit)
        $error("ktpu_acc: illegal command opcode %0d", cmd_op_i);
      // The reuse contract, checked where the hazard is: a command popped
      // now reads the tile in cycle StRead, which must come after the write
      // of every earlier command to the same address.
      if (res_valid_i && !cmd_empty && op_tile(head_op)) begin
        for (int s = 1; s < ReuseMin; s++) begin
          if (vld_q[s] && op_tile(op_q[s]) && addr_q[s] == head_addr)
            $error("ktpu_acc: REUSE_MIN violated: tile %0d commanded %0d cycles after the last command to it (minimum %0d)",
                   head_addr, s, ReuseMin);
        end
      end
      if (res_valid_i) begin
        for (int l = 0; l < Lanes; l++) begin
          if ($signed(res_p_i[l*PWidth +: PWidth]) > $signed(PWidth'(ktpu_pkg::BLOCK_P_MAX)) ||
              $signed(res_p_i[l*PWidth +: PWidth]) < -$signed(PWidth'(ktpu_pkg::BLOCK_P_MAX)))
            $error("ktpu_acc: chain partial %0d out of range (|P| <= %0d)",
                   $signed(res_p_i[l*PWidth +: PWidth]), ktpu_pkg::BLOCK_P_MAX);
        end
      end
      if (peer_pop && peer_empty)
        $error("ktpu_acc: ADD_PEER executed with no peer sub-tile waiting");
    end
  end
`endif
  // Occupancies are for waveforms; fullness is prevented by construction
  // (command FIFO: deeper than the chain; outputs: credits; peer in: ready).
  logic unused_ok;
  assign unused_ok = ^{cmd_full, cmd_count, peer_count, emit_full, emit_count,
                       pout_full, pout_count};
endmodule
`default_nettype wire
