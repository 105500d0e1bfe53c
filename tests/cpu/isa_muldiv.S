/* RV32M: every instruction, signs and the special cases (divide by zero,
 * -2^31 / -1), back-to-back M operations and dependences through them. */
#include "isa.h"
TEST_BEGIN
    TEST_RR(1, mul, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR(2, mul, 0x00000015, 0x00000003, 0x00000007)
    TEST_RR(3, mul, 0x40000000, 0xffff8000, 0xffff8000)
    TEST_RR(4, mul, 0x80000000, 0x80000000, 0xffffffff)
    TEST_RR(5, mul, 0x00000001, 0xffffffff, 0xffffffff)
    TEST_RR(6, mul, 0xfffffff9, 0x00000007, 0xffffffff)
    TEST_RR(10, mulh, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR(11, mulh, 0x00000000, 0xffffffff, 0xffffffff)
    TEST_RR(12, mulh, 0x40000000, 0x80000000, 0x80000000)
    TEST_RR(13, mulh, 0xc0000000, 0x80000000, 0x7fffffff)
    TEST_RR(14, mulh, 0xffffffff, 0xffffffff, 0x00000001)
    TEST_RR(15, mulh, 0x00000000, 0x00000007, 0x00000003)
    TEST_RR(20, mulhu, 0xfffffffe, 0xffffffff, 0xffffffff)
    TEST_RR(21, mulhu, 0x00000001, 0x80000000, 0x00000002)
    TEST_RR(22, mulhu, 0x00000000, 0x00000003, 0x00000007)
    TEST_RR(23, mulhu, 0xffff0000, 0xffff8000, 0xffff8000)
    TEST_RR(30, mulhsu, 0xffffffff, 0xffffffff, 0xffffffff)
    TEST_RR(31, mulhsu, 0x80000000, 0x80000000, 0xffffffff)
    TEST_RR(32, mulhsu, 0x00000000, 0x00000001, 0xffffffff)
    TEST_RR(33, mulhsu, 0x7ffffffe, 0x7fffffff, 0xffffffff)
    TEST_RR(40, div, 3, 20, 6)
    TEST_RR(41, div, -3, -20, 6)
    TEST_RR(42, div, -3, 20, -6)
    TEST_RR(43, div, 3, -20, -6)
    TEST_RR(44, div, -1, 20, 0)
    TEST_RR(45, div, -1, -20, 0)
    TEST_RR(46, div, 0x80000000, 0x80000000, -1)
    TEST_RR(47, div, 0x80000000, 0x80000000, 1)
    TEST_RR(48, div, 0, 0, 5)
    TEST_RR(49, div, 0, 5, 6)
    TEST_RR(50, divu, 3, 20, 6)
    TEST_RR(51, divu, 0x2aaaaaa7, -20, 6)
    TEST_RR(52, divu, 0xffffffff, 20, 0)
    TEST_RR(53, divu, 0, 0x80000000, 0xffffffff)
    TEST_RR(54, divu, 0xffffffff, 0xffffffff, 1)
    TEST_RR(60, rem, 2, 20, 6)
    TEST_RR(61, rem, -2, -20, 6)
    TEST_RR(62, rem, 2, 20, -6)
    TEST_RR(63, rem, -2, -20, -6)
    TEST_RR(64, rem, 20, 20, 0)
    TEST_RR(65, rem, -20, -20, 0)
    TEST_RR(66, rem, 0, 0x80000000, -1)
    TEST_RR(67, rem, 0, 0x80000000, 1)
    TEST_RR(70, remu, 2, 20, 6)
    TEST_RR(71, remu, 2, -20, 6)
    TEST_RR(72, remu, 20, 20, 0)
    TEST_RR(73, remu, 0x7fffffff, 0xffffffff, 0x80000000)
    TEST_RR(74, remu, 0, 0xffffffff, 0xffffffff)
    /* rd == a source */
    TEST_RR_SAME(80, mul, 0x0000008f, 0x0000000d, 0x0000000b)
    TEST_RR_SAME(81, div, 0x00000001, 0x0000000d, 0x0000000b)
    TEST_RR_SAME(82, remu, 0x00000002, 0x0000000d, 0x0000000b)
    /* results forwarded to the next instruction, M after M */
    TEST_RR_FWD(90, mulhu, 0xfffffffe, 0xffffffff, 0xffffffff)
    TEST_RR_FWD(91, rem, -2, -20, 6)
    li TESTNUM, 92
    li x1, 7
    li x2, 6
    mul x3, x1, x2
    mul x3, x3, x2
    div x3, x3, x1
    divu x3, x3, x2
    rem x4, x3, x1
    addi x4, x4, 0
    li x7, 6
    bne x3, x7, fail
    bne x4, x7, fail
    /* operand straight from a load */
    li TESTNUM, 93
    la x5, mdat
    lw x1, 0(x5)
    mul x3, x1, x1
    lw x2, 4(x5)
    div x4, x3, x2
    li x7, 0x00000190
    bne x3, x7, fail
    li x7, 0x00000050
    bne x4, x7, fail
TEST_END

    .data
    .balign 4
mdat: .word 20, 5
