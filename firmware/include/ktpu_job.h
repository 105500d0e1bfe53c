/* The GEMM job block (data/ktpu.def, "GEMM job"; docs/gemm.md): the check
 * the service makes before it plans anything. Portable C99, no I/O: the
 * firmware and the host tests (and fuzzers) compile the same code. */
#ifndef KTPU_FW_JOB_H
#define KTPU_FW_JOB_H

#include <stdint.h>

#include "ktpu_defs.h"

/* Checks request words j[0 .. JOB_CLUSTERS_WORD] against what the clusters
 * take and against each other: magic; M, N, K and their multiples and
 * limits; format; base and stride alignment, strides of at least a row;
 * A, BT and C within 4 GiB (64-bit sums); C clear of the job block, A and
 * BT; JOB_CLUSTERS at most the present clusters. Returns 0 and the number
 * of clusters to use in *ncl (at most max_clusters), or the name of the
 * first rule broken, with the offending word's value in *value. */
const char *ktpu_job_check(const uint32_t *j, unsigned present, unsigned max_clusters, unsigned *ncl,
                           uint32_t *value);

#endif
