/* gemm_one: a hand-driven one-cluster GEMM for testing ktpu-sim's --gemm
 * side (not the GEMM service, firmware/gemm): reads the job block, finds the
 * first cluster from SOC_KINDS, sends FILL A, FILL B, GEMM (fused emit) and
 * STATUS through the mesh port, announces C as one tile (MBOX CMD_TILE) and
 * writes the result words, status last. Shapes: the whole of A, BT and C
 * must fit one L1 side / the tile (M/4 x K/32 and N/4 x K/32 <= L1_DEPTH,
 * M/4 x N/4 <= ACC_DEPTH).
 *
 * Built several times with GEMM_ONE_MODE (tests/soc/tests.mk) to misbehave
 * on purpose, so that every harness check is seen to fail:
 *   0 correct        1 C stride + 8 (wrong places, canaries hit)
 *   2 announce only the first half of the rows (coverage)
 *   3 announce the tile twice    4 an L1 range error (JOBST_HWERR)
 *   5 never finish (time-out)    6 status DONE, flags not reported
 *   7 a word of A overwritten    8 a flit sent outside the mesh (a stray)
 *   9 reports JOBST_TIMEOUT naming cluster 1 (the harness must name it) */
#include <stdint.h>
#include <stdio.h>

#include "ktpu_rt.h"

#ifndef GEMM_ONE_MODE
#define GEMM_ONE_MODE 0
#endif

#define JOB(w) (*(volatile uint32_t *)(KTPU_DRAM_BASE + KTPU_JOB_OFFSET + 4u * (w)))

static unsigned me_x, me_y, cl_x, cl_y;
static uint8_t txn;

static void send(unsigned op_word, const uint32_t *words, unsigned nwords)
{
    uint32_t hdr = ktpu_flit_pack(cl_x, cl_y, me_x, me_y, KTPU_MSG_CL_INSTR, txn++, 1);
    while (KTPU_REG(MESH_STATUS) & KTPU_MESH_STATUS_TX_BUSY_MASK)
        ;
    KTPU_REG_AT(MESH_TX0, 0) = hdr;
    KTPU_REG_AT(MESH_TX0, 1 + KTPU_CI_OP_WORD) = op_word;
    for (unsigned w = 1; w < 8; w++)
        KTPU_REG_AT(MESH_TX0, 1 + w) = w < nwords ? words[w] : 0;
    KTPU_REG(MESH_TX_SEND) = 1;
}

/* Wait for one flit of this type (CL_DONE, CL_WRITTEN); copies its payload
 * words. Time-out: ~2^24 polls. */
static int wait_for(unsigned type, uint32_t pl[8])
{
    for (uint32_t n = 0; n < (1u << 24); n++) {
        if (!(KTPU_REG(MESH_STATUS) & KTPU_MESH_STATUS_RX_VALID_MASK))
            continue;
        uint32_t hdr = KTPU_REG_AT(MESH_RX0, 0);
        for (unsigned w = 0; w < 8; w++)
            pl[w] = KTPU_REG_AT(MESH_RX0, 1 + w);
        KTPU_REG(MESH_RX_POP) = 1;
        if (((hdr & KTPU_FLIT_TYPE_MASK) >> KTPU_FLIT_TYPE_LSB) == type)
            return 0;
        printf("gemm_one: unexpected flit 0x%08lx\n", (unsigned long)hdr);
    }
    return -1;
}

static void finish(uint32_t status, uint32_t detail, uint32_t cycles, uint32_t flags)
{
    JOB(KTPU_JOB_DETAIL_WORD) = detail;
    JOB(KTPU_JOB_CYCLES_WORD) = cycles;
    JOB(KTPU_JOB_FLAGS_OUT_WORD) = flags;
    JOB(KTPU_JOB_STATUS_WORD) = status;
    KTPU_REG(SIM_EXIT) = (status == KTPU_JOBST_DONE ? 0u : 1u) << 1 | 1u;
    for (;;)
        ;
}

/* Wait for an answer of this type; a CLERR ends the job. */
static void answer(unsigned type, uint32_t t0)
{
    uint32_t pl[8];
    if (wait_for(type, pl))
        finish(KTPU_JOBST_TIMEOUT, 0, ktpu_read_mcycle() - t0, 0);
    uint32_t code = pl[KTPU_CD_STATUS_WORD] & KTPU_CD_STATUS_CODE_MASK;
    if (code != KTPU_CLERR_OK) {
        uint32_t op = (pl[KTPU_CD_STATUS_WORD] & KTPU_CD_STATUS_OP_MASK) >> KTPU_CD_STATUS_OP_LSB;
        printf("gemm_one: cluster error %lu on op %lu\n", (unsigned long)code, (unsigned long)op);
        JOB(KTPU_JOB_ADDR_WORD) = pl[KTPU_CD_ADDR_WORD];
        finish(KTPU_JOBST_HWERR, code | op << KTPU_JOB_DETAIL_OP_LSB, ktpu_read_mcycle() - t0, 0);
    }
}

/* Run one instruction and wait for its answer. */
static void exec(uint32_t op_word, const uint32_t *words, uint32_t t0)
{
    send(op_word, words, 8);
    answer(KTPU_MSG_CL_DONE, t0);
}

int main(void)
{
    uint32_t t0 = ktpu_read_mcycle();
    if (GEMM_ONE_MODE == 9)
        finish(KTPU_JOBST_TIMEOUT, 1u << KTPU_JOB_DETAIL_CLUSTER_LSB, 0, 0);
    if (JOB(KTPU_JOB_MAGIC_WORD) != KTPU_JOB_MAGIC || JOB(KTPU_JOB_STATUS_WORD) != KTPU_JOBST_PENDING)
        finish(KTPU_JOBST_BADJOB, 0, 0, 0);
    uint32_t m = JOB(KTPU_JOB_M_WORD), n = JOB(KTPU_JOB_N_WORD), k = JOB(KTPU_JOB_K_WORD);
    uint32_t gm = m / 4u, gn = n / 4u, nk = k / 32u;
    uint32_t fmt = JOB(KTPU_JOB_FLAGS_WORD) & KTPU_JOB_FLAGS_FMT_MASK;
    if (gm * nk > KTPU_L1_DEPTH || gn * nk > KTPU_L1_DEPTH || gm * gn > KTPU_ACC_DEPTH)
        finish(KTPU_JOBST_BADJOB, 0, 0, 0);

    /* places: mine and the first cluster's */
    uint32_t mesh = KTPU_REG(SOC_MESH);
    unsigned w = mesh & KTPU_SOC_MESH_W_MASK, h = (mesh & KTPU_SOC_MESH_H_MASK) >> KTPU_SOC_MESH_H_LSB;
    int found = 0;
    for (unsigned i = 0; i < w * h && i < 16; i++) {
        uint32_t kinds = i < 8 ? KTPU_REG(SOC_KINDS0) : KTPU_REG(SOC_KINDS1);
        unsigned kind = (kinds >> (4u * (i % 8u))) & 15u;
        if (kind == KTPU_NODE_CPU)
            me_x = i % w, me_y = i / w;
        if (kind == KTPU_NODE_CLUSTER && !found)
            cl_x = i % w, cl_y = i / w, found = 1;
    }
    if (!found)
        finish(KTPU_JOBST_BADJOB, 0, 0, 0);

    uint32_t c = JOB(KTPU_JOB_C_WORD), ldc = JOB(KTPU_JOB_C_STRIDE_WORD);
    if (GEMM_ONE_MODE == 1)
        ldc += 8;
    uint32_t wa[8] = {0, 0, 0, gm | 1u << KTPU_CI_SHAPE_GN_LSB, nk, JOB(KTPU_JOB_A_WORD),
                      JOB(KTPU_JOB_A_STRIDE_WORD), 0};
    uint32_t fill = KTPU_CLOP_FILL | fmt << KTPU_CI_OP_FMT_LSB;
    if (GEMM_ONE_MODE == 4)
        wa[KTPU_CI_OFF_WORD] = KTPU_L1_DEPTH - 1u;   /* past the end of L1 A */
    exec(fill, wa, t0);
    uint32_t wb[8] = {0, 0, 0, gn | 1u << KTPU_CI_SHAPE_GN_LSB, nk, JOB(KTPU_JOB_B_WORD),
                      JOB(KTPU_JOB_B_STRIDE_WORD), 0};
    exec(fill | 1u << KTPU_CI_OP_SIDE_LSB, wb, t0);
    /* (nk = 1: the node runs the emit as a pass of its own, docs/node.md) */
    uint32_t wg[8] = {0, 0, 0, gm | gn << KTPU_CI_SHAPE_GN_LSB, nk, c, ldc, 0};
    exec(KTPU_CLOP_GEMM | KTPU_CI_OP_EMIT_MASK | KTPU_CI_OP_WRITTEN_MASK, wg, t0);
    /* the tile is in DRAM: announced now, its counters after */
    answer(KTPU_MSG_CL_WRITTEN, t0);
    KTPU_REG(MBOX_ARG0) = 0;
    KTPU_REG(MBOX_ARG1) = (GEMM_ONE_MODE == 2 ? m / 2u : m) << KTPU_MBOX_TILE_HI_LSB | n;
    KTPU_REG(MBOX_CMD) = KTPU_MBOX_CMD_TILE;
    if (GEMM_ONE_MODE == 3)
        KTPU_REG(MBOX_CMD) = KTPU_MBOX_CMD_TILE;
    uint32_t pl[8];
    send(KTPU_CLOP_STATUS, wg, 1);
    if (wait_for(KTPU_MSG_CL_DONE, pl))
        finish(KTPU_JOBST_TIMEOUT, 0, ktpu_read_mcycle() - t0, 0);
    uint32_t cycles = ktpu_read_mcycle() - t0;
    for (unsigned i = 1; i < 8; i++)
        JOB(KTPU_JOB_CL_WORD + i) = pl[i];
    uint32_t flags = pl[KTPU_CD_FLAGS_WORD] & KTPU_CD_FLAGS_NUM_MASK;

    if (GEMM_ONE_MODE == 5)
        for (;;)
            ;
    if (GEMM_ONE_MODE == 6)
        flags = 0;
    if (GEMM_ONE_MODE == 7)
        *(volatile uint32_t *)(KTPU_DRAM_BASE + JOB(KTPU_JOB_A_WORD) + 4u) ^= 1u;
    if (GEMM_ONE_MODE == 8) {
        cl_x = 15;   /* no such column: the edge router sinks and counts it */
        send(KTPU_CLOP_STATUS, wg, 1);
    }
    finish(flags ? KTPU_JOBST_NUMERIC : KTPU_JOBST_DONE, 0, cycles, flags);
    return 0;
}
