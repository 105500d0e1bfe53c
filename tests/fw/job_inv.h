/* The invariant an accepted GEMM job block must satisfy, written
 * independently of firmware/gemm/ktpu_job.c (no 64-bit end sums: the last
 * row's offset is bounded by division), shared by the host job test
 * (tests/fw/job_test.c) and the job-check fuzzer (tests/fuzz/fuzz_job.c). */
#ifndef KTPU_TEST_JOB_INV_H
#define KTPU_TEST_JOB_INV_H

#include <stdint.h>

/* Returns 0 when the block j (request words 0 .. KTPU_JOB_REQ_WORDS - 1)
 * describes A, BT and C byte ranges that lie within 4 GiB and inside the
 * memory window [win_base, win_limit), C clear of A, BT and the job block,
 * and with FLAGS.QJOB (FP16 only) a scratch region that is so too and clear
 * of all of them; otherwise a short reason. */
const char *ktpu_job_invariant(const uint32_t *j, uint32_t win_base, uint64_t win_limit);

#endif
