/* The CPU mesh port's receive FIFO (docs/soc.md, "The receive FIFO"): flits sent
 * to the CPU while it does not pop them are taken off the mesh (counted by
 * PERF_MESH_RX as they arrive), up to SOC_MESH_RX_DEPTH behind the receive
 * register, and are then read in the order they were sent, each whole.
 * Sixteen response-plane flits (a completion's type) are sent to the CPU's
 * own node; word n of flit f is f * 16 + n, its TXN f. Without the FIFO the
 * port took one and the rest waited in the routers (the response plane's
 * links blocked behind them). Exit status: 0, or the first failing check. */
#include "isa.h"

#define NFLITS 16
#define HDR(f) ((KTPU_NODE_CPU_X << KTPU_FLIT_DST_X_LSB) | (KTPU_NODE_CPU_Y << KTPU_FLIT_DST_Y_LSB) | \
                (KTPU_MSG_CL_DONE << KTPU_FLIT_TYPE_LSB) | ((f) << KTPU_FLIT_TXN_LSB) | KTPU_FLIT_LAST_MASK)

#if NFLITS > KTPU_SOC_MESH_RX_DEPTH
#error "the test sends more flits than the FIFO holds"
#endif

TEST_BEGIN
    li s1, KTPU_MMIO_BASE
    lw s2, KTPU_MMIO_PERF_MESH_RX_OFFSET(s1)
    li s3, 0                             /* flit f */
1:  li t0, HDR(0)
    slli t1, s3, KTPU_FLIT_TXN_LSB
    or t0, t0, t1
    sw t0, KTPU_MMIO_MESH_TX0_OFFSET(s1)
    slli t2, s3, 4                       /* word n = f * 16 + n */
    addi s4, s1, KTPU_MMIO_MESH_TX0_OFFSET + 4
    li t4, 1
2:  add t5, t2, t4
    sw t5, 0(s4)
    addi s4, s4, 4
    addi t4, t4, 1
    li t6, KTPU_MESH_FLIT_WORDS
    bne t4, t6, 2b
    sw x0, KTPU_MMIO_MESH_TX_SEND_OFFSET(s1)   /* held while the previous flit has not left */
    addi s3, s3, 1
    li t6, NFLITS
    bne s3, t6, 1b
    /* every flit off the mesh within 2,000 cycles, none popped */
    li t1, 2000
3:  lw t0, KTPU_MMIO_PERF_MESH_RX_OFFSET(s1)
    sub t0, t0, s2
    li t6, NFLITS
    beq t0, t6, 4f
    addi t1, t1, -1
    bnez t1, 3b
    TEST_EQ(1, t0, NFLITS)               /* fails, with the count seen */
4:  lw t0, KTPU_MMIO_MESH_STATUS_OFFSET(s1)
    TEST_EQ(2, t0, KTPU_MESH_STATUS_RX_VALID_MASK)   /* a flit waits, the sender is idle */
    /* read back in order, each whole, then the port is empty */
    li s3, 0
5:  lw t0, KTPU_MMIO_MESH_STATUS_OFFSET(s1)
    TEST_EQ(3, t0, KTPU_MESH_STATUS_RX_VALID_MASK)
    lw t0, KTPU_MMIO_MESH_RX0_OFFSET(s1)
    li t1, HDR(0)
    slli t2, s3, KTPU_FLIT_TXN_LSB
    or t1, t1, t2
    li TESTNUM, 4
    bne t0, t1, fail
    slli t2, s3, 4
    addi s4, s1, KTPU_MMIO_MESH_RX0_OFFSET + 4
    li t4, 1
6:  lw t0, 0(s4)
    add t5, t2, t4
    li TESTNUM, 5
    bne t0, t5, fail
    addi s4, s4, 4
    addi t4, t4, 1
    li t6, KTPU_MESH_FLIT_WORDS
    bne t4, t6, 6b
    sw x0, KTPU_MMIO_MESH_RX_POP_OFFSET(s1)
    nop
    nop
    addi s3, s3, 1
    li t6, NFLITS
    bne s3, t6, 5b
    nop
    nop
    nop
    lw t0, KTPU_MMIO_MESH_STATUS_OFFSET(s1)
    TEST_EQ(6, t0, 0)
    lw t0, KTPU_MMIO_PERF_MESH_RX_OFFSET(s1)
    sub t0, t0, s2
    TEST_EQ(7, t0, NFLITS)               /* nothing more arrived */
    j pass
TEST_END
