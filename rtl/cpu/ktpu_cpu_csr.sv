// ktpu_cpu_csr: ktpu_cpu's machine-mode CSRs (docs/cpu.md): mstatus (MIE,
// MPIE; MPP reads M), misa, mie (MTIE, MEIE), mtvec (direct), mscratch,
// mepc, mcause, mtval, mip, the counters mcycle/minstret with their user
// copies, and time/timeh from the platform timer.
//
// Read and written from the core's M stage, where the instruction commits:
// a read sees every older instruction's effect (minstret counts them
// exactly) and the next instruction sees the write. The read is
// combinational on addr_i (a register of M); write_i says the instruction
// writes and is not trapping. A trap (trap_i) and mret_i update
// mstatus/mepc/mcause/mtval themselves; a trapping instruction writes no
// CSR. Which addresses are legal, and which are read-only, the core
// decides in D (an illegal access traps before it gets here).
`default_nettype none

module ktpu_cpu_csr (
  input  wire logic        clk_i,
  input  wire logic        rst_i,
  // M's CSR instruction
  input  wire logic [11:0] addr_i,
  input  wire logic [1:0]  op_i,        // funct3[1:0]: 01 write, 10 set, 11 clear
  input  wire logic [31:0] src_i,       // rs1's value or the 5-bit immediate
  input  wire logic        write_i,     // it writes this cycle (done, not trapping)
  output logic [31:0]      rdata_o,
  // M's trap (exception or interrupt) and mret; an instruction retires
  input  wire logic        trap_i,
  input  wire logic        trap_irq_i,  // the trap is an interrupt
  input  wire logic [4:0]  trap_cause_i,
  input  wire logic [31:0] trap_tval_i,
  input  wire logic [29:0] trap_pc_i,   // the trapping instruction's pc[31:2]
  input  wire logic        mret_i,
  input  wire logic        retire_i,
  // interrupts (levels) and the platform timer
  input  wire logic        irq_timer_i,
  input  wire logic        irq_ext_i,
  input  wire logic [63:0] mtime_i,
  output logic             irq_pending_o,   // enabled and pending: M takes it
  output logic [4:0]       irq_cause_o,
  // where a trap and mret send the program
  output logic [29:0]      mtvec_o,
  output logic [29:0]      mepc_o
);
  localparam logic [4:0] CauseIrqTimer = 5'd7;
  localparam logic [4:0] CauseIrqExt   = 5'd11;

  logic        mie_q, mpie_q, mtie_q, meie_q;
  logic [29:0] mtvec_q, mepc_q;          // 4-byte aligned: low bits read 0
  logic        mcause_irq_q;
  logic [4:0]  mcause_code_q;
  logic [31:0] mtval_q, mscratch_q;
  logic [63:0] mcycle_q, minstret_q;

  assign irq_pending_o = mie_q && ((mtie_q && irq_timer_i) || (meie_q && irq_ext_i));
  assign irq_cause_o   = (meie_q && irq_ext_i) ? CauseIrqExt : CauseIrqTimer;
  assign mtvec_o       = mtvec_q;
  assign mepc_o        = mepc_q;

  // Read mux as one-hot selects ANDed and ORed (Yosys/ABC maps a case on
  // 12 address bits into several times the LUTs of this form).
  logic s_mstatus, s_misa, s_mie, s_mtvec, s_mscratch, s_mepc, s_mcause, s_mtval, s_mip;
  logic s_cyc, s_cych, s_ins, s_insh, s_time, s_timeh;
  always_comb begin
    s_mstatus  = addr_i == 12'h300;
    s_misa     = addr_i == 12'h301;
    s_mie      = addr_i == 12'h304;
    s_mtvec    = addr_i == 12'h305;
    s_mscratch = addr_i == 12'h340;
    s_mepc     = addr_i == 12'h341;
    s_mcause   = addr_i == 12'h342;
    s_mtval    = addr_i == 12'h343;
    s_mip      = addr_i == 12'h344;
    // machine counters and their read-only user copies (writing those traps)
    s_cyc      = addr_i == 12'hB00 || addr_i == 12'hC00;
    s_cych     = addr_i == 12'hB80 || addr_i == 12'hC80;
    s_ins      = addr_i == 12'hB02 || addr_i == 12'hC02;
    s_insh     = addr_i == 12'hB82 || addr_i == 12'hC82;
    s_time     = addr_i == 12'hC01;
    s_timeh    = addr_i == 12'hC81;
    // the ids (0xF11..0xF15) read 0
    rdata_o    = ({32{s_mstatus}}  & {19'd0, 2'b11, 3'd0, mpie_q, 3'd0, mie_q, 3'd0}) | // MPP = M
                 ({32{s_misa}}     & ktpu_pkg::CSR_MISA_VALUE) |                        // MXL=1, I, M
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

  localparam int WsMstatus = 0, WsMie = 1, WsMtvec = 2, WsMscratch = 3, WsMepc = 4,
                 WsMcause = 5, WsMtval = 6, WsCyc = 7, WsCych = 8, WsIns = 9, WsInsh = 10;
  // csrrw / csrrs / csrrc: the value written over old
  function automatic logic [31:0] csr_apply(input logic [1:0] op, input logic [31:0] old, input logic [31:0] src);
    csr_apply = op == 2'b01 ? src : op == 2'b10 ? old | src : old & ~src;
  endfunction
  logic [31:0] csr_wdata;
  logic [10:0] csr_we;          // write this CSR this cycle
  always_comb begin
    csr_wdata = csr_apply(op_i, rdata_o, src_i);
    csr_we = {s_insh, s_ins, s_cych, s_cyc, s_mtval, s_mcause, s_mepc, s_mscratch, s_mtvec, s_mie,
              s_mstatus} & {11{write_i}};
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
      if (trap_i || csr_we[WsMepc])   mepc_q  <= trap_i ? trap_pc_i : csr_wdata[31:2];
      if (trap_i || csr_we[WsMtval])  mtval_q <= trap_i ? trap_tval_i : csr_wdata;
      if (trap_i || csr_we[WsMcause]) begin
        mcause_irq_q  <= trap_i ? trap_irq_i : csr_wdata[31];
        mcause_code_q <= trap_i ? trap_cause_i : csr_wdata[4:0];
      end
      if (trap_i) begin
        mpie_q <= mie_q;
        mie_q  <= 1'b0;
      end else if (mret_i) begin
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
  // (0xC..) never get here: writing them is illegal. Two 32-bit increments,
  // the high one when the low half is all ones: the same count as one 64-bit
  // increment, with half its carry chain. That condition is kept in a
  // register (*_carry_q == &low half, always: set from the low half's next
  // value), so the high half's adder starts from a flip-flop, not from a
  // 32-input AND. A written low half's carry is formed from the counter
  // itself (what rdata_o reads when it is written), not through the read
  // multiplexer.
  logic cyc_carry_q, ins_carry_q;
  always_ff @(posedge clk_i) begin
    if (rst_i) begin
      mcycle_q    <= 64'd0;
      minstret_q  <= 64'd0;
      cyc_carry_q <= 1'b0;
      ins_carry_q <= 1'b0;
    end else begin
      mcycle_q[31:0]  <= csr_we[WsCyc]  ? csr_wdata : mcycle_q[31:0] + 32'd1;
      cyc_carry_q     <= csr_we[WsCyc]  ? &csr_apply(op_i, mcycle_q[31:0], src_i)
                                        : mcycle_q[31:0] == 32'hFFFF_FFFE;
      mcycle_q[63:32] <= csr_we[WsCych] ? csr_wdata : mcycle_q[63:32] + 32'(cyc_carry_q);
      if (retire_i || csr_we[WsIns]) begin
        minstret_q[31:0] <= csr_we[WsIns] ? csr_wdata : minstret_q[31:0] + 32'd1;
        ins_carry_q      <= csr_we[WsIns] ? &csr_apply(op_i, minstret_q[31:0], src_i)
                                          : minstret_q[31:0] == 32'hFFFF_FFFE;
      end
      if ((retire_i && ins_carry_q) || csr_we[WsInsh])
        minstret_q[63:32] <= csr_we[WsInsh] ? csr_wdata : minstret_q[63:32] + 32'd1;
    end
  end
endmodule

`default_nettype wire
