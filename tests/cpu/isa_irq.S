/* Interrupts: the timer (mtime >= mtimecmp) and the external interrupt of
 * the mesh port (a flit sent through the loopback), mip, masking by mie and
 * mstatus.MIE, priority, an interrupt arriving during a divide, and the
 * mailbox. The handler counts interrupts in s8 and keeps the last mcause,
 * mepc, mtval in s2, s3, s4; it silences the source and returns to mepc. */
#include "isa.h"

#define MMIO(r) KTPU_MMIO_##r##_OFFSET

TEST_BEGIN
    la t0, handler
    csrw mtvec, t0
    li s1, KTPU_MMIO_BASE
    li s8, 0
    li s9, 0
    li s7, 0

    /* ---- mip.MTIP follows the comparator, with interrupts disabled ---- */
    li TESTNUM, 1
    sw x0, MMIO(MTIMECMP_HI)(s1)
    sw x0, MMIO(MTIMECMP_LO)(s1)     /* mtimecmp = 0: pending */
    nop
    csrr x14, mip
    TEST_EQ(1, x14, 0x80)
    li t0, -1
    sw t0, MMIO(MTIMECMP_HI)(s1)
    nop
    csrr x14, mip
    TEST_EQ(2, x14, 0)
    /* pending but masked by mie (MIE set): nothing is taken */
    sw x0, MMIO(MTIMECMP_HI)(s1)
    csrsi mstatus, 8
    li t1, 20
1:  addi t1, t1, -1
    bnez t1, 1b
    csrci mstatus, 8
    TEST_EQ(3, s8, 0)
    /* enabled in mie but mstatus.MIE clear: nothing is taken */
    li t0, 0x80
    csrs mie, t0
    li t1, 20
1:  addi t1, t1, -1
    bnez t1, 1b
    TEST_EQ(4, s8, 0)
    li t0, -1
    sw t0, MMIO(MTIMECMP_HI)(s1)
    nop

    /* ---- timer interrupt, in a loop ---- */
    li TESTNUM, 10
    lw t0, MMIO(MTIME_LO)(s1)
    lw t2, MMIO(MTIME_HI)(s1)
    addi t0, t0, 200
    sw t0, MMIO(MTIMECMP_LO)(s1)
    sw t2, MMIO(MTIMECMP_HI)(s1)     /* (no carry: MTIME_LO is small here) */
    csrsi mstatus, 8
    li t1, 10000
loop_t:
    bnez s8, 2f
    addi t1, t1, -1
    bnez t1, loop_t
loop_t_end:
    j fail                           /* never interrupted */
2:  csrci mstatus, 8
    TEST_EQ(11, s8, 1)
    TEST_EQ(12, s2, 0x80000007)
    TEST_EQ(13, s4, 0)
    li TESTNUM, 14                   /* mepc is an instruction of the loop */
    la t0, loop_t
    bltu s3, t0, fail
    la t0, loop_t_end
    bgeu s3, t0, fail
    csrw mie, x0

    /* ---- external interrupt: a flit through the mesh loopback ---- */
    li TESTNUM, 20
    li t0, 0
    li t1, KTPU_MESH_FLIT_WORDS
    addi t2, s1, MMIO(MESH_TX0)
1:  li t3, 0x01010101
    mul t4, t0, t3
    addi t4, t4, 0x77
    sw t4, 0(t2)
    addi t2, t2, 4
    addi t0, t0, 1
    bne t0, t1, 1b
    li t0, 1
    sw t0, MMIO(MESH_IRQ_EN)(s1)
    li t0, 0x800
    csrs mie, t0
    csrsi mstatus, 8
    li s8, 0
    sw x0, MMIO(MESH_TX_SEND)(s1)
    li t1, 1000
3:  bnez s8, 4f
    addi t1, t1, -1
    bnez t1, 3b
    j fail
4:  csrci mstatus, 8
    TEST_EQ(21, s2, 0x8000000b)
    TEST_EQ(22, s9, 0)               /* every received word matched */
    lw x14, MMIO(MESH_STATUS)(s1)
    TEST_EQ(23, x14, 0)              /* popped, nothing pending */
    lw x14, MMIO(PERF_MESH_TX)(s1)
    TEST_EQ(24, x14, 1)
    lw x14, MMIO(PERF_MESH_RX)(s1)
    TEST_EQ(25, x14, 1)
    csrw mie, x0

    /* ---- priority: external before timer when both are pending ---- */
    li TESTNUM, 30
    li s8, 0
    sw x0, MMIO(MESH_TX_SEND)(s1)    /* flit pending: MEIP */
    sw x0, MMIO(MTIMECMP_HI)(s1)
    sw x0, MMIO(MTIMECMP_LO)(s1)     /* MTIP */
    li t1, 100                       /* the flit's way through the mesh and the port's receive FIFO */
6:  csrr x14, mip
    srli t0, x14, 11                 /* MEIP */
    andi t0, t0, 1
    bnez t0, 7f
    addi t1, t1, -1
    bnez t1, 6b
7:  TEST_EQ(31, x14, 0x880)
    li t0, 0x880
    csrs mie, t0
    li s7, 0                         /* the handler records the first cause */
    csrsi mstatus, 8
    nop
    nop
    csrci mstatus, 8
    TEST_EQ(32, s8, 2)
    TEST_EQ(33, s7, 0x8000000b)
    csrw mie, x0

    /* ---- an interrupt during divides: every quotient still right ---- */
    li TESTNUM, 40
    li s8, 0
    li t0, 0x80
    csrs mie, t0
    lw t0, MMIO(MTIME_LO)(s1)
    addi t0, t0, 40
    sw t0, MMIO(MTIMECMP_LO)(s1)
    sw x0, MMIO(MTIMECMP_HI)(s1)
    csrsi mstatus, 8
    li t1, 8
    li t2, 1000003
5:  li t3, 7
    div t4, t2, t3
    mul t5, t4, t3
    rem t6, t2, t3
    add t5, t5, t6
    bne t5, t2, fail
    addi t1, t1, -1
    bnez t1, 5b
    csrci mstatus, 8
    TEST_EQ(41, s8, 1)
    csrw mie, x0

    /* ---- mailbox: echo answers arg0 + arg1 ---- */
    li t0, 1234
    sw t0, MMIO(MBOX_ARG0)(s1)
    li t0, 4321
    sw t0, MMIO(MBOX_ARG1)(s1)
    li t0, KTPU_MBOX_CMD_ECHO
    sw t0, MMIO(MBOX_CMD)(s1)
    nop
    lw x14, MMIO(MBOX_RESP)(s1)
    TEST_EQ(50, x14, 5555)
    lw x14, MMIO(MBOX_ARG0)(s1)
    TEST_EQ(51, x14, 1234)
TEST_END

    .balign 4
handler:
    csrr s2, mcause
    csrr s3, mepc
    csrr s4, mtval
    bnez s7, 1f
    mv s7, s2
1:  addi s8, s8, 1
    li t6, 0x80000007
    bne s2, t6, 2f
    li t6, -1                          /* timer: push mtimecmp out of reach */
    sw t6, KTPU_MMIO_MTIMECMP_HI_OFFSET(s1)
    mret
2:  li t6, 0x8000000b
    bne s2, t6, bad
    /* external: compare the received flit with what was sent (word n was
     * n * 0x01010101 + 0x77), then pop */
    li t5, 0
3:  slli t6, t5, 2
    add t6, t6, s1
    lw a0, KTPU_MMIO_MESH_RX0_OFFSET(t6)
    li a1, 0x01010101
    mul a1, a1, t5
    addi a1, a1, 0x77
    beq a0, a1, 4f
    addi s9, s9, 1
4:  addi t5, t5, 1
    li t6, KTPU_MESH_FLIT_WORDS
    bne t5, t6, 3b
    sw x0, KTPU_MMIO_MESH_RX_POP_OFFSET(s1)
    mret
bad:
    j unexpected_trap
