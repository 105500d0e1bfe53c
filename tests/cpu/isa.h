/* Macros for the ISA test programs (riscv-tests style, our own text): each
 * check loads operands, runs one instruction, compares with the expected
 * value and jumps to fail with TESTNUM set. The program ends by writing
 * SIM_EXIT: status 0 on pass, the failing test number otherwise.
 * ktpu_defs_asm.h is ktpu_defs.h without C integer suffixes. */
#include "ktpu_defs_asm.h"

#define TESTNUM x28

#define TEST_BEGIN                                  \
    .section .text.init.enter, "ax";                \
    .globl _start;                                  \
_start:                                             \
    la    t0, unexpected_trap;                      \
    csrw  mtvec, t0;                                \
    li    TESTNUM, 0

#define TEST_END                                    \
pass:                                               \
    li    t0, KTPU_MMIO_BASE;                       \
    li    t1, KTPU_SIM_EXIT_DONE_MASK;              \
    sw    t1, KTPU_MMIO_SIM_EXIT_OFFSET(t0);        \
1:  j     1b;                                       \
unexpected_trap:                                    \
    li    t0, 1000;                                 \
    add   TESTNUM, TESTNUM, t0;                     \
fail:                                               \
    li    t0, KTPU_MMIO_BASE;                       \
    slli  t1, TESTNUM, 1;                           \
    ori   t1, t1, KTPU_SIM_EXIT_DONE_MASK;          \
    sw    t1, KTPU_MMIO_SIM_EXIT_OFFSET(t0);        \
2:  j     2b

/* rd = inst(rs1, rs2) */
#define TEST_RR(n, inst, exp, v1, v2)               \
    li TESTNUM, n; li x1, v1; li x2, v2;            \
    inst x14, x1, x2; li x7, exp; bne x14, x7, fail

/* rd = inst(rs1, imm) */
#define TEST_RI(n, inst, exp, v1, imm)              \
    li TESTNUM, n; li x1, v1;                       \
    inst x14, x1, imm; li x7, exp; bne x14, x7, fail

/* rd == rs1 and rd == rs2 (the read happens before the write) */
#define TEST_RR_SAME(n, inst, exp, v1, v2)          \
    li TESTNUM, n; li x1, v1; li x2, v2;            \
    inst x1, x1, x2; li x7, exp; bne x1, x7, fail;  \
    li x1, v1; li x2, v2;                           \
    inst x2, x1, x2; bne x2, x7, fail

/* result used by the very next instruction (forwarding from W) */
#define TEST_RR_FWD(n, inst, exp, v1, v2)           \
    li TESTNUM, n; li x1, v1; li x2, v2;            \
    inst x14, x1, x2; addi x15, x14, 0;             \
    li x7, exp; bne x15, x7, fail

#define TEST_BR_TAKEN(n, inst, v1, v2)              \
    li TESTNUM, n; li x1, v1; li x2, v2;            \
    inst x1, x2, 8f; j fail; 8:

#define TEST_BR_NOT(n, inst, v1, v2)                \
    li TESTNUM, n; li x1, v1; li x2, v2;            \
    inst x1, x2, fail

#define TEST_EQ(n, reg, exp)                        \
    li TESTNUM, n; li x7, exp; bne reg, x7, fail
