/* Every CSR of SPEC §2: reset-independent values, WARL behaviour, the
 * read-only shadows, counters, and the Zicsr instruction forms (rs1 = x0
 * and uimm = 0 do not write). Illegal accesses are in isa_trap. */
#include "isa.h"
TEST_BEGIN
    /* identification */
    csrr x14, misa;      TEST_EQ(1, x14, KTPU_CSR_MISA_VALUE)
    li x1, -1
    csrw misa, x1
    csrr x14, misa;      TEST_EQ(2, x14, KTPU_CSR_MISA_VALUE)
    csrw misa, x0
    csrr x14, misa;      TEST_EQ(3, x14, KTPU_CSR_MISA_VALUE)
    li x14, 1
    csrr x14, mhartid;   TEST_EQ(4, x14, 0)
    li x14, 1
    csrr x14, mvendorid; TEST_EQ(5, x14, 0)
    li x14, 1
    csrr x14, marchid;   TEST_EQ(6, x14, 0)
    li x14, 1
    csrr x14, mimpid;    TEST_EQ(7, x14, 0)
    /* mstatus: MPP reads 3 always; only MIE and MPIE are writable */
    csrw mstatus, x0
    csrr x14, mstatus;   TEST_EQ(10, x14, 0x00001800)
    li x1, 0xffffff77   /* every bit but MIE (3) and MPIE (7) */
    csrw mstatus, x1
    csrr x14, mstatus;   TEST_EQ(11, x14, 0x00001800)
    li x1, 0x80
    csrs mstatus, x1
    csrr x14, mstatus;   TEST_EQ(12, x14, 0x00001880)
    csrc mstatus, x1
    csrr x14, mstatus;   TEST_EQ(13, x14, 0x00001800)
    /* mie: only MTIE and MEIE exist (mstatus.MIE is 0, nothing is taken) */
    li x1, -1
    csrw mie, x1
    csrr x14, mie;       TEST_EQ(14, x14, 0x00000880)
    csrw mie, x0
    csrr x14, mie;       TEST_EQ(15, x14, 0)
    /* mip: nothing pending; writes ignored without a trap */
    csrr x14, mip;       TEST_EQ(16, x14, 0)
    csrw mip, x1
    csrr x14, mip;       TEST_EQ(17, x14, 0)
    /* mtvec: direct mode, a 4-byte-aligned address */
    csrr s0, mtvec
    li x1, 0x00012347
    csrw mtvec, x1
    csrr x14, mtvec;     TEST_EQ(20, x14, 0x00012344)
    li x1, 0xfffffffc
    csrw mtvec, x1
    csrr x14, mtvec;     TEST_EQ(21, x14, 0xfffffffc)
    csrw mtvec, s0
    /* mepc: bits 1:0 read 0 */
    li x1, 0xffffffff
    csrw mepc, x1
    csrr x14, mepc;      TEST_EQ(22, x14, 0xfffffffc)
    csrw mepc, x0
    csrr x14, mepc;      TEST_EQ(23, x14, 0)
    /* mscratch, mtval: all 32 bits */
    li x1, 0xa5a5f00f
    csrw mscratch, x1
    csrr x14, mscratch;  TEST_EQ(24, x14, 0xa5a5f00f)
    li x1, 0x5a5a0ff1
    csrw mtval, x1
    csrr x14, mtval;     TEST_EQ(25, x14, 0x5a5a0ff1)
    /* mcause: interrupt bit and code */
    li x1, 0x8000000b
    csrw mcause, x1
    csrr x14, mcause;    TEST_EQ(26, x14, 0x8000000b)
    li x1, 2
    csrw mcause, x1
    csrr x14, mcause;    TEST_EQ(27, x14, 2)
    /* Zicsr forms on mscratch: the old value is returned in every form */
    li x1, 0x0000ff00
    csrw mscratch, x1
    li x2, 0x000000f0
    csrrs x14, mscratch, x2;  TEST_EQ(30, x14, 0x0000ff00)
    csrr x14, mscratch;       TEST_EQ(31, x14, 0x0000fff0)
    li x2, 0x00000f00
    csrrc x14, mscratch, x2;  TEST_EQ(32, x14, 0x0000fff0)
    csrr x14, mscratch;       TEST_EQ(33, x14, 0x0000f0f0)
    csrrw x14, mscratch, x0;  TEST_EQ(34, x14, 0x0000f0f0)
    csrr x14, mscratch;       TEST_EQ(35, x14, 0)
    csrrwi x14, mscratch, 0x1f; TEST_EQ(36, x14, 0)
    csrrsi x14, mscratch, 0x0;  TEST_EQ(37, x14, 0x1f)
    csrrsi x14, mscratch, 0x10; TEST_EQ(38, x14, 0x1f)
    csrrci x14, mscratch, 0x3;  TEST_EQ(39, x14, 0x1f)
    csrr x14, mscratch;         TEST_EQ(40, x14, 0x1c)
    csrrci x14, mscratch, 0;    TEST_EQ(41, x14, 0x1c)
    csrr x14, mscratch;         TEST_EQ(42, x14, 0x1c)
    /* csrrs/csrrc with rs1 = x0 read without writing, so the read-only
     * shadows can be read that way without a trap */
    csrrs x14, cycle, x0
    csrrc x15, instret, x0
    csrrsi x16, time, 0
    csrrci x17, cycleh, 0
    /* the destination written back-to-back with a CSR result */
    li x1, 77
    csrw mscratch, x1
    csrr x14, mscratch
    addi x15, x14, 1;     TEST_EQ(43, x15, 78)
    /* minstret counts retired instructions, and a written value is what
     * the next instruction reads */
    csrr x1, minstret
    csrr x2, minstret
    sub x3, x2, x1;       TEST_EQ(50, x3, 1)
    csrr x1, instret
    nop
    nop
    csrr x2, instret
    sub x3, x2, x1;       TEST_EQ(51, x3, 3)
    li x1, 1000
    csrw minstret, x1
    csrr x14, minstret;   TEST_EQ(52, x14, 1000)
    csrr x14, instret;    TEST_EQ(53, x14, 1004)  /* csrr, li, li, bne retired since */
    li x1, 5
    csrw minstreth, x1
    csrr x14, minstreth;  TEST_EQ(54, x14, 5)
    csrr x14, instreth;   TEST_EQ(55, x14, 5)
    csrw minstreth, x0
    /* carry from minstret into minstreth */
    li x1, -2
    csrw minstret, x1
    nop
    nop
    csrr x14, minstreth;  TEST_EQ(56, x14, 1)
    csrw minstreth, x0
    /* a written all-ones low word carries at the next count (the core
     * keeps "low word all ones" in a register, set from what is written) */
    li x1, -1
    csrw minstret, x1
    nop
    csrr x14, minstreth;  TEST_EQ(57, x14, 1)
    csrw minstreth, x0
    /* mcycle runs every cycle and can be written */
    csrr x1, mcycle
    csrr x2, mcycle
    sub x3, x2, x1;       TEST_EQ(60, x3, 1)
    csrw mcycle, x0
    csrr x14, mcycle;     TEST_EQ(61, x14, 0)  /* the written value, as for minstret */
    li x1, 9
    csrw mcycleh, x1
    csrr x14, mcycleh;    TEST_EQ(62, x14, 9)
    csrr x14, cycleh;     TEST_EQ(63, x14, 9)
    li x1, -3
    csrw mcycle, x1
    csrw mcycleh, x0
    csrr x14, mcycleh;    TEST_EQ(64, x14, 0)   /* low word 0xfffffffe here */
    csrr x14, mcycleh;    TEST_EQ(65, x14, 1)   /* four cycles later it carried */
    csrw mcycleh, x0
    li x1, -1
    csrw mcycle, x1
    csrr x14, mcycleh;    TEST_EQ(67, x14, 0)   /* all ones written, read before they count */
    csrr x14, mcycleh;    TEST_EQ(68, x14, 1)   /* the next cycle's count carried */
    csrr x1, cycle
    csrr x2, mcycle
    sub x3, x2, x1;       TEST_EQ(66, x3, 1)
    /* time shadows the platform timer (MTIME), one cycle later per read */
    li s1, KTPU_MMIO_BASE
    csrr x1, time
    lw x2, KTPU_MMIO_MTIME_LO_OFFSET(s1)
    sub x3, x2, x1;       TEST_EQ(70, x3, 1)
    sw x0, KTPU_MMIO_MTIME_HI_OFFSET(s1)
    li x1, 77
    sw x1, KTPU_MMIO_MTIME_HI_OFFSET(s1)
    csrr x14, timeh;      TEST_EQ(71, x14, 77)
    sw x0, KTPU_MMIO_MTIME_HI_OFFSET(s1)
    csrr x14, timeh;      TEST_EQ(72, x14, 0)
    /* the low half's wrap carries into the high half: written all ones, and
       counted up to all ones from one less (a register says when, ahead) */
    li x1, -1
    sw x1, KTPU_MMIO_MTIME_LO_OFFSET(s1)
    nop; nop
    lw x14, KTPU_MMIO_MTIME_HI_OFFSET(s1);   TEST_EQ(73, x14, 1)
    lw x14, KTPU_MMIO_MTIME_LO_OFFSET(s1)
    sltiu x15, x14, 16;   TEST_EQ(74, x15, 1)
    li x1, -2
    sw x1, KTPU_MMIO_MTIME_LO_OFFSET(s1)
    nop; nop; nop
    lw x14, KTPU_MMIO_MTIME_HI_OFFSET(s1);   TEST_EQ(75, x14, 2)
    li x1, -64
    sw x1, KTPU_MMIO_MTIME_LO_OFFSET(s1)
    lw x14, KTPU_MMIO_MTIME_HI_OFFSET(s1);   TEST_EQ(76, x14, 2)   /* no early carry */
    sw x0, KTPU_MMIO_MTIME_HI_OFFSET(s1)
TEST_END
