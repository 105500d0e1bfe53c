/* The GEMM job block (data/ktpu.def, "GEMM job"; docs/gemm.md): the check
 * the service makes before it plans anything. Portable C99, no I/O: the
 * firmware and the host tests (and fuzzers) compile the same code. */
#ifndef KTPU_FW_JOB_H
#define KTPU_FW_JOB_H

#include <stdint.h>

#include "ktpu_defs.h"
#include "ktpu_plan.h"

/* What a job is checked against besides its own words: the clusters
 * present, the counter slots the block has, and the memory agent's address
 * window [win_base, win_limit) (MMIO MEM_WIN_*; a limit of 2^32 is the
 * whole space, which only a host test passes). */
struct ktpu_job_env {
    unsigned present, max_clusters;
    uint32_t win_base;
    uint64_t win_limit;
};

/* The request words: 0 .. JOB_CLUSTERS_WORD, and the scratch region's two
 * (read only when FLAGS.QJOB is set). */
#define KTPU_JOB_REQ_WORDS (KTPU_JOB_SCRATCH_BYTES_WORD + 1)

/* Checks request words j[0 .. KTPU_JOB_REQ_WORDS) against the clusters and
 * against each other: magic; M, N, K and their multiples and limits;
 * format; base and stride alignment, strides of at least a row; A, BT and
 * C within 4 GiB (64-bit sums) and inside the window; C clear of the job
 * block, A and BT; with FLAGS.QJOB, FP16 operands and a scratch region
 * aligned, inside the window and clear of the job block, A, BT and C;
 * JOB_CLUSTERS at most the present clusters and the
 * slots. Returns 0 and the number of clusters to use in *ncl (0 asks for
 * all present, at most max_clusters of them), or the name of the first
 * rule broken, with the offending word's value in *value. */
const char *ktpu_job_check(const uint32_t *j, const struct ktpu_job_env *env, unsigned *ncl,
                           uint32_t *value);

/* The planner's configuration of a job ktpu_job_check accepted (for ncl
 * clusters): shape, format, operands, NO_SPLIT, the scratch region (none
 * without FLAGS.QJOB), and checked set; the rest (capacities, tile, peers,
 * one memory port) the defaults, for the caller to change. */
void ktpu_job_plan_cfg(const uint32_t *j, unsigned ncl, struct ktpu_plan_cfg *cfg);

#endif
