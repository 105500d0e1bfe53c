// ktpu_cpu: the RV32IM + Zicsr machine-mode sequencer core (SPEC §2, §9).
//
// Two stages behind a synchronous instruction RAM:
//   F  the fetch address (next_pc, computed in X) is registered by the RAM
//   X  decode, register read, ALU, branch, CSR, trap, data-bus request
//   W  register write, CSR write; a load's data arrives here (bus rvalid)
//      and is forwarded to X in the same cycle
// Because X computes the next fetch address combinationally, a taken branch,
// a jump, a trap and mret cost no bubble: the common instruction, loads
// included, takes one cycle. Multi-cycle: M-extension ops (3 cycles for
// multiply, 34 for divide), CSR writes (2: X holds while W writes), a load's
// W stage waiting on a slow target (X holds while W waits), and a bus that
// does not grant. Shaped for Yosys/ABC's LUT count (docs/cpu.md, "Size"), and
// on the next-pc path for depth (docs/timing.md).
//
// Data bus: dbus_req_o with we/addr/be/wdata is held until dbus_gnt_i
// (only an interrupt may withdraw a request not yet granted: nothing has
// happened, and the instruction runs again after mret).
// dbus_err_i, valid with gnt, refuses the access (nothing is done) and makes
// the instruction trap with an access fault. A granted read answers with
// dbus_rvalid_i (one or more cycles later; one read in flight at most).
// A granted write needs no answer.
//
// Fetch: the instruction RAM holds IMemBytes from address 0; a pc outside it
// takes an instruction access fault instead of wrapping.
//
// Simulation only: every retirement (and every trap) is reported through the
// DPI function ktpu_rvfi_retire (sim/harness) for the lockstep check.
`default_nettype none

module ktpu_cpu #(
  parameter logic [31:0] ResetPc   = 32'h0000_0000,
  parameter int          IMemBytes = 131072
) (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  // instruction RAM read port, 1-cycle latency
  output logic [31:0]      imem_addr_o,
  input  wire logic [31:0] imem_rdata_i,
  // data bus
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
  localparam logic [4:0] CauseIrqTimer        = 5'd7;
  localparam logic [4:0] CauseIrqExt          = 5'd11;

  // ------------------------------------------------------------------ state
  logic [31:0] pc_q;          // pc of the instruction in X
  logic        x_valid_q;     // imem_rdata_i holds the word at pc_q

  logic        w_valid_q, w_wr_q, w_load_q, w_ld_uns_q;
  logic [4:0]  w_rd_q;
  logic [1:0]  w_ld_size_q, w_ld_off_q;
  logic [31:0] w_result_q;

  logic [31:0] rf [32];       // LUTRAM, x0 masked on read, never reset

  // CSRs
  logic        mie_q, mpie_q;           // mstatus.MIE, mstatus.MPIE
  logic        mtie_q, meie_q;          // mie.MTIE, mie.MEIE
  logic [29:0] mtvec_q, mepc_q;         // 4-byte aligned: low bits read 0
  logic        mcause_irq_q;
  logic [4:0]  mcause_code_q;
  logic [31:0] mtval_q, mscratch_q;
  logic [63:0] mcycle_q, minstret_q;
  logic        csr_wb_q;                // a CSR write is in W (see CSR update)

  // ------------------------------------------------------------------ decode
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
    // store and the fetch port (the store is in RAM before the next fetch is
    // issued), so both are no-ops here.
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

  // ------------------------------------------------------------------ operands
  logic [31:0] ld_data, w_wdata;
  logic        w_wait;    // a load in W whose data has not arrived
  assign w_wait  = w_valid_q && w_load_q && !dbus_rvalid_i;
  assign w_wdata = w_load_q ? ld_data : w_result_q;

  logic [31:0] a, b;
  always_comb begin
    a = (rs1 == 5'd0) ? 32'd0 : (w_valid_q && w_wr_q && w_rd_q == rs1) ? w_wdata : rf[rs1];
    b = (rs2 == 5'd0) ? 32'd0 : (w_valid_q && w_wr_q && w_rd_q == rs2) ? w_wdata : rf[rs2];
  end

  // ------------------------------------------------------------------ ALU
  // One 33-bit adder serves add/sub, slt/sltu, load/store addresses and
  // the results of lui (0 + imm), auipc (pc + imm) and jal/jalr (pc + 4),
  // so the result select has few inputs (branches compare in their own
  // subtractor, and jump targets have their own adder: below); one right
  // shifter serves all three shifts (SLL by reversing in and out). Size
  // before speed (SPEC §9).
  logic        a_is_pc;
  logic [31:0] alu_a, alu_b;
  assign a_is_pc = is_auipc | is_jal | is_jalr;
  always_comb begin
    alu_a = is_lui ? 32'd0 : a_is_pc ? pc_q : a;
    if (is_op)                   alu_b = b;
    else if (is_store)           alu_b = imm_s;
    else if (is_lui || is_auipc) alu_b = imm_u;
    else if (is_jal || is_jalr)  alu_b = 32'd4;
    else                         alu_b = imm_i;
  end
  logic        negate;
  assign negate = ((is_op || is_opimm) && (funct3 == 3'b010 || funct3 == 3'b011)) ||
                  (is_op && funct3 == 3'b000 && funct7[5]);
  logic [32:0] addsub;
  assign addsub = {1'b0, alu_a} + {1'b0, negate ? ~alu_b : alu_b} + 33'(negate);
  logic [31:0] sum;
  assign sum = addsub[31:0];
  logic lt, ltu;
  assign ltu = !addsub[32];                                  // borrow out of a - b
  assign lt  = (a[31] == alu_b[31]) ? addsub[31] : a[31];

  // Five explicit stages (logarithmic). Earlier versions of this core kept
  // the stage-2 and stage-4 outputs (* keep *) to stop ABC flattening it;
  // with this datapath that costs about 60 LUTs more than leaving it alone.
  logic [31:0] sh_in, sh_out, sh_rev, sh_1, sh_3;
  logic [31:0] sh_2, sh_4;
  logic        sh_fill;
  always_comb begin
    for (int i = 0; i < 32; i++) sh_in[i] = (funct3 == 3'b001) ? a[31-i] : a[i];
    sh_fill = funct7[5] & a[31] & (funct3 == 3'b101);
    sh_1    = alu_b[0] ? {{1{sh_fill}},  sh_in[31:1]} : sh_in;
    sh_2    = alu_b[1] ? {{2{sh_fill}},  sh_1[31:2]}  : sh_1;
    sh_3    = alu_b[2] ? {{4{sh_fill}},  sh_2[31:4]}  : sh_2;
    sh_4    = alu_b[3] ? {{8{sh_fill}},  sh_3[31:8]}  : sh_3;
    sh_out  = alu_b[4] ? {{16{sh_fill}}, sh_4[31:16]} : sh_4;
    for (int i = 0; i < 32; i++) sh_rev[i] = sh_out[31-i];
  end

  logic [31:0] logic_out;
  always_comb begin
    unique case (funct3[1:0])
      2'b00:   logic_out = a ^ alu_b;
      2'b10:   logic_out = a | alu_b;
      default: logic_out = a & alu_b;
    endcase
  end

  // A branch compares rs1 and rs2 in a subtractor of its own, not in the
  // ALU adder: the instruction's decode (the adder's operand select and
  // negate) is then off the path from the forwarded operands through the
  // branch decision into the fetch address (docs/timing.md).
  logic        br_taken, b_eq, b_lt, b_ltu;
  logic [32:0] b_diff;
  assign b_diff = {1'b0, a} - {1'b0, b};
  assign b_eq   = a == b;
  assign b_ltu  = b_diff[32];                                // borrow out of a - b
  assign b_lt   = (a[31] == b[31]) ? b_diff[31] : a[31];
  logic unused_b_diff;   // only the sign and the borrow decide
  assign unused_b_diff = ^b_diff[30:0];
  always_comb begin
    unique case (funct3)
      3'b000:  br_taken = b_eq;
      3'b001:  br_taken = !b_eq;
      3'b100:  br_taken = b_lt;
      3'b101:  br_taken = !b_lt;
      3'b110:  br_taken = b_ltu;
      default: br_taken = !b_ltu;
    endcase
  end

  // Whether a jump's target is 2 mod 4, straight from the operands (the
  // target itself comes out of the pc adder below, which needs to know
  // whether the instruction fires). jal and branch offsets are even and the
  // pc is 4-aligned, so only the immediate's bit 1 counts; jalr adds rs1.
  logic jump, jump_mis;
  assign jump     = is_jal | is_jalr | (is_branch & br_taken);
  assign jump_mis = is_jalr ? (a[1] ^ imm_i[1] ^ (a[0] & imm_i[0])) :
                    is_jal  ? imm_j[1] : imm_b[1];

  // ------------------------------------------------------------------ memory
  logic [31:0] mem_addr;
  logic        mem_misaligned;
  assign mem_addr = sum;
  always_comb begin
    unique case (funct3[1:0])
      2'b00:   mem_misaligned = 1'b0;
      2'b01:   mem_misaligned = mem_addr[0];
      default: mem_misaligned = mem_addr[1:0] != 2'b00;
    endcase
  end

  // ------------------------------------------------------------------ CSRs
  logic [11:0] csr_addr;
  assign csr_addr = insn[31:20];
  logic [31:0] csr_rdata;
  logic        csr_known, csr_write;
  // csrrs/csrrc (and the immediate forms) with rs1 field 0 do not write.
  assign csr_write = (funct3[1:0] == 2'b01) || (rs1 != 5'd0);

  // Read mux as one-hot selects ANDed and ORed: the same function as a case
  // statement, but Yosys/ABC maps a 25-way case on 12 address bits into
  // several times the LUTs of this form.
  logic s_mstatus, s_misa, s_mie, s_mtvec, s_mscratch, s_mepc, s_mcause, s_mtval, s_mip;
  logic s_cyc, s_cych, s_ins, s_insh, s_time, s_timeh, s_zero;
  always_comb begin
    s_mstatus  = csr_addr == 12'h300;
    s_misa     = csr_addr == 12'h301;
    s_mie      = csr_addr == 12'h304;
    s_mtvec    = csr_addr == 12'h305;
    s_mscratch = csr_addr == 12'h340;
    s_mepc     = csr_addr == 12'h341;
    s_mcause   = csr_addr == 12'h342;
    s_mtval    = csr_addr == 12'h343;
    s_mip      = csr_addr == 12'h344;
    // machine counters and their read-only user copies (writing those traps)
    s_cyc      = csr_addr == 12'hB00 || csr_addr == 12'hC00;
    s_cych     = csr_addr == 12'hB80 || csr_addr == 12'hC80;
    s_ins      = csr_addr == 12'hB02 || csr_addr == 12'hC02;
    s_insh     = csr_addr == 12'hB82 || csr_addr == 12'hC82;
    s_time     = csr_addr == 12'hC01;
    s_timeh    = csr_addr == 12'hC81;
    s_zero     = csr_addr[11:4] == 8'hF1 && csr_addr[3:0] != 4'h0 && csr_addr[3:0] <= 4'h5;
    csr_known  = s_mstatus | s_misa | s_mie | s_mtvec | s_mscratch | s_mepc | s_mcause |
                 s_mtval | s_mip | s_cyc | s_cych | s_ins | s_insh | s_time | s_timeh | s_zero;
    csr_rdata  = ({32{s_mstatus}}  & {19'd0, 2'b11, 3'd0, mpie_q, 3'd0, mie_q, 3'd0}) | // MPP = M
                 ({32{s_misa}}     & ktpu_pkg::CSR_MISA_VALUE) |                                   // MXL=1, I, M
                 ({32{s_mie}}      & {20'd0, meie_q, 3'd0, mtie_q, 7'd0}) |
                 ({32{s_mtvec}}    & {mtvec_q, 2'b00}) |                                 // direct mode
                 ({32{s_mscratch}} & mscratch_q) |
                 ({32{s_mepc}}     & {mepc_q, 2'b00}) |
                 ({32{s_mcause}}   & {mcause_irq_q, 26'd0, mcause_code_q}) |
                 ({32{s_mtval}}    & mtval_q) |
                 ({32{s_mip}}      & {20'd0, irq_ext_i, 3'd0, irq_timer_i, 7'd0}) |
                 ({32{s_cyc}}      & mcycle_q[31:0]) |
                 ({32{s_cych}}     & mcycle_q[63:32]) |
                 ({32{s_ins}}      & minstret_q[31:0]) |
                 ({32{s_insh}}     & minstret_q[63:32]) |
                 ({32{s_time}}     & mtime_i[31:0]) |
                 ({32{s_timeh}}    & mtime_i[63:32]);
  end
  // Addresses 0xC.. and 0xF.. are read-only by their encoding (bits 11:10).
  logic csr_illegal;
  assign csr_illegal = !csr_known || (csr_write && csr_addr[11:10] == 2'b11);

  // ------------------------------------------------------------------ M ext
  logic        md_done, md_busy, md_req;
  logic [31:0] md_result;
  ktpu_cpu_muldiv u_muldiv (
    .clk_i, .rst_i,
    .req_i   (md_req),
    .op_i    (funct3),
    .a_i     (a),
    .b_i     (b),
    .busy_o  (md_busy),
    .done_o  (md_done),
    .result_o(md_result)
  );

  // ------------------------------------------------------------------ traps
  logic irq_pending, irq_take;
  logic [4:0] irq_cause;
  assign irq_pending = mie_q && ((mtie_q && irq_timer_i) || (meie_q && irq_ext_i));
  assign irq_cause   = (meie_q && irq_ext_i) ? CauseIrqExt : CauseIrqTimer;

  logic fetch_fault;
  assign fetch_fault = pc_q[31:IMemBits] != '0;

  // Exceptions decided from the instruction alone, in priority order, and
  // where each trap's mtval comes from.
  typedef enum logic [2:0] {TvalZero, TvalInsn, TvalPc, TvalTarget, TvalAddr} tval_e;
  logic       exc;
  logic [4:0] exc_cause;
  tval_e      exc_tval;
  always_comb begin
    exc = 1'b1; exc_cause = CauseIllegal; exc_tval = TvalInsn;
    if (fetch_fault) begin
      exc_cause = CauseInsnAccess; exc_tval = TvalPc;
    end else if (!legal || (is_csr && csr_illegal)) begin
      exc_cause = CauseIllegal; exc_tval = TvalInsn;
    end else if (is_ecall) begin
      exc_cause = CauseEcallM; exc_tval = TvalZero;
    end else if (is_ebreak) begin
      exc_cause = CauseBreakpoint; exc_tval = TvalPc;
    end else if (jump && jump_mis) begin
      exc_cause = CauseInsnMisaligned; exc_tval = TvalTarget;   // the jump target
    end else if ((is_load || is_store) && mem_misaligned) begin
      exc_cause = is_store ? CauseStoreMisaligned : CauseLoadMisaligned; exc_tval = TvalAddr;
    end else begin
      exc = 1'b0;
    end
  end

  // ------------------------------------------------------------------ control
  logic go;           // X holds a real instruction this cycle
  assign go = x_valid_q && !rst_i && !w_wait && !csr_wb_q;
  // Once an M op has started it finishes before an interrupt may cut in.
  assign irq_take = go && irq_pending && !md_busy;
  assign md_req   = go && is_muldiv && !exc && !irq_take;

  logic mem_op;
  assign mem_op = go && !irq_take && !exc && (is_load || is_store);
  assign dbus_req_o   = mem_op;
  assign dbus_we_o    = is_store;
  assign dbus_addr_o  = {mem_addr[31:2], 2'b00};
  always_comb begin
    unique case (funct3[1:0])
      2'b00:   begin dbus_be_o = 4'b0001 << mem_addr[1:0]; dbus_wdata_o = {4{b[7:0]}}; end
      2'b01:   begin dbus_be_o = 4'b0011 << mem_addr[1:0]; dbus_wdata_o = {2{b[15:0]}}; end
      default: begin dbus_be_o = 4'b1111;                  dbus_wdata_o = b; end
    endcase
  end

  logic bus_fault, trap, fire, retire;
  assign bus_fault = mem_op && dbus_gnt_i && dbus_err_i;
  // X completes this cycle (retires or traps)
  assign fire = go && (irq_take || exc || bus_fault ||
                       (is_muldiv ? md_done : (!mem_op || dbus_gnt_i)));
  assign trap   = irq_take || (go && exc) || bus_fault;   // implies fire
  assign retire = fire && !trap;
  assign fence_o = retire && is_fence;

  // The next pc's candidates, none from the ALU adder: pc + 4, and the
  // jump target from an adder of its own (pc + the jal or branch offset,
  // rs1 + imm for jalr), whose inputs do not wait for the branch decision.
  // Whether a branch is taken or the instruction traps then only selects
  // among them: one carry chain between a register and the fetch address,
  // not the compare's and then the target's in series (docs/timing.md).
  logic        take_jump;
  logic [31:0] pc_plus4, target_sum, jump_target;
  assign take_jump   = go && jump && !fetch_fault && !irq_take;
  assign pc_plus4    = pc_q + 32'd4;
  assign target_sum  = (is_jalr ? a : pc_q) + (is_jalr ? imm_i : is_jal ? imm_j : imm_b);
  assign jump_target = {target_sum[31:1], 1'b0};
  logic unused_target_sum0;   // jalr clears the target's bit 0
  assign unused_target_sum0 = target_sum[0];

  logic [4:0]  trap_cause;
  logic [31:0] trap_tval;
  tval_e       trap_tsel;
  always_comb begin
    if (irq_take)       begin trap_cause = irq_cause; trap_tsel = TvalZero; end
    else if (exc)       begin trap_cause = exc_cause; trap_tsel = exc_tval; end
    else                begin trap_cause = is_store ? CauseStoreAccess : CauseLoadAccess;
                              trap_tsel  = TvalAddr; end
    unique case (trap_tsel)
      TvalZero:   trap_tval = 32'd0;
      TvalInsn:   trap_tval = insn;
      TvalPc:     trap_tval = pc_q;
      TvalTarget: trap_tval = jump_target;
      default:    trap_tval = mem_addr;
    endcase
  end

  // The low two bits of every fetch address are 0: a target that is not
  // traps instead (mtvec and mepc hold 30 bits).
  logic [31:0] next_pc;
  always_comb begin
    if (trap)                next_pc = {mtvec_q, 2'b00};
    else if (go && is_mret)  next_pc = {mepc_q, 2'b00};
    else if (take_jump)      next_pc = {jump_target[31:2], 2'b00};
    else if (retire)         next_pc = pc_plus4;
    else                     next_pc = pc_q;
  end
  assign imem_addr_o = next_pc;

  // Result of the X instruction (loads fill theirs in W): one AND-OR select.
  // Decoded from as few bits as the written instructions need (results of
  // instructions that write no register are don't-care): opcode bit 2 is
  // set for lui/auipc/jal/jalr (and fence), whose result is the sum.
  logic [31:0] x_result;
  logic        x_wr;
  logic        r_md, r_csr, r_alu, r_sum, r_shl, r_shr, r_slt, r_log;
  always_comb begin
    x_wr  = (rd != 5'd0) && !(is_branch || is_store || is_fence || is_ecall ||
                              is_ebreak || is_mret || is_wfi);
    r_md  = is_muldiv;
    r_csr = is_csr;
    r_alu = !r_md && !r_csr;
    r_sum = r_alu && (opcode[2] || funct3 == 3'b000);
    r_shl = r_alu && !opcode[2] && funct3 == 3'b001;
    r_shr = r_alu && !opcode[2] && funct3 == 3'b101;
    r_slt = r_alu && !opcode[2] && funct3[2:1] == 2'b01;
    r_log = r_alu && !opcode[2] && funct3[2] && funct3[1:0] != 2'b01;
    x_result = ({32{r_sum}} & sum) | ({32{r_shl}} & sh_rev) | ({32{r_shr}} & sh_out) |
               {31'd0, r_slt & (funct3[0] ? ltu : lt)} | ({32{r_log}} & logic_out) |
               ({32{r_csr}} & csr_rdata) | ({32{r_md}} & md_result);
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      pc_q      <= ResetPc;
      x_valid_q <= 1'b0;
      w_valid_q <= 1'b0;
    end else begin
      pc_q      <= next_pc;
      x_valid_q <= 1'b1;
      if (!w_wait) w_valid_q <= fire;
    end
  end

  always_ff @(posedge clk_i) begin
    if (fire) begin
      w_wr_q      <= x_wr && !trap;
      w_load_q    <= is_load && !trap;
      w_rd_q      <= rd;
      w_result_q  <= x_result;
      w_ld_size_q <= funct3[1:0];
      w_ld_uns_q  <= funct3[2];
      w_ld_off_q  <= mem_addr[1:0];
    end
  end

  // Load data: select the addressed bytes of the bus word and extend.
  logic [31:0] ld_word;
  assign ld_word = dbus_rdata_i >> {w_ld_off_q, 3'b000};
  always_comb begin
    unique case (w_ld_size_q)
      2'b00:   ld_data = {{24{!w_ld_uns_q & ld_word[7]}}, ld_word[7:0]};
      2'b01:   ld_data = {{16{!w_ld_uns_q & ld_word[15]}}, ld_word[15:0]};
      default: ld_data = ld_word;
    endcase
  end

  always_ff @(posedge clk_i) begin
    if (w_valid_q && w_wr_q && !w_wait) rf[w_rd_q] <= w_wdata;
  end

  // ------------------------------------------------------------------ CSR update
  // A CSR write happens in W, the cycle after its instruction retired: the
  // old value is then in w_result_q (it is the instruction's rd result), so
  // the new one is computed from registers and the wide read mux feeds only
  // the result select. X holds for that cycle (go is low: no instruction,
  // no interrupt), so the next instruction sees the written value, and the
  // write never meets a trap or mret. Costs one cycle per CSR write.
  localparam int WsMstatus = 0, WsMie = 1, WsMtvec = 2, WsMscratch = 3, WsMepc = 4,
                 WsMcause = 5, WsMtval = 6, WsCyc = 7, WsCych = 8, WsIns = 9, WsInsh = 10;
  logic [10:0] csr_wsel_q;      // which CSR (one-hot, WsX)
  logic [1:0]  csr_op_q;        // funct3[1:0]: write, set, clear
  logic        csr_imm_q;       // funct3[2]: the source is the 5-bit rs1 field
  logic [4:0]  csr_uimm_q;
  logic [31:0] csr_a_q, csr_src, csr_wdata;
  logic [10:0] csr_we;          // write this CSR this cycle
  always_ff @(posedge clk_i) begin
    if (rst_i) csr_wb_q <= 1'b0;
    else       csr_wb_q <= retire && is_csr && csr_write;
  end
  always_ff @(posedge clk_i) begin
    if (fire) begin
      csr_wsel_q <= {s_insh, s_ins, s_cych, s_cyc, s_mtval, s_mcause, s_mepc, s_mscratch,
                     s_mtvec, s_mie, s_mstatus};
      csr_op_q   <= funct3[1:0];
      csr_imm_q  <= funct3[2];
      csr_uimm_q <= rs1;
      csr_a_q    <= a;        // a alone: the immediate is chosen in W
    end
  end
  always_comb begin
    csr_src = csr_imm_q ? {27'd0, csr_uimm_q} : csr_a_q;
    unique case (csr_op_q)
      2'b01:   csr_wdata = csr_src;
      2'b10:   csr_wdata = w_result_q | csr_src;
      default: csr_wdata = w_result_q & ~csr_src;
    endcase
    csr_we = csr_wsel_q & {11{csr_wb_q}};
  end

  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      mie_q         <= 1'b0;
      mpie_q        <= 1'b0;
      mtie_q        <= 1'b0;
      meie_q        <= 1'b0;
      mtvec_q       <= 30'd0;
      mepc_q        <= 30'd0;
      mcause_irq_q  <= 1'b0;
      mcause_code_q <= 5'd0;
      mtval_q       <= 32'd0;
      mscratch_q    <= 32'd0;
    end else begin
      // A trap and a CSR write never meet (X holds while the write is in W).
      if (trap || csr_we[WsMepc])   mepc_q  <= trap ? pc_q[31:2] : csr_wdata[31:2];
      if (trap || csr_we[WsMtval])  mtval_q <= trap ? trap_tval : csr_wdata;
      if (trap || csr_we[WsMcause]) begin
        mcause_irq_q  <= trap ? irq_take : csr_wdata[31];
        mcause_code_q <= trap ? trap_cause : csr_wdata[4:0];
      end
      if (trap) begin
        mpie_q <= mie_q;
        mie_q  <= 1'b0;
      end else if (retire && is_mret) begin
        mie_q  <= mpie_q;
        mpie_q <= 1'b1;
      end else if (csr_we[WsMstatus]) begin
        mie_q  <= csr_wdata[3];
        mpie_q <= csr_wdata[7];
      end
      if (csr_we[WsMie])      begin mtie_q <= csr_wdata[7]; meie_q <= csr_wdata[11]; end
      if (csr_we[WsMtvec])    mtvec_q    <= csr_wdata[31:2];
      if (csr_we[WsMscratch]) mscratch_q <= csr_wdata;
      // misa, mip and the ids: WARL, writes ignored
    end
  end

  // The counters: each half is the increment or, when an instruction writes
  // it, the written value (the write lands after that instruction's own
  // increment, so it is what the next instruction reads). The user copies
  // (0xC..) never get here: writing them is illegal.
  logic [63:0] mcycle_inc, minstret_inc;
  assign mcycle_inc   = mcycle_q + 64'd1;
  assign minstret_inc = minstret_q + 64'd1;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      mcycle_q   <= 64'd0;
      minstret_q <= 64'd0;
    end else begin
      mcycle_q[31:0]  <= csr_we[WsCyc]  ? csr_wdata : mcycle_inc[31:0];
      mcycle_q[63:32] <= csr_we[WsCych] ? csr_wdata : mcycle_inc[63:32];
      // No instruction retires while a write is in W.
      if (retire || csr_we[WsIns])  minstret_q[31:0]  <= csr_we[WsIns]  ? csr_wdata : minstret_inc[31:0];
      if (retire || csr_we[WsInsh]) minstret_q[63:32] <= csr_we[WsInsh] ? csr_wdata : minstret_inc[63:32];
    end
  end

`ifdef VERILATOR
  // ------------------------------------------------------------------ RVFI-like trace
  // One call per instruction leaving W (retired or trapped) and per interrupt
  // taken. Registers below exist only in simulation.
  import "DPI-C" function void ktpu_rvfi_retire(
    input int unsigned pc, input int unsigned insn, input int unsigned next_pc,
    input int unsigned trap, input int unsigned cause, input int unsigned rd,
    input int unsigned rd_wdata, input int unsigned mem_addr, input int unsigned mem_rmask,
    input int unsigned mem_wmask, input int unsigned mem_wdata, input int unsigned mem_rdata);

  logic [31:0] t_pc_q, t_insn_q, t_next_q, t_addr_q, t_wdata_q;
  logic [31:0] t_cause_q;
  logic [3:0]  t_rmask_q, t_wmask_q;
  logic        t_trap_q;
  always_ff @(posedge clk_i) begin
    if (fire) begin
      t_pc_q    <= pc_q;
      t_insn_q  <= insn;
      t_next_q  <= next_pc;
      t_trap_q  <= trap;
      t_cause_q <= {irq_take, 26'd0, trap_cause};
      t_addr_q  <= mem_addr;
      t_rmask_q <= (mem_op && !trap && !is_store) ? dbus_be_o : 4'd0;
      t_wmask_q <= (mem_op && !trap && is_store) ? dbus_be_o : 4'd0;
      t_wdata_q <= dbus_wdata_o;
    end
    if (!rst_i && w_valid_q && !w_wait)
      ktpu_rvfi_retire(t_pc_q, t_insn_q, t_next_q, 32'(t_trap_q), t_cause_q,
                       w_wr_q ? 32'(w_rd_q) : 32'd0, w_wr_q ? w_wdata : 32'd0,
                       t_addr_q, 32'(t_rmask_q), 32'(t_wmask_q), t_wdata_q,
                       w_load_q ? dbus_rdata_i : 32'd0);
  end
`endif
endmodule

`default_nettype wire
