/* Loads and stores: every width, sign and zero extension, offsets, stores
 * of each width into words, load-use back to back, local RAM and DRAM
 * (including a segment the ELF loader placed in DRAM). */
#include "isa.h"
TEST_BEGIN
    la s0, tdat
    /* loads from preloaded data */
    li TESTNUM, 1
    lb x14, 0(s0);  TEST_EQ(1, x14, 0xffffffff)
    lb x14, 1(s0);  TEST_EQ(2, x14, 0x00000000)
    lb x14, 2(s0);  TEST_EQ(3, x14, 0xfffffff0)
    lb x14, 3(s0);  TEST_EQ(4, x14, 0x0000000f)
    lbu x14, 0(s0); TEST_EQ(5, x14, 0x000000ff)
    lbu x14, 2(s0); TEST_EQ(6, x14, 0x000000f0)
    lh x14, 0(s0);  TEST_EQ(7, x14, 0x000000ff)
    lh x14, 2(s0);  TEST_EQ(8, x14, 0x00000ff0)
    lh x14, 4(s0);  TEST_EQ(9, x14, 0xfffff00f)
    lhu x14, 4(s0); TEST_EQ(10, x14, 0x0000f00f)
    lhu x14, 6(s0); TEST_EQ(11, x14, 0x0000ff00)
    lh x14, 6(s0);  TEST_EQ(12, x14, 0xffffff00)
    lw x14, 0(s0);  TEST_EQ(13, x14, 0x0ff000ff)
    lw x14, 4(s0);  TEST_EQ(14, x14, 0xff00f00f)
    lw x14, 8(s0);  TEST_EQ(15, x14, 0x80000001)
    /* negative offsets */
    addi s1, s0, 8
    lw x14, -8(s1); TEST_EQ(16, x14, 0x0ff000ff)
    lb x14, -5(s1); TEST_EQ(17, x14, 0x0000000f)
    lhu x14, -2(s1); TEST_EQ(18, x14, 0x0000ff00)
    /* load-use: the next instruction consumes the loaded value */
    li TESTNUM, 20
    lw x14, 8(s0)
    addi x15, x14, 1
    TEST_EQ(20, x15, 0x80000002)
    lb x14, 0(s0)
    add x15, x14, x14
    TEST_EQ(21, x15, 0xfffffffe)
    lw x14, 8(s0)
    beq x14, x0, fail
    lw x14, 8(s0)
    sw x14, 12(s0)
    lw x15, 12(s0)
    TEST_EQ(22, x15, 0x80000001)
    /* loaded address used as the next base */
    la x1, ptr
    lw x2, 0(x1)
    lw x3, 0(x2)
    TEST_EQ(23, x3, 0x0ff000ff)
    /* stores of each width into a word */
    la s1, scratch
    li x1, 0x11223344
    sw x1, 0(s1)
    li x2, 0xaa
    sb x2, 1(s1)
    lw x14, 0(s1);  TEST_EQ(30, x14, 0x1122aa44)
    li x2, 0xbbcc
    sh x2, 2(s1)
    lw x14, 0(s1);  TEST_EQ(31, x14, 0xbbccaa44)
    li x2, 0xffffffdd
    sb x2, 0(s1)
    sb x2, 3(s1)
    lw x14, 0(s1);  TEST_EQ(32, x14, 0xddccaadd)
    li x2, 0x12345678
    sh x2, 0(s1)
    lw x14, 0(s1);  TEST_EQ(33, x14, 0xddcc5678)
    lbu x14, 3(s1); TEST_EQ(34, x14, 0x000000dd)
    lhu x14, 2(s1); TEST_EQ(35, x14, 0x0000ddcc)
    /* store then load of the same word, back to back */
    li x1, 0x5a5a0001
    sw x1, 4(s1)
    lw x14, 4(s1)
    TEST_EQ(36, x14, 0x5a5a0001)
    /* loads into x0 are discarded */
    li TESTNUM, 37
    lw x0, 0(s0)
    bne x0, zero, fail
    /* DRAM: a segment the loader placed, then stores and loads */
    la s2, ddat
    li x7, KTPU_DRAM_BASE
    li TESTNUM, 40
    bne s2, x7, fail
    lw x14, 0(s2);  TEST_EQ(41, x14, 0xcafef00d)
    lw x14, 36(s2); TEST_EQ(42, x14, 0x01234567)
    lb x14, 3(s2);  TEST_EQ(43, x14, 0xffffffca)
    lhu x14, 38(s2); TEST_EQ(44, x14, 0x00000123)
    li x1, 0x89abcdef
    sw x1, 64(s2)
    sb x1, 69(s2)
    sh x1, 70(s2)
    lw x14, 64(s2); TEST_EQ(45, x14, 0x89abcdef)
    lw x14, 68(s2); li x7, 0xcdef; srli x14, x14, 16; TEST_EQ(46, x14, 0xcdef)
    lbu x14, 69(s2); TEST_EQ(47, x14, 0x000000ef)
    /* a store followed at once by a load of the same DRAM word */
    li x1, 0x13579bdf
    sw x1, 96(s2)
    lw x14, 96(s2)
    TEST_EQ(48, x14, 0x13579bdf)
    /* every word of one 32-byte beat, written then read */
    li TESTNUM, 49
    li x1, 0
    addi x3, s2, 128
1:  slli x4, x1, 2
    add x5, x3, x4
    addi x6, x1, 0x100
    sw x6, 0(x5)
    addi x1, x1, 1
    li x7, 8
    bne x1, x7, 1b
    li x1, 0
2:  slli x4, x1, 2
    add x5, x3, x4
    lw x6, 0(x5)
    addi x7, x1, 0x100
    bne x6, x7, fail
    addi x1, x1, 1
    li x7, 8
    bne x1, x7, 2b
    /* the top word of the DRAM window */
    li TESTNUM, 50
    li x2, KTPU_DRAM_BASE + KTPU_DRAM_SIM_BYTES - 4
    li x1, 0x600df00d
    sw x1, 0(x2)
    lw x14, 0(x2)
    TEST_EQ(50, x14, 0x600df00d)
TEST_END

    .data
    .balign 4
tdat:   .byte 0xff, 0x00, 0xf0, 0x0f
        .half 0xf00f, 0xff00
        .word 0x80000001
        .word 0
ptr:    .word tdat
scratch: .word 0, 0, 0, 0

    .section .dram, "aw"
    .balign 4
ddat:   .word 0xcafef00d
        .fill 8, 4, 0
        .word 0x01234567
        .fill 64, 4, 0
