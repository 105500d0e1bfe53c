/* RV32I register-register and register-immediate arithmetic, LUI, AUIPC,
 * x0 as a destination, and back-to-back dependences (forwarding). */
#include "isa.h"
TEST_BEGIN
    /* add / addi */
    TEST_RR(1, add, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR(2, add, 0x00000002, 0x00000001, 0x00000001)
    TEST_RR(3, add, 0x0000000a, 0x00000003, 0x00000007)
    TEST_RR(4, add, 0xffff8000, 0x00000000, 0xffff8000)
    TEST_RR(5, add, 0x00000000, 0x80000000, 0x80000000)
    TEST_RR(6, add, 0x7fff8000, 0x80000000, 0xffff8000)
    TEST_RR(7, add, 0x80000000, 0x7fffffff, 0x00000001)
    TEST_RR(8, add, 0x00000000, 0xffffffff, 0x00000001)
    TEST_RI(9, addi, 0x000007ff, 0x00000000, 0x7ff)
    TEST_RI(10, addi, 0xfffff800, 0x00000000, -2048)
    TEST_RI(11, addi, 0x7ffff7ff, 0x7fffffff, -2048)
    TEST_RI(12, addi, 0x80000000, 0x7fffffff, 1)
    TEST_RI(13, addi, 0xfffffffe, 0xffffffff, -1)
    /* sub */
    TEST_RR(14, sub, 0x00000000, 0x00000000, 0x00000000)
    TEST_RR(15, sub, 0xffffffff, 0x00000000, 0x00000001)
    TEST_RR(16, sub, 0xfffffffc, 0x00000003, 0x00000007)
    TEST_RR(17, sub, 0x80000000, 0x00000000, 0x80000000)
    TEST_RR(18, sub, 0x7fffffff, 0x80000000, 0x00000001)
    /* logic */
    TEST_RR(20, and, 0x0f000f00, 0xff00ff00, 0x0f0f0f0f)
    TEST_RR(21, or,  0xff0fff0f, 0xff00ff00, 0x0f0f0f0f)
    TEST_RR(22, xor, 0xf00ff00f, 0xff00ff00, 0x0f0f0f0f)
    TEST_RI(23, andi, 0xff00ff00, 0xff00ff00, -1)
    TEST_RI(24, andi, 0x00000700, 0xff00ff00, 0x70f)
    TEST_RI(25, ori,  0xff00ff0f, 0xff00ff00, 0x00f)
    TEST_RI(26, ori,  0xfffffff0, 0x00ff00f0, -16)
    TEST_RI(27, xori, 0x00ff00ff, 0xff00ff00, -1)
    TEST_RI(28, xori, 0xff00f80f, 0xff00ff0f, 0x700)
    /* set-less-than, signed and unsigned, both sides of the sign boundary */
    TEST_RR(30, slt,  1, 0xffffffff, 0x00000000)
    TEST_RR(31, slt,  0, 0x00000000, 0xffffffff)
    TEST_RR(32, slt,  1, 0x80000000, 0x7fffffff)
    TEST_RR(33, slt,  0, 0x7fffffff, 0x80000000)
    TEST_RR(34, slt,  0, 0x00000007, 0x00000007)
    TEST_RR(35, slt,  1, 0x00000003, 0x00000007)
    TEST_RR(36, sltu, 0, 0x80000000, 0x7fffffff)
    TEST_RR(37, sltu, 1, 0x00000000, 0xffffffff)
    TEST_RR(38, sltu, 0, 0xffffffff, 0xffffffff)
    TEST_RR(39, sltu, 1, 0xfffffffe, 0xffffffff)
    TEST_RI(40, slti, 1, 0x80000000, 0)
    TEST_RI(41, slti, 0, 0x00000000, -1)
    TEST_RI(42, slti, 1, 0xfffff7ff, -2048)
    TEST_RI(43, sltiu, 1, 0x00000000, -1)
    TEST_RI(44, sltiu, 0, 0xffffffff, -1)
    TEST_RI(45, sltiu, 1, 0x00000000, 1)
    TEST_RI(46, sltiu, 0, 0x00000001, 1)
    /* shifts: register amount uses only its low five bits */
    TEST_RR(50, sll, 0x80000000, 0x00000001, 31)
    TEST_RR(51, sll, 0xfffffffe, 0xffffffff, 1)
    TEST_RR(52, sll, 0x48484000, 0x21212121, 14)
    TEST_RR(53, sll, 0x00000002, 0x00000001, 0xffffffe1)
    TEST_RR(54, sll, 0x21212121, 0x21212121, 0xffffffe0)
    TEST_RR(55, srl, 0x40000000, 0x80000000, 1)
    TEST_RR(56, srl, 0x00000001, 0x80000000, 31)
    TEST_RR(57, srl, 0x00008484, 0x21212121, 14)
    TEST_RR(58, srl, 0x00000001, 0xffffffff, 0xffffffff)
    TEST_RR(59, sra, 0xc0000000, 0x80000000, 1)
    TEST_RR(60, sra, 0xffffffff, 0x80000000, 31)
    TEST_RR(61, sra, 0x00000000, 0x7fffffff, 31)
    TEST_RR(62, sra, 0xfffe0606, 0x81818181, 14)
    TEST_RR(63, sra, 0x81818181, 0x81818181, 0xffffffe0)
    TEST_RI(64, slli, 0x80000000, 0x00000001, 31)
    TEST_RI(65, slli, 0x48484000, 0x21212121, 14)
    TEST_RI(66, srli, 0x00000001, 0x80000000, 31)
    TEST_RI(67, srli, 0x00008484, 0x21212121, 14)
    TEST_RI(68, srai, 0xfffe0606, 0x81818181, 14)
    TEST_RI(69, srai, 0x3fffffff, 0x7fffffff, 1)
    TEST_RI(70, srai, 0xffffffff, 0xffffffff, 0)
    /* rd equal to a source */
    TEST_RR_SAME(80, add, 0x00000018, 0x0000000d, 0x0000000b)
    TEST_RR_SAME(81, sub, 0x00000002, 0x0000000d, 0x0000000b)
    TEST_RR_SAME(82, sra, 0xfffffff8, 0xffffff00, 5)
    TEST_RR_SAME(83, sltu, 0x00000001, 0x00000001, 0xffffffff)
    /* forwarding: the result used by the next instruction */
    TEST_RR_FWD(90, add, 0x00000018, 0x0000000d, 0x0000000b)
    TEST_RR_FWD(91, xor, 0x0000ff00, 0x00ffff00, 0x00ff0000)
    TEST_RR_FWD(92, srl, 0x00000001, 0x80000000, 31)
    li TESTNUM, 93
    li x1, 1
    addi x1, x1, 1
    addi x1, x1, 1
    add  x1, x1, x1
    slli x1, x1, 2
    addi x2, x1, -24
    bne  x2, x0, fail
    /* x0 ignores writes, also from a forwarded result */
    li TESTNUM, 94
    addi x0, x0, 5
    add  x0, x0, x0
    bne  x0, zero, fail
    li   x1, 7
    add  x0, x1, x1
    add  x2, x0, x0
    bne  x2, zero, fail
    /* LUI and AUIPC */
    li TESTNUM, 100
    lui  x14, 0x80000
    li   x7, 0x80000000
    bne  x14, x7, fail
    lui  x14, 0xfffff
    srai x14, x14, 12
    li   x7, -1
    bne  x14, x7, fail
    lui  x14, 0
    bne  x14, zero, fail
    li TESTNUM, 101
1:  auipc x14, 0x1
    lui  x7, %hi(1b)
    addi x7, x7, %lo(1b)
    li   x8, 0x1000
    add  x7, x7, x8
    bne  x14, x7, fail
2:  auipc x14, 0xfffff
    lui  x7, %hi(2b)
    addi x7, x7, %lo(2b)
    sub  x7, x7, x8
    bne  x14, x7, fail
    /* nops and hints are plain no-ops */
    li TESTNUM, 102
    li x5, 3
    nop
    addi x0, x5, 1
    fence
    fence.i
    fence rw, rw
    li x6, 3
    bne x5, x6, fail
TEST_END
