/* The GEMM service (SPEC §10, docs/gemm.md): runs the job block at
 * DRAM_BASE + JOB_OFFSET on the clusters and writes its result words. */
#ifndef KTPU_FW_GEMM_H
#define KTPU_FW_GEMM_H

#include <stdint.h>

#include "ktpu_defs.h"

/* Counter slots in the job block: JOB_CL_WORD + 8i for cluster i. */
#define KTPU_GEMM_MAX_CLUSTERS ((KTPU_JOB_BYTES / 4 - KTPU_JOB_CL_WORD) / 8)

struct ktpu_gemm_opts {
    uint32_t timeout;      /* mtime cycles without a completion from a busy cluster; 0 = from the plan */
    int stuck_test;        /* test only: first make one cluster wait forever (a SEND never granted) */
    int quiet;             /* no summary line on success */
    unsigned l1_depth;     /* test only: plan for a smaller L1 (many tiles, short chunks); 0 = KTPU_L1_DEPTH */
    unsigned acc_depth;    /* test only: plan for a smaller accumulator; 0 = KTPU_ACC_DEPTH */
    unsigned tile_gm, tile_gn;   /* the tile in sub-tile groups; 0 = the planner's choice */
    int no_window_check;   /* test only: operands outside MEM_WIN_* reach the agent (the HWERR path) */
    unsigned ring;         /* test only: a uniform plan's ring of encoded instructions, 1, 2, 4 or 8
                              entries (the fastest cluster at most that far ahead); 0 = 16 */
    unsigned tiny_sweep;   /* test only: split-K for sweeps longer than this, always (ktpu_plan_cfg);
                              0 = the planner's rules */
    int force_upload;      /* test only: quantise-on-upload when the job lends a scratch region,
                              whatever the cost model says (ktpu_plan_cfg) */
};

/* The job block as the CPU sees it. */
static inline volatile uint32_t *ktpu_gemm_job(void)
{
    return (volatile uint32_t *)(uintptr_t)(KTPU_DRAM_BASE + KTPU_JOB_OFFSET);
}

/* At boot: finds the clusters (SOC_MESH, SOC_KINDS0/1) and clears their
 * counters (STATUS CLEAR), so that a job's counters are its own. Returns the
 * number of clusters, or -1 when the registers describe no CPU node.
 * ktpu_gemm_run calls it if nobody did. */
int ktpu_gemm_init(void);

/* Validates, plans and runs the job; writes the result words and
 * JOB_STATUS last. Returns the JOBST_* written. */
unsigned ktpu_gemm_run(volatile uint32_t *job, const struct ktpu_gemm_opts *opt);

#endif
