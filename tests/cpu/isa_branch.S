/* Branches (taken and not, signed and unsigned across the sign boundary),
 * JAL and JALR (link value, rd == rs1, bit 0 of the target cleared),
 * backward loops. */
#include "isa.h"
TEST_BEGIN
    TEST_BR_TAKEN(1, beq, 0, 0)
    TEST_BR_TAKEN(2, beq, -1, -1)
    TEST_BR_NOT(3, beq, 0, 1)
    TEST_BR_NOT(4, beq, 0x80000000, 0)
    TEST_BR_TAKEN(5, bne, 0, 1)
    TEST_BR_TAKEN(6, bne, 0x80000000, 0)
    TEST_BR_NOT(7, bne, -1, -1)
    TEST_BR_TAKEN(8, blt, -1, 0)
    TEST_BR_TAKEN(9, blt, 0x80000000, 0x7fffffff)
    TEST_BR_NOT(10, blt, 0x7fffffff, 0x80000000)
    TEST_BR_NOT(11, blt, 5, 5)
    TEST_BR_TAKEN(12, bge, 0, -1)
    TEST_BR_TAKEN(13, bge, 5, 5)
    TEST_BR_TAKEN(14, bge, 0x7fffffff, 0x80000000)
    TEST_BR_NOT(15, bge, 0x80000000, 0x7fffffff)
    TEST_BR_TAKEN(16, bltu, 0, -1)
    TEST_BR_TAKEN(17, bltu, 0x7fffffff, 0x80000000)
    TEST_BR_NOT(18, bltu, 0x80000000, 0x7fffffff)
    TEST_BR_NOT(19, bltu, 5, 5)
    TEST_BR_TAKEN(20, bgeu, -1, 0)
    TEST_BR_TAKEN(21, bgeu, 5, 5)
    TEST_BR_TAKEN(22, bgeu, 0x80000000, 0x7fffffff)
    TEST_BR_NOT(23, bgeu, 0x7fffffff, 0x80000000)
    /* a branch on a value produced by the previous instruction */
    li TESTNUM, 24
    li x1, 5
    addi x2, x1, -5
    bne x2, x0, fail
    addi x2, x2, 1
    beq x2, x0, fail
    /* backward branch loop: 10 iterations */
    li TESTNUM, 30
    li x1, 10
    li x2, 0
1:  addi x2, x2, 3
    addi x1, x1, -1
    bnez x1, 1b
    li x7, 30
    bne x2, x7, fail
    /* instructions after a taken branch never execute */
    li TESTNUM, 31
    li x5, 0
    beq x0, x0, 2f
    addi x5, x5, 1
    addi x5, x5, 2
2:  bnez x5, fail
    /* JAL: link is the next instruction, target reached */
    li TESTNUM, 40
    li x5, 0
3:  jal x1, 4f
    addi x5, x5, 1
4:  bnez x5, fail
    lui x7, %hi(3b)
    addi x7, x7, %lo(3b + 4)
    bne x1, x7, fail
    /* JAL backward and with rd = x0 */
    li TESTNUM, 41
    j 6f
5:  j 7f
6:  j 5b
7:
    /* JALR: link, offset, bit 0 of the target cleared */
    li TESTNUM, 50
    la x2, 8f
8:  jalr x1, 12(x2)
    j fail
    j fail
    lui x7, %hi(8b)
    addi x7, x7, %lo(8b + 4)
    bne x1, x7, fail
    li TESTNUM, 51
    la x2, 9f
    addi x2, x2, 1
    jalr x0, 0(x2)
    j fail
9:
    /* JALR with rd == rs1 uses the old value */
    li TESTNUM, 52
    la x3, 10f
11: jalr x3, 0(x3)
    j fail
10: lui x7, %hi(11b)
    addi x7, x7, %lo(11b + 4)
    bne x3, x7, fail
    /* JALR to a target computed by the previous instruction, negative offset */
    li TESTNUM, 53
    la x2, 12f + 16
    jalr x1, -16(x2)
    j fail
12:
    /* call and return */
    li TESTNUM, 54
    li a0, 0
    call sub1
    li x7, 7
    bne a0, x7, fail
    j 13f
sub1:
    addi a0, a0, 7
    ret
13:
    /* a misaligned branch target that is not taken does not trap */
    li TESTNUM, 60
    .word 0x00001363        /* bne x0, x0, .+6 */
TEST_END
