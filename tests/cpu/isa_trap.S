/* Every exception cause of SPEC §2 with its mcause, mepc and mtval; a
 * trapping load leaves rd alone, a trapping store leaves memory alone, a
 * trapping jump leaves its link register alone; mret and mstatus.MIE/MPIE;
 * fence.i makes stored instructions visible to fetch. The handler records
 * mcause/mepc/mtval/mstatus in s2/s3/s4/s6 and resumes at s5. */
#include "isa.h"

/* Expect the next instruction(s) to trap; resume at the CHECK's label. */
#define TRAP_AT(n) li TESTNUM, n; la s5, 9f; li s2, -1
#define CHECK_N(cause, epc, tval)                    \
    j fail;                                          \
9:  li x7, cause; bne s2, x7, fail;                  \
    la x7, epc; bne s3, x7, fail;                    \
    li x7, tval; bne s4, x7, fail
#define CHECK_L(cause, epc, tval)                    \
    j fail;                                          \
9:  li x7, cause; bne s2, x7, fail;                  \
    la x7, epc; bne s3, x7, fail;                    \
    la x7, tval; bne s4, x7, fail
/* epc and tval both numbers (a fetch outside memory) */
#define CHECK_NN(cause, epc, tval)                   \
    j fail;                                          \
9:  li x7, cause; bne s2, x7, fail;                  \
    li x7, epc; bne s3, x7, fail;                    \
    li x7, tval; bne s4, x7, fail

TEST_BEGIN
    la t0, handler
    csrw mtvec, t0
    la s0, scratch
    li s1, KTPU_MMIO_BASE

    /* ---- illegal instructions (cause 2, mtval = the instruction) ---- */
    TRAP_AT(1)
1:  .word 0x00000000                     /* all-zero word */
    CHECK_N(2, 1b, 0x00000000)
    TRAP_AT(2)
1:  .word 0xffffffff
    CHECK_N(2, 1b, 0xffffffff)
    TRAP_AT(3)
1:  .word 0x02009093                     /* slli x1, x1, 32: imm[5] set */
    CHECK_N(2, 1b, 0x02009093)
    TRAP_AT(4)
1:  .word 0x0200d093                     /* srli x1, x1, 32 */
    CHECK_N(2, 1b, 0x0200d093)
    TRAP_AT(5)
1:  .word 0x4200d093                     /* srai x1, x1, 32 */
    CHECK_N(2, 1b, 0x4200d093)
    TRAP_AT(6)
1:  .word 0x40201033                     /* sll with funct7 0100000 */
    CHECK_N(2, 1b, 0x40201033)
    TRAP_AT(7)
1:  .word 0x00003003                     /* ld (RV64 only) */
    CHECK_N(2, 1b, 0x00003003)
    TRAP_AT(8)
1:  .word 0x00001067                     /* jalr with funct3 1 */
    CHECK_N(2, 1b, 0x00001067)
    TRAP_AT(9)
1:  .word 0x00000001                     /* a compressed encoding */
    CHECK_N(2, 1b, 0x00000001)
    TRAP_AT(10)
1:  .word 0x10200073                     /* sret: no S-mode */
    CHECK_N(2, 1b, 0x10200073)
    TRAP_AT(11)
1:  .word 0x00004073                     /* SYSTEM funct3 4 */
    CHECK_N(2, 1b, 0x00004073)
    TRAP_AT(12)
1:  .word 0x06007033                     /* funct7 0000011: not M */
    CHECK_N(2, 1b, 0x06007033)
    TRAP_AT(13)
1:  .word 0x00002023 | (3 << 12)         /* store funct3 3 (sd) */
    CHECK_N(2, 1b, 0x00003023)
    TRAP_AT(14)
1:  .word 0x00000063 | (2 << 12)         /* branch funct3 2 */
    CHECK_N(2, 1b, 0x00002063)
    TRAP_AT(15)
1:  .word 0x00006003                     /* load funct3 6 (lwu) */
    CHECK_N(2, 1b, 0x00006003)
    /* CSRs: writes to read-only ones and unknown addresses */
    TRAP_AT(20)
1:  .word 0xc0009073                     /* csrw cycle, x1 */
    CHECK_N(2, 1b, 0xc0009073)
    TRAP_AT(21)
1:  .word 0xc000a773                     /* csrrs x14, cycle, x1 (x1 != 0 writes) */
    CHECK_N(2, 1b, 0xc000a773)
    TRAP_AT(22)
1:  .word 0xf1405073                     /* csrrwi x0, mhartid, 0: csrrw always writes */
    CHECK_N(2, 1b, 0xf1405073)
    TRAP_AT(23)
1:  .word 0x7c002773                     /* csrr x14, 0x7c0: no such CSR */
    CHECK_N(2, 1b, 0x7c002773)
    TRAP_AT(24)
1:  .word 0x18002773                     /* csrr x14, satp: no S-mode */
    CHECK_N(2, 1b, 0x18002773)
    TRAP_AT(25)
1:  .word 0xc010e073                     /* csrrsi x0, time, 1 */
    CHECK_N(2, 1b, 0xc010e073)
    /* a trapping instruction right after a load: the load still retires */
    li TESTNUM, 26
    la s5, 9f
    li x14, 0
    lw x14, 0(s0)
1:  .word 0
    j fail
9:  la x7, 1b
    bne s3, x7, fail
    li x7, 0x11111111
    bne x14, x7, fail

    /* ---- ecall and ebreak ---- */
    TRAP_AT(30)
1:  ecall
    CHECK_N(11, 1b, 0)
    TRAP_AT(31)
1:  ebreak
    CHECK_L(3, 1b, 1b)

    /* ---- misaligned jump targets trap on the jump (cause 0) ---- */
    TRAP_AT(40)
1:  .word 0x0060006f                     /* jal x0, .+6 */
    CHECK_L(0, 1b, 1b + 6)
    TRAP_AT(41)
    li x1, 0x5555
1:  .word 0x006000ef                     /* jal x1, .+6: x1 keeps its value */
    CHECK_L(0, 1b, 1b + 6)
    li x7, 0x5555
    bne x1, x7, fail
    TRAP_AT(42)
1:  .word 0x00000363                     /* beq x0, x0, .+6 (taken) */
    CHECK_L(0, 1b, 1b + 6)
    TRAP_AT(43)
    la t0, 2f
    addi t0, t0, 2
    li x1, 0x6666
1:  jalr x1, 0(t0)                        /* target 2 mod 4 */
    CHECK_L(0, 1b, 2f + 2)
    li x7, 0x6666
    bne x1, x7, fail
2:  nop
    TRAP_AT(44)
    la t0, 2f
1:  jalr x0, 3(t0)                        /* bit 0 cleared, bit 1 set */
    CHECK_L(0, 1b, 2f + 2)
2:  nop

    /* ---- instruction access fault: fetch outside local RAM (cause 1) ---- */
    TRAP_AT(50)
    li t0, KTPU_RAM_BYTES
    jr t0
    CHECK_NN(1, KTPU_RAM_BYTES, KTPU_RAM_BYTES)
    TRAP_AT(51)
    li t0, KTPU_DRAM_BASE
    jalr x1, 0(t0)
    CHECK_NN(1, KTPU_DRAM_BASE, KTPU_DRAM_BASE)

    /* ---- load address misaligned (cause 4): rd not written ---- */
    TRAP_AT(60)
    li x14, 0x1234
1:  lw x14, 1(s0)
    CHECK_L(4, 1b, scratch + 1)
    li x7, 0x1234
    bne x14, x7, fail
    TRAP_AT(61)
1:  lw x14, 2(s0)
    CHECK_L(4, 1b, scratch + 2)
    TRAP_AT(62)
1:  lh x14, 3(s0)
    CHECK_L(4, 1b, scratch + 3)
    TRAP_AT(63)
1:  lhu x14, 1(s0)
    CHECK_L(4, 1b, scratch + 1)
    li x7, 0x1234
    bne x14, x7, fail
    /* halfword at offset 2 and bytes anywhere are aligned */
    li TESTNUM, 64
    lh x14, 2(s0)
    lb x14, 3(s0)

    /* ---- load access fault (cause 5): rd not written ---- */
    TRAP_AT(70)
    li x14, 0x1111
    li t0, 0x20000000
1:  lw x14, 0(t0)
    CHECK_N(5, 1b, 0x20000000)
    li x7, 0x1111
    bne x14, x7, fail
    TRAP_AT(71)
    li t0, KTPU_RAM_BYTES
1:  lb x14, 0(t0)
    CHECK_N(5, 1b, KTPU_RAM_BYTES)
    TRAP_AT(72)
    li t0, KTPU_MMIO_BASE + 0xffc
1:  lw x14, 0(t0)                         /* MMIO offset with no register */
    CHECK_N(5, 1b, KTPU_MMIO_BASE + 0xffc)
    TRAP_AT(73)
1:  lw x14, KTPU_MMIO_SIM_EXIT_OFFSET(s1) /* write-only register */
    CHECK_N(5, 1b, KTPU_MMIO_BASE + KTPU_MMIO_SIM_EXIT_OFFSET)
    TRAP_AT(75)
1:  lw x14, KTPU_MMIO_MESH_TX0_OFFSET + 8(s1) /* the flit being composed is write-only */
    CHECK_N(5, 1b, KTPU_MMIO_BASE + KTPU_MMIO_MESH_TX0_OFFSET + 8)
    TRAP_AT(74)
    li t0, KTPU_DRAM_BASE + KTPU_DRAM_SIM_BYTES
1:  lw x14, 0(t0)                         /* just past the DRAM window */
    CHECK_N(5, 1b, KTPU_DRAM_BASE + KTPU_DRAM_SIM_BYTES)

    /* ---- store address misaligned (cause 6): memory unchanged ---- */
    TRAP_AT(80)
    li x1, -1
1:  sw x1, 2(s0)
    CHECK_L(6, 1b, scratch + 2)
    TRAP_AT(81)
1:  sh x1, 1(s0)
    CHECK_L(6, 1b, scratch + 1)
    TRAP_AT(82)
1:  sw x1, 3(s0)
    CHECK_L(6, 1b, scratch + 3)
    lw x14, 0(s0)
    TEST_EQ(83, x14, 0x11111111)

    /* ---- store access fault (cause 7) ---- */
    TRAP_AT(90)
    li t0, 0x20000000
1:  sw x1, 0(t0)
    CHECK_N(7, 1b, 0x20000000)
    TRAP_AT(91)
1:  sw x1, KTPU_MMIO_PERF_MESH_TX_OFFSET(s1) /* read-only register */
    CHECK_N(7, 1b, KTPU_MMIO_BASE + KTPU_MMIO_PERF_MESH_TX_OFFSET)
    TRAP_AT(92)
    li t0, KTPU_RAM_BYTES
1:  sb x1, 0(t0)
    CHECK_N(7, 1b, KTPU_RAM_BYTES)
    TRAP_AT(93)
1:  sh x1, KTPU_MMIO_MTIMECMP_LO_OFFSET(s1) /* a register takes only sw */
    CHECK_N(7, 1b, KTPU_MMIO_BASE + KTPU_MMIO_MTIMECMP_LO_OFFSET)
    TRAP_AT(94)
1:  sb x1, KTPU_MMIO_MBOX_ARG0_OFFSET(s1)
    CHECK_N(7, 1b, KTPU_MMIO_BASE + KTPU_MMIO_MBOX_ARG0_OFFSET)

    /* ---- mret and mstatus.MIE/MPIE around a trap ---- */
    TRAP_AT(100)
    csrsi mstatus, 8                      /* MIE = 1 (mie is 0: nothing taken) */
1:  ecall
    CHECK_N(11, 1b, 0)
    li x7, 0x00001880                     /* in the handler: MIE 0, MPIE 1 */
    bne s6, x7, fail
    csrr x14, mstatus
    TEST_EQ(101, x14, 0x00001888)         /* mret: MIE = MPIE, MPIE = 1 */
    csrci mstatus, 8
    /* mret to an mepc set by software */
    li TESTNUM, 102
    la t0, 1f
    csrw mepc, t0
    mret
    j fail
1:  csrr x14, mstatus
    TEST_EQ(103, x14, 0x00001888)         /* MPIE was 1 */
    csrci mstatus, 8

    /* a trapping instruction does not retire: minstret counts the csrr and
     * the six handler instructions, not the ecall */
    li TESTNUM, 104
    la s5, 1f
    csrr a0, minstret
    ecall
1:  csrr a1, minstret
    sub a1, a1, a0
    TEST_EQ(104, a1, 7)

    /* ---- fence.i: a stored instruction is what the next fetch sees ---- */
    li TESTNUM, 110
    la t0, patch
    li t1, 0x02a00293                     /* addi x5, x0, 42 */
    sw t1, 0(t0)
    fence.i
    jal x1, patch
    li x7, 42
    bne x5, x7, fail
    /* wfi is a no-op */
    wfi
TEST_END

    .balign 4
handler:
    csrr s2, mcause
    csrr s3, mepc
    csrr s4, mtval
    csrr s6, mstatus
    csrw mepc, s5
    mret

    .balign 4
patch:
    addi x5, x0, 1
    jr x1

    .data
    .balign 4
scratch: .word 0x11111111, 0x22222222
