// ktpu_cpu: the RV32IM + Zicsr machine-mode sequencer core (SPEC §2, §9).
//
// Four stages behind a synchronous instruction RAM:
//   F  the RAM registers the fetch address (next_pc, below)
//   D  decode; register read with forwarding into X's operand registers;
//      prediction: jal, branches by a table of 2-bit counters, returns by a
//      return-address stack (targets from an adder on the pc and the word)
//   X  ALU, branch compare, address; a load from local RAM reads it here;
//      mul/div; a misprediction registers a redirect, acted on from M
//   M  commit: traps, interrupts, CSR read and write, mret, local stores,
//      the data bus for everything outside local RAM, the register write
// Each stage starts from registers, so no path runs from one stage's adder
// into the next one's or into the fetch address through another carry
// chain (docs/timing.md). Costs against the two-stage core this replaces:
// a misprediction (and a jalr that is not a predicted return) costs two
// bubbles; an instruction that uses a load's or a CSR read's result right
// after it waits one cycle; mul 4 cycles, mulh 5, div 35. The common
// instruction still takes one cycle (docs/cpu.md).
//
// Data: addresses below IMemBytes are local RAM, the fetch RAM's data copy
// (lmem_*): a load reads it from X (the word arrives in M), a store writes
// it from M, where it commits. The RAM reads the old word when it is
// written in the same cycle, so a load right behind a store to the same
// word takes the store's bytes from M's record of it. Everything else goes
// over the data bus from M: dbus_req_o with we/addr/be/wdata is held until
// dbus_gnt_i; dbus_err_i, valid with gnt, refuses the access (nothing is
// done) and the instruction traps with an access fault; a granted read
// answers with dbus_rvalid_i one or more cycles later (one read in flight).
// Only an interrupt may withdraw a request not yet granted: nothing has
// happened, and the instruction runs again after mret.
//
// Fetch: the instruction RAM holds IMemBytes from address 0; a pc outside it
// takes an instruction access fault instead of wrapping.
//
// Simulation only: every instruction leaving M (retired or trapped) is
// reported through the DPI function ktpu_rvfi_retire (sim/harness) for the
// lockstep check.
`default_nettype none

module ktpu_cpu #(
  parameter logic [31:0] ResetPc   = 32'h0000_0000,
  parameter int          IMemBytes = 131072
) (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  // instruction RAM read port, 1-cycle latency; while imem_re_o is low the
  // RAM keeps its last word (D waits)
  output logic             imem_re_o,
  output logic [31:0]      imem_addr_o,
  input  wire logic [31:0] imem_rdata_i,
  // local RAM data port (addresses below IMemBytes): a read issued from X is
  // answered the next cycle; a write is issued from M
  output logic             lmem_re_o,
  output logic [31:0]      lmem_raddr_o,
  output logic             lmem_we_o,
  output logic [31:0]      lmem_waddr_o,
  output logic [3:0]       lmem_be_o,
  output logic [31:0]      lmem_wdata_o,
  input  wire logic [31:0] lmem_rdata_i,
  // data bus (everything else)
  output logic             dbus_req_o,
  output logic             dbus_we_o,
  output logic [31:0]      dbus_addr_o,
  output logic [3:0]       dbus_be_o,
  output logic [31:0]      dbus_wdata_o,
  input  wire logic        dbus_gnt_i,
  input  wire logic        dbus_err_i,
  input  wire logic        dbus_rvalid_i,
  input  wire logic [31:0] dbus_rdata_i,
  // interrupts (levels) and the platform timer for the `time` CSR
  input  wire logic        irq_timer_i,
  input  wire logic        irq_ext_i,
  input  wire logic [63:0] mtime_i,
  // a fence or fence.i retires (the SoC drops what it buffers of DRAM)
  output logic             fence_o
);
  localparam int IMemBits = $clog2(IMemBytes);
  if ((1 << IMemBits) != IMemBytes || IMemBits < 3 || IMemBits > 31) begin : gen_bad_imem
    $error("ktpu_cpu: IMemBytes must be a power of two, 8 .. 2^31");
  end
  if (ResetPc[1:0] != 2'b00) begin : gen_bad_reset_pc
    $error("ktpu_cpu: ResetPc must be 4-byte aligned");
  end

  // mcause codes (privileged spec, table 3.6)
  localparam logic [4:0] CauseInsnMisaligned  = 5'd0;
  localparam logic [4:0] CauseInsnAccess      = 5'd1;
  localparam logic [4:0] CauseIllegal         = 5'd2;
  localparam logic [4:0] CauseBreakpoint      = 5'd3;
  localparam logic [4:0] CauseLoadMisaligned  = 5'd4;
  localparam logic [4:0] CauseLoadAccess      = 5'd5;
  localparam logic [4:0] CauseStoreMisaligned = 5'd6;
  localparam logic [4:0] CauseStoreAccess     = 5'd7;
  localparam logic [4:0] CauseEcallM          = 5'd11;

  // where a trap's mtval comes from
  typedef enum logic [2:0] {TvalZero, TvalInsn, TvalPc, TvalTarget, TvalAddr} tval_e;

  logic [31:0] rf [32];       // LUTRAM, x0 masked on read, never reset

  // pipeline control, defined under "control" below
  logic        m_flush;       // M redirects the fetch (trap, mret, fence.i): X and D are dropped
  logic        x_go;          // X's instruction (or bubble) moves on to M this cycle
  logic        x_redirect;    // X's instruction needs the fetch redirected (misprediction, jalr)
  logic        xr;            // ... which it is this cycle (the instruction now in M), to xr_pc_q:
                              // X and D are dropped
  logic        d_go;          // D's instruction moves on to X this cycle

  // M's result, forwarded to D (defined in M)
  logic        m_valid_q, m_wr_q;
  logic [4:0]  m_rd_q;
  logic [31:0] m_result_q, m_value;

  // ================================================================== D
  logic [31:0] d_pc_q;        // the pc of the word on imem_rdata_i (the RAM reads
                              // ResetPc throughout reset: valid from the first cycle)

  logic [31:0] insn;
  assign insn = imem_rdata_i;
  logic [6:0] opcode, funct7;
  logic [2:0] funct3;
  logic [4:0] rd, rs1, rs2;
  assign opcode = insn[6:0];
  assign rd     = insn[11:7];
  assign funct3 = insn[14:12];
  assign rs1    = insn[19:15];
  assign rs2    = insn[24:20];
  assign funct7 = insn[31:25];

  logic [31:0] imm_i, imm_s, imm_b, imm_u, imm_j;
  assign imm_i = {{20{insn[31]}}, insn[31:20]};
  assign imm_s = {{20{insn[31]}}, insn[31:25], insn[11:7]};
  assign imm_b = {{19{insn[31]}}, insn[31], insn[7], insn[30:25], insn[11:8], 1'b0};
  assign imm_u = {insn[31:12], 12'd0};
  assign imm_j = {{11{insn[31]}}, insn[31], insn[19:12], insn[20], insn[30:21], 1'b0};

  localparam logic [6:0] OpLui = 7'b0110111, OpAuipc = 7'b0010111, OpJal = 7'b1101111,
                         OpJalr = 7'b1100111, OpBranch = 7'b1100011, OpLoad = 7'b0000011,
                         OpStore = 7'b0100011, OpImm = 7'b0010011, OpReg = 7'b0110011,
                         OpFence = 7'b0001111, OpSystem = 7'b1110011;

  logic is_lui, is_auipc, is_jal, is_jalr, is_branch, is_load, is_store, is_opimm, is_op;
  logic is_fence, is_csr, is_ecall, is_ebreak, is_mret, is_wfi, is_muldiv, legal;
  always_comb begin
    is_lui    = opcode == OpLui;
    is_auipc  = opcode == OpAuipc;
    is_jal    = opcode == OpJal;
    is_jalr   = opcode == OpJalr && funct3 == 3'b000;
    is_branch = opcode == OpBranch && funct3 != 3'b010 && funct3 != 3'b011;
    is_load   = opcode == OpLoad && funct3 != 3'b011 && funct3 != 3'b110 && funct3 != 3'b111;
    is_store  = opcode == OpStore && !funct3[2] && funct3[1:0] != 2'b11;
    // Shifts: funct7 must be 0000000 (or 0100000 for SRAI); imm[5] = insn[25]
    // set is therefore illegal, as RV32 requires.
    is_opimm  = opcode == OpImm &&
                (funct3 == 3'b001 ? funct7 == 7'b0000000 :
                 funct3 == 3'b101 ? (funct7 == 7'b0000000 || funct7 == 7'b0100000) : 1'b1);
    is_muldiv = opcode == OpReg && funct7 == 7'b0000001;
    is_op     = opcode == OpReg && (funct7 == 7'b0000000 ||
                (funct7 == 7'b0100000 && (funct3 == 3'b000 || funct3 == 3'b101)));
    // fence (any pred/succ/fm) and fence.i: nothing is buffered between a
    // store and the data port; fence.i refetches what follows it (M).
    is_fence  = opcode == OpFence && (funct3 == 3'b000 || funct3 == 3'b001);
    is_csr    = opcode == OpSystem && funct3 != 3'b000 && funct3 != 3'b100;
    is_ecall  = insn == 32'h0000_0073;
    is_ebreak = insn == 32'h0010_0073;
    is_mret   = insn == 32'h3020_0073;
    is_wfi    = insn == 32'h1050_0073;   // a legal no-op: interrupts are polled every cycle
    legal     = is_lui | is_auipc | is_jal | is_jalr | is_branch | is_load | is_store |
                is_opimm | is_op | is_muldiv | is_fence | is_csr | is_ecall | is_ebreak |
                is_mret | is_wfi;
  end

  // CSRs: which one (decoded again in M from the registered word), whether
  // it exists and whether the instruction writes it. csrrs/csrrc (and the
  // immediate forms) with rs1 field 0 do not write; addresses 0xC.. and
  // 0xF.. are read-only by their encoding (bits 11:10).
  logic [11:0] d_csr_addr;
  logic        d_csr_write, d_csr_illegal;
  assign d_csr_addr  = insn[31:20];
  assign d_csr_write = (funct3[1:0] == 2'b01) || (rs1 != 5'd0);
  always_comb begin
    unique case (d_csr_addr)
      12'h300, 12'h301, 12'h304, 12'h305, 12'h340, 12'h341, 12'h342, 12'h343, 12'h344,
      12'hB00, 12'hB80, 12'hB02, 12'hB82, 12'hC00, 12'hC80, 12'hC02, 12'hC82, 12'hC01, 12'hC81,
      12'hF11, 12'hF12, 12'hF13, 12'hF14, 12'hF15:
               d_csr_illegal = d_csr_write && d_csr_addr[11:10] == 2'b11;
      default: d_csr_illegal = 1'b1;
    endcase
  end

  // Exceptions decided from the word alone, in priority order; X adds the
  // misaligned jump and access, M the bus fault.
  logic       d_fetch_fault, d_exc;
  logic [4:0] d_exc_cause;
  tval_e      d_exc_tval;
  assign d_fetch_fault = d_pc_q[31:IMemBits] != '0;
  always_comb begin
    d_exc = 1'b1; d_exc_cause = CauseIllegal; d_exc_tval = TvalInsn;
    if (d_fetch_fault) begin
      d_exc_cause = CauseInsnAccess; d_exc_tval = TvalPc;
    end else if (!legal || (is_csr && d_csr_illegal)) begin
      d_exc_cause = CauseIllegal; d_exc_tval = TvalInsn;
    end else if (is_ecall) begin
      d_exc_cause = CauseEcallM; d_exc_tval = TvalZero;
    end else if (is_ebreak) begin
      d_exc_cause = CauseBreakpoint; d_exc_tval = TvalPc;
    end else begin
      d_exc = 1'b0;
    end
  end

  // Which registers the instruction reads (a false match would only stall).
  logic d_uses_rs1, d_uses_rs2, d_wr;
  assign d_uses_rs1 = !(is_lui || is_auipc || is_jal || (is_csr && funct3[2]));
  assign d_uses_rs2 = is_branch || is_store || opcode == OpReg;
  assign d_wr       = (rd != 5'd0) && !(is_branch || is_store || is_fence || is_ecall ||
                                        is_ebreak || is_mret || is_wfi);

  // Prediction: jal always; a branch as a table of 2-bit counters says,
  // indexed by the pc: each counts whether its branches agree with the
  // static guess (backward taken: a loop; forward not) and starts at
  // "weakly agree"; a return (jalr through ra or t0 that links nothing) to
  // the address the last call (jal or jalr linking ra or t0) left on a
  // four-entry stack. Not to a misaligned target (the jump then traps in
  // M). The target adder reads only the pc and the word. The stack is
  // updated in an instruction's first cycle in X (right or wrong path: it
  // only predicts, X checks), with that update seen by D at once.
  localparam int BhtBits = 6;
  logic [1:0]  bht_q [2**BhtBits];   // flip-flops: reset to "weakly agree"
  logic [31:0] d_target, d_pc4, d_pred_pc, ras_q [4];
  logic [31:0] d_ras_top;
  logic [1:0]  d_bht;
  logic        d_pred, d_call, d_ret, d_agree;
  assign d_call    = (is_jal || is_jalr) && (rd == 5'd1 || rd == 5'd5);
  assign d_ret     = is_jalr && (rs1 == 5'd1 || rs1 == 5'd5) && !d_call;
  assign d_target  = d_pc_q + (insn[3] ? imm_j : imm_b);   // bit 3 tells jal from a branch
  assign d_pc4     = d_pc_q + 32'd4;
  assign d_bht     = bht_q[d_pc_q[BhtBits+1:2]];
  assign d_agree   = d_bht[1];
  assign d_pred    = is_jal ? !imm_j[1] : d_ret || (is_branch && (imm_b[31] == d_agree) && !imm_b[1]);
  assign d_pred_pc = d_ret ? d_ras_top : d_target;

  // Operands: x0, M's result (M writes the register file as it commits, so
  // the file holds everything older), or the file. X's own result is
  // forwarded in X from M's register the next cycle (x_fwd_*); a load's or a
  // CSR read's result is known only in M, so an instruction right behind
  // one that uses it waits a cycle in D (d_wait).
  logic [31:0] d_a, d_b;
  always_comb begin
    d_a = (rs1 == 5'd0) ? 32'd0 : (m_valid_q && m_wr_q && m_rd_q == rs1) ? m_value : rf[rs1];
    d_b = (rs2 == 5'd0) ? 32'd0 : (m_valid_q && m_wr_q && m_rd_q == rs2) ? m_value : rf[rs2];
  end

  // ================================================================== X
  logic        x_valid_q, x_wr_q, x_late_q;   // late: a load or CSR read, whose result comes in M
  logic [4:0]  x_rd_q;
  // x_a_q: rs1 (0 for lui, the pc for auipc); x_ab_q: rs2 or the immediate,
  // the ALU's, shifter's and compare's second operand; x_b_q: rs2 (store
  // data, mul/div)
  logic [31:0] x_pc_q, x_insn_q, x_a_q, x_ab_q, x_b_q, x_target_q, x_pc4_q, x_ret_base_q;
  logic        x_fwd_a_q, x_fwd_ab_q, x_fwd_b_q, x_pred_q;
  logic        x_br_eq_q, x_br_lt_q, x_br_signed_q, x_br_flip_q, x_negate_q, x_static_q;
  logic [1:0]  x_bht_q;
  logic        x_call_q, x_ret_q, x_new_q;   // x_new_q: X's instruction entered this cycle
  logic        x_jal_q, x_jalr_q, x_branch_q, x_load_q, x_store_q, x_muldiv_q;
  logic        x_csr_q, x_csr_write_q, x_mret_q, x_fence_q, x_fencei_q;
  logic        r_sum_q, r_shl_q, r_shr_q, r_slt_q, r_log_q, r_md_q, r_pc4_q;
  logic        x_exc_q;
  logic [4:0]  x_exc_cause_q;
  tval_e       x_exc_tval_q;
  logic [2:0]  x_funct3_q;
  logic        x_sra_q;

  // whether the second operand is the immediate (not rs2), and whether X's
  // instruction (M's next cycle) writes rs1 / rs2 with a result M forwards
  logic d_ab_imm, d_fwd_rs1, d_fwd_rs2;
  assign d_ab_imm  = !(opcode == OpReg || is_branch);
  assign d_fwd_rs1 = x_valid_q && x_wr_q && !x_late_q && x_rd_q == rs1;
  assign d_fwd_rs2 = x_valid_q && x_wr_q && !x_late_q && x_rd_q == rs2;

  logic d_wait;
  assign d_wait = x_valid_q && x_late_q &&
                  ((d_uses_rs1 && x_rd_q == rs1) || (d_uses_rs2 && x_rd_q == rs2));

  // the operands, with M's result for the instruction just ahead
  logic [31:0] a, ab, b;
  assign a  = x_fwd_a_q ? m_result_q : x_a_q;
  assign ab = x_fwd_ab_q ? m_result_q : x_ab_q;
  assign b  = x_fwd_b_q ? m_result_q : x_b_q;

  // One adder: add/sub, load/store addresses and lui (0 + imm), auipc (pc +
  // imm); jal/jalr link with D's pc + 4, jalr targets have an adder of their
  // own and slt/sltu compare in the branches' subtractor (below).
  // D chose the operands, so nothing but M's result is selected in front
  // of the carry chain.
  logic [31:0] sum;
  assign sum = a + (x_negate_q ? ~ab : ab) + 32'(x_negate_q);

  // Five explicit stages (logarithmic); SLL by reversing in and out.
  logic [31:0] sh_in, sh_out, sh_rev, sh_1, sh_2, sh_3, sh_4;
  logic        sh_fill;
  always_comb begin
    for (int i = 0; i < 32; i++) sh_in[i] = (x_funct3_q == 3'b001) ? a[31-i] : a[i];
    sh_fill = x_sra_q & a[31];
    sh_1    = ab[0] ? {{1{sh_fill}},  sh_in[31:1]} : sh_in;
    sh_2    = ab[1] ? {{2{sh_fill}},  sh_1[31:2]}  : sh_1;
    sh_3    = ab[2] ? {{4{sh_fill}},  sh_2[31:4]}  : sh_2;
    sh_4    = ab[3] ? {{8{sh_fill}},  sh_3[31:8]}  : sh_3;
    sh_out  = ab[4] ? {{16{sh_fill}}, sh_4[31:16]} : sh_4;
    for (int i = 0; i < 32; i++) sh_rev[i] = sh_out[31-i];
  end

  logic [31:0] logic_out;
  always_comb begin
    unique case (x_funct3_q[1:0])
      2'b00:   logic_out = a ^ ab;
      2'b10:   logic_out = a | ab;
      default: logic_out = a & ab;
    endcase
  end

  // Branches, slt and sltu compare in subtractors of their own, in two
  // halves side by side (a carry chain half as long): the high half 17 bits
  // wide, so that its borrow is the signed or the unsigned less-than (the
  // sign extended or not), the low half unsigned; a < b when the high halves
  // say so, or are equal and the low halves say so. D decoded which outcome
  // is which (x_br_*), so between the compare and the fetch address there
  // is only the redirect's AND-OR and the address multiplexer.
  logic        b_eq, br_hit, br_taken, b_lt, hi_eq;
  logic [16:0] hi_diff, lo_diff;
  assign hi_diff  = {x_br_signed_q & a[31], a[31:16]} - {x_br_signed_q & ab[31], ab[31:16]};
  assign lo_diff  = {1'b0, a[15:0]} - {1'b0, ab[15:0]};
  assign hi_eq    = a[31:16] == ab[31:16];
  assign b_lt     = hi_diff[16] || (hi_eq && lo_diff[16]);
  assign b_eq     = a == ab;
  assign br_hit   = (x_br_eq_q && b_eq) || (x_br_lt_q && b_lt);   // beq, blt(u) taken
  assign br_taken = br_hit ^ x_funct3_q[0];                       // bne, bge(u): the opposite
  logic unused_diff;   // only the borrows decide
  assign unused_diff = ^{hi_diff[15:0], lo_diff[15:0]};

  // Where the program goes next, and whether X must redirect the fetch to
  // it: a branch whose outcome differs from D's prediction, and every jalr.
  logic        x_taken, x_jump_mis;
  logic [31:0] x_jalr_target, x_jump_target;
  assign x_taken       = x_jal_q || x_jalr_q || (x_branch_q && br_taken);
  // jalr's target from an adder of its own: no operand select in front
  logic [31:0] jalr_sum;
  assign jalr_sum      = a + x_ab_q;   // the immediate
  logic unused_jalr_sum0;   // jalr clears the target's bit 0
  assign unused_jalr_sum0 = jalr_sum[0];
  assign x_jalr_target = {jalr_sum[31:1], 1'b0};
  assign x_jump_target = x_jalr_q ? x_jalr_target : x_target_q;
  // a taken jump to a target that is 2 mod 4 traps on itself
  assign x_jump_mis    = x_taken && x_jump_target[1];
  // The redirect's address waits for no compare: a mispredicted branch goes
  // where D did not send it.
  // x_br_* are 0 in a bubble. A jalr redirects unless it was predicted to
  // where it goes. The redirect is registered as the instruction moves on
  // to M (m_redirect_q, xr_pc_q), so the compare ends at a register; the next cycle
  // drops what X and D then hold: a misprediction costs two bubbles.
  logic [31:0] x_redirect_pc, xr_pc_q;
  // (a predicted return goes where predicted when rs1 = the target - imm,
  // which D computed: no compare after the adder)
  assign x_redirect    = (br_hit ^ x_br_flip_q) || (x_jalr_q && (!x_pred_q || a != x_ret_base_q));
  assign x_redirect_pc = x_jalr_q ? x_jalr_target : x_pred_q ? x_pc4_q : x_target_q;

  // memory: the address, misalignment, local RAM or the bus
  logic x_mem_mis, x_local;
  always_comb begin
    unique case (x_funct3_q[1:0])
      2'b00:   x_mem_mis = 1'b0;
      2'b01:   x_mem_mis = sum[0];
      default: x_mem_mis = sum[1:0] != 2'b00;
    endcase
  end
  assign x_local = sum[31:IMemBits] == '0;

  // X's own exceptions go to M as they are (after the compare, a jump's
  // misalignment is one gate from a register); M ranks them behind D's.
  logic x_mem_mis_exc;
  assign x_mem_mis_exc = (x_load_q || x_store_q) && x_mem_mis;

  // A load reads local RAM now, wherever it is going (harmless if the load
  // is dropped or reads elsewhere: M takes the word only for a local one).
  assign lmem_re_o    = x_valid_q && x_load_q;
  assign lmem_raddr_o = {sum[31:2], 2'b00};

  // M extension: started once nothing ahead can stall or drop it, so it is
  // never cancelled and its one-cycle done is never missed (M then holds
  // only bubbles until X moves on; the unit reads a and b in its first
  // cycle only).
  logic        md_done, md_req, md_wait;
  logic [31:0] md_result;
  logic        m_stall;
  assign md_req  = x_valid_q && x_muldiv_q && !x_exc_q && !m_stall && !m_flush && !xr;
  assign md_wait = x_valid_q && x_muldiv_q && !x_exc_q && !md_done;
  ktpu_cpu_muldiv u_muldiv (
    .clk_i, .rst_i,
    .req_i   (md_req),
    .op_i    (x_funct3_q),
    .a_i     (a),
    .b_i     (b),
    .done_o  (md_done),
    .result_o(md_result)
  );

  // X's result (loads and CSR reads fill theirs in M): the sum, the latest
  // to settle, chosen last; the rest one AND-OR select.
  (* keep *) logic [31:0] x_other;
  logic [31:0] x_result;
  assign x_other  = ({32{r_shl_q}} & sh_rev) | ({32{r_shr_q}} & sh_out) | {31'd0, r_slt_q & b_lt} |
                    ({32{r_log_q}} & logic_out) | ({32{r_md_q}} & md_result) | ({32{r_pc4_q}} & x_pc4_q);
  assign x_result = r_sum_q ? sum : x_other;

  // store data and byte enables, as the bus and the RAM take them
  logic [3:0]  x_be;
  logic [31:0] x_sdata;
  always_comb begin
    unique case (x_funct3_q[1:0])
      2'b00:   begin x_be = 4'b0001 << sum[1:0]; x_sdata = {4{b[7:0]}}; end
      2'b01:   begin x_be = 4'b0011 << sum[1:0]; x_sdata = {2{b[15:0]}}; end
      default: begin x_be = 4'b1111;             x_sdata = b; end
    endcase
  end

  // ================================================================== M
  logic [31:0] m_pc_q, m_insn_q, m_pc4_q, m_target_q, m_sdata_q, m_csr_src_q, m_next;
  logic        m_taken_q;   // a jump or a taken branch: the program goes on at m_target_q
  assign m_next = m_taken_q ? m_target_q : m_pc4_q;
  logic [3:0]  m_be_q;
  logic [2:0]  m_funct3_q;
  logic        m_load_q, m_store_q, m_local_q, m_csr_q, m_csr_write_q, m_mret_q;
  logic        m_fence_q, m_fencei_q, m_gnt_q;
  logic        m_dexc_q, m_jump_mis_q, m_mem_mis_q;   // D's exception, X's two
  logic [4:0]  m_exc_cause_q;                         // D's
  tval_e       m_exc_tval_q;
  logic        m_exc;
  assign m_exc = m_dexc_q || m_jump_mis_q || m_mem_mis_q;
  logic [29:0] mtvec, mepc;          // 4-byte aligned: low bits read 0
  logic        irq_pending, irq_take;
  logic [4:0]  irq_cause;
  // taken instead of M's instruction, unless its bus access is under way
  assign irq_take    = m_valid_q && irq_pending && !m_gnt_q;

  // A refused access (dbus_err_i) is recorded and traps the next cycle, so
  // the fetch address does not wait for the bus's decode.
  logic m_bus, m_fault_q;
  assign m_bus        = m_valid_q && (m_load_q || m_store_q) && !m_local_q && !m_exc;
  assign dbus_req_o   = m_bus && !irq_take && !m_gnt_q && !m_fault_q;
  assign dbus_we_o    = m_store_q;
  assign dbus_addr_o  = {m_result_q[31:2], 2'b00};
  assign dbus_be_o    = m_be_q;
  assign dbus_wdata_o = m_sdata_q;

  logic bus_done;
  assign bus_done  = m_store_q ? dbus_req_o && dbus_gnt_i && !dbus_err_i : m_gnt_q && dbus_rvalid_i;
  assign m_stall   = m_bus && !irq_take && !m_fault_q && !bus_done;

  // X's redirect, registered with the instruction: acted on in its one
  // cycle in M (a branch or jalr never waits there)
  logic m_redirect_q;
  assign xr = m_valid_q && m_redirect_q;

  logic m_fire, m_trap, m_retire;
  // A trapping instruction, mret and fence.i never wait for the bus: what
  // they do is decided without its grant.
  assign m_fire   = m_valid_q && !m_stall;
  assign m_trap   = m_valid_q && (irq_take || m_exc || m_fault_q);
  assign m_retire = m_fire && !m_trap;
  // the same for an instruction that never waits on the bus (a CSR access,
  // mret, a fence), decided without the grant
  logic m_done_nb;
  assign m_done_nb = m_valid_q && !m_trap;
  assign m_flush  = m_trap || (m_valid_q && (m_mret_q || m_fencei_q));
  assign fence_o  = m_done_nb && m_fence_q;

  assign lmem_we_o    = m_valid_q && m_store_q && m_local_q && !m_exc && !irq_take;
  assign lmem_waddr_o = {m_result_q[31:2], 2'b00};
  assign lmem_be_o    = m_be_q;
  assign lmem_wdata_o = m_sdata_q;

  // The word a local load reads, with the bytes of a store to it committed
  // the cycle the load left X (which the RAM did not return: read-first);
  // the addresses compared then, in X.
  logic        s_hit_q;
  logic [31:0] s_data_q;
  logic [3:0]  s_be_q;
  always_ff @(posedge clk_i) begin
    // within local RAM only: a load from elsewhere takes no bytes from here
    s_hit_q  <= lmem_we_o && m_result_q[IMemBits-1:2] == sum[IMemBits-1:2];
    s_data_q <= m_sdata_q;
    s_be_q   <= m_be_q;
  end
  logic [31:0] ld_raw, ld_word, ld_data;
  always_comb begin
    ld_raw = dbus_rdata_i;
    if (m_local_q)
      for (int l = 0; l < 4; l++)
        ld_raw[8*l +: 8] = (s_hit_q && s_be_q[l]) ? s_data_q[8*l +: 8] : lmem_rdata_i[8*l +: 8];
  end
  assign ld_word = ld_raw >> {m_result_q[1:0], 3'b000};
  always_comb begin
    unique case (m_funct3_q[1:0])
      2'b00:   ld_data = {{24{!m_funct3_q[2] & ld_word[7]}}, ld_word[7:0]};
      2'b01:   ld_data = {{16{!m_funct3_q[2] & ld_word[15]}}, ld_word[15:0]};
      default: ld_data = ld_word;
    endcase
  end

  // M's result: what it writes to rd and forwards to D
  logic [31:0] csr_rdata;
  assign m_value = m_load_q ? ld_data : m_csr_q ? csr_rdata : m_result_q;

  // ------------------------------------------------------------------ traps
  logic [4:0]  trap_cause;
  logic [31:0] trap_tval;
  tval_e       trap_tsel;
  always_comb begin
    if (irq_take)     begin trap_cause = irq_cause; trap_tsel = TvalZero; end
    else if (m_dexc_q) begin trap_cause = m_exc_cause_q; trap_tsel = m_exc_tval_q; end
    else if (m_jump_mis_q) begin trap_cause = CauseInsnMisaligned; trap_tsel = TvalTarget; end
    else if (m_mem_mis_q) begin
      trap_cause = m_store_q ? CauseStoreMisaligned : CauseLoadMisaligned; trap_tsel = TvalAddr;
    end
    else              begin trap_cause = m_store_q ? CauseStoreAccess : CauseLoadAccess;
                            trap_tsel  = TvalAddr; end
    unique case (trap_tsel)
      TvalZero:   trap_tval = 32'd0;
      TvalInsn:   trap_tval = m_insn_q;
      TvalPc:     trap_tval = m_pc_q;
      TvalTarget: trap_tval = m_target_q;
      default:    trap_tval = m_result_q;
    endcase
  end

  // ------------------------------------------------------------------ CSRs
  // in M, where the instruction commits (ktpu_cpu_csr)
  ktpu_cpu_csr u_csr (
    .clk_i, .rst_i,
    .addr_i       (m_insn_q[31:20]),
    .op_i         (m_funct3_q[1:0]),
    .src_i        (m_csr_src_q),
    .write_i      (m_done_nb && m_csr_q && m_csr_write_q),
    .rdata_o      (csr_rdata),
    .trap_i       (m_trap),
    .trap_irq_i   (irq_take),
    .trap_cause_i (trap_cause),
    .trap_tval_i  (trap_tval),
    .trap_pc_i    (m_pc_q[31:2]),
    .mret_i       (m_done_nb && m_mret_q),
    .retire_i     (m_retire),
    .irq_timer_i, .irq_ext_i, .mtime_i,
    .irq_pending_o(irq_pending),
    .irq_cause_o  (irq_cause),
    .mtvec_o      (mtvec),
    .mepc_o       (mepc)
  );

  // ================================================================== control
  assign x_go       = !m_stall && !md_wait;
  assign d_go       = x_go && !d_wait;

  // The fetch address. The low two bits are 0 but for a misaligned jump's
  // target, which is never executed: the jump traps in M. Reset and M's
  // redirect first, then X's, then D's prediction or pc + 4. When D waits,
  // the RAM is not read (it keeps D's word) instead of reading D's pc
  // again: the stall, which comes from the data bus's grant, then ends at
  // the RAM's read enable and D's pc register, not in the fetch address.
  logic        m_sel;
  logic [31:0] next_pc, next_pc_m, next_pc_other;
  assign m_sel = rst_i || m_flush;
  always_comb begin
    if (rst_i)         next_pc_m = ResetPc;
    else if (m_trap)   next_pc_m = {mtvec, 2'b00};
    else if (m_mret_q) next_pc_m = {mepc, 2'b00};
    else               next_pc_m = m_next;   // fence.i: what follows, fetched again
  end
  // D's target adder is the latest input: it enters through the last
  // select alone (given the whole choice, the mapper put it through three
  // more levels of wide multiplexers: 13 -> 16, make synth)
  logic d_take_target;
  assign d_take_target = !m_sel && !xr && d_pred && !d_ret;
  assign next_pc_other = m_sel ? next_pc_m : xr ? xr_pc_q : d_ret ? d_ras_top : d_pc4;   // a return is predicted
  assign next_pc       = d_take_target ? d_target : next_pc_other;
  assign imem_addr_o = next_pc;
  assign imem_re_o   = m_sel || xr || d_go;

  always_ff @(posedge clk_i) if (imem_re_o) d_pc_q <= next_pc;

  // D -> X
  // A branch counts in the table whether it went the static guess's way,
  // computed in X and written in its cycle in M (from registers).
  logic       bht_upd, m_branch_q;
  logic [1:0] bht_new, m_bht_new_q;
  assign bht_upd = m_valid_q && m_branch_q;
  always_comb begin
    if (br_taken == x_static_q) bht_new = x_bht_q == 2'd3 ? 2'd3 : x_bht_q + 2'd1;
    else                        bht_new = x_bht_q == 2'd0 ? 2'd0 : x_bht_q - 2'd1;
  end
  always_ff @(posedge clk_i) begin
    for (int i = 0; i < 2**BhtBits; i++)   // a constant index each (Yosys, docs/timing.md)
      if (rst_i) bht_q[i] <= 2'd2;
      else if (bht_upd && m_pc_q[BhtBits+1:2] == BhtBits'(i)) bht_q[i] <= m_bht_new_q;
  end

  // the return-address stack, from registers: an instruction's first cycle
  // in X (not one a redirect drops)
  logic ras_push, ras_pop;
  assign ras_push  = x_new_q && x_valid_q && !xr && x_call_q;
  assign ras_pop   = x_new_q && x_valid_q && !xr && x_ret_q;
  assign d_ras_top = ras_push ? x_pc4_q : ras_pop ? ras_q[1] : ras_q[0];

  always_ff @(posedge clk_i) begin
    xr_pc_q <= x_redirect_pc;
    x_new_q <= d_go;
    if (ras_push)
      {ras_q[3], ras_q[2], ras_q[1], ras_q[0]} <= {ras_q[2], ras_q[1], ras_q[0], x_pc4_q};
    else if (ras_pop)
      {ras_q[2], ras_q[1], ras_q[0]} <= {ras_q[3], ras_q[2], ras_q[1]};
  end
  always_ff @(posedge clk_i) begin
    if (rst_i || m_flush || xr) begin
      x_valid_q   <= 1'b0;
      x_br_eq_q   <= 1'b0;
      x_br_lt_q   <= 1'b0;
      x_br_flip_q <= 1'b0;
    end else if (x_go) begin
      x_valid_q   <= d_go;
      // the compare a branch makes, and whether its outcome is the opposite
      // of the prediction when the compare holds (bne, bge(u) and the
      // predicted ones)
      x_br_eq_q   <= d_go && is_branch && !funct3[2];
      x_br_lt_q   <= d_go && is_branch && funct3[2];
      x_br_flip_q <= d_go && is_branch && (funct3[0] ^ d_pred);
    end
  end
  always_ff @(posedge clk_i) begin
    if (x_go) begin
      x_pc_q        <= d_pc_q;
      x_insn_q      <= insn;
      x_wr_q        <= d_wr;
      x_rd_q        <= rd;
      x_late_q      <= d_wr && (is_load || is_csr);
      x_a_q         <= is_lui ? 32'd0 : is_auipc ? d_pc_q : d_a;
      x_ab_q        <= d_ab_imm ? (is_store ? imm_s : (is_lui || is_auipc) ? imm_u : imm_i) : d_b;
      x_b_q         <= d_b;
      // X's instruction now is M's next cycle: its result comes from there
      x_fwd_a_q     <= d_fwd_rs1 && d_uses_rs1;
      x_fwd_ab_q    <= d_fwd_rs2 && !d_ab_imm;
      x_fwd_b_q     <= d_fwd_rs2;
      x_target_q    <= d_pred_pc;
      x_ret_base_q  <= d_ras_top - imm_i;
      x_call_q      <= d_call;
      x_ret_q       <= d_ret;
      x_bht_q       <= d_bht;
      x_static_q    <= imm_b[31];
      x_pc4_q       <= d_pc4;
      x_pred_q      <= d_pred;
      x_br_signed_q <= is_branch ? !funct3[1] : !funct3[0];   // blt/bge, slt(i)
      x_negate_q    <= is_op && funct3 == 3'b000 && funct7[5];   // sub
      x_jal_q       <= is_jal;
      x_jalr_q      <= is_jalr;
      x_branch_q    <= is_branch;
      x_load_q      <= is_load;
      x_store_q     <= is_store;
      x_muldiv_q    <= is_muldiv;
      x_csr_q       <= is_csr;
      x_csr_write_q <= d_csr_write;
      x_mret_q      <= is_mret;
      x_fence_q     <= is_fence;
      x_fencei_q    <= is_fence && funct3[0];
      x_funct3_q    <= funct3;
      x_sra_q       <= funct7[5] && funct3 == 3'b101;
      // the result select (the written instructions' and the memory
      // address's only: others don't care); opcode bit 2 is set for
      // lui/auipc/jal/jalr (and fence)
      r_md_q        <= is_muldiv;
      r_pc4_q       <= is_jal || is_jalr;
      r_sum_q       <= is_load || is_store ||
                       (!is_muldiv && !is_jal && !is_jalr && (opcode[2] || funct3 == 3'b000));
      r_shl_q       <= (is_op || is_opimm) && funct3 == 3'b001;
      r_shr_q       <= (is_op || is_opimm) && funct3 == 3'b101;
      r_slt_q       <= (is_op || is_opimm) && funct3[2:1] == 2'b01;
      r_log_q       <= (is_op || is_opimm) && funct3[2] && funct3[1:0] != 2'b01;
      x_exc_q       <= d_exc;
      x_exc_cause_q <= d_exc_cause;
      x_exc_tval_q  <= d_exc_tval;
    end
  end

  // X -> M
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      m_valid_q <= 1'b0;
      m_gnt_q   <= 1'b0;
      m_fault_q <= 1'b0;
    end else if (!m_stall) begin
      m_valid_q <= x_valid_q && x_go && !m_flush && !xr;
      m_gnt_q   <= 1'b0;
      m_fault_q <= 1'b0;
    end else if (dbus_req_o && dbus_gnt_i) begin
      // refused, or a load's read under way (only its answer is awaited)
      m_fault_q <= dbus_err_i;
      m_gnt_q   <= !dbus_err_i;
    end
  end
  always_ff @(posedge clk_i) begin
    if (!m_stall) begin
      m_redirect_q  <= x_redirect;
      m_branch_q    <= x_branch_q;
      m_bht_new_q   <= bht_new;
      m_pc_q        <= x_pc_q;
      m_insn_q      <= x_insn_q;
      m_wr_q        <= x_wr_q;
      m_rd_q        <= x_rd_q;
      m_result_q    <= x_result;
      m_pc4_q       <= x_pc4_q;
      m_taken_q     <= x_taken;
      m_target_q    <= x_jump_target;
      m_sdata_q     <= x_sdata;
      m_be_q        <= x_be;
      m_funct3_q    <= x_funct3_q;
      m_load_q      <= x_load_q;
      m_store_q     <= x_store_q;
      m_local_q     <= x_local;
      m_csr_q       <= x_csr_q;
      m_csr_write_q <= x_csr_write_q;
      m_csr_src_q   <= x_funct3_q[2] ? {27'd0, x_insn_q[19:15]} : a;
      m_mret_q      <= x_mret_q;
      m_fence_q     <= x_fence_q;
      m_fencei_q    <= x_fencei_q;
      m_dexc_q      <= x_exc_q;
      m_jump_mis_q  <= x_jump_mis;
      m_mem_mis_q   <= x_mem_mis_exc;
      m_exc_cause_q <= x_exc_cause_q;
      m_exc_tval_q  <= x_exc_tval_q;
    end
  end

  // a load's and a store's address in M is m_result_q (X's sum)
  always_ff @(posedge clk_i) begin
    if (m_retire && m_wr_q) rf[m_rd_q] <= m_value;
  end

`ifdef VERILATOR
  // ------------------------------------------------------------------ RVFI-like trace
  // One call per instruction leaving M (retired or trapped) and per
  // interrupt taken (reported on the instruction it displaced).
  import "DPI-C" function void ktpu_rvfi_retire(
    input int unsigned pc, input int unsigned insn, input int unsigned next_pc,
    input int unsigned trap, input int unsigned cause, input int unsigned rd,
    input int unsigned rd_wdata, input int unsigned mem_addr, input int unsigned mem_rmask,
    input int unsigned mem_wmask, input int unsigned mem_wdata, input int unsigned mem_rdata);

  logic        t_wr;
  assign t_wr   = m_retire && m_wr_q;
  always_ff @(posedge clk_i) begin
    if (!rst_i && m_fire)
      ktpu_rvfi_retire(m_pc_q, m_insn_q, next_pc_m,   // where M sends the program (mtvec, mepc, or on)
                       32'(m_trap), {irq_take, 26'd0, trap_cause},
                       t_wr ? 32'(m_rd_q) : 32'd0, t_wr ? m_value : 32'd0, m_result_q,
                       (m_retire && m_load_q) ? 32'(m_be_q) : 32'd0,
                       (m_retire && m_store_q) ? 32'(m_be_q) : 32'd0, m_sdata_q,
                       m_load_q ? ld_raw : 32'd0);
  end
`endif
endmodule

`default_nettype wire
