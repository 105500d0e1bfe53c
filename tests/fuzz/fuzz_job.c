/* Fuzzes the firmware's GEMM job check (firmware/gemm/ktpu_job.c, the code
 * the service runs) on the host. Input: the 12 request words (48 bytes,
 * little-endian, zeros past the end of a short input), then optionally one
 * byte for the clusters present (mod 9), one for the slots (1 + mod 5) and
 * two words for the memory window [base, limit) (all of 4 GiB without).
 * Invariants, not only "no crash":
 *   - accepted: A, BT and C, as [base, base + (rows-1)*stride + row bytes)
 *     in 64 bits, end at or below 4 GiB and lie inside the window; C
 *     overlaps neither A, BT nor the job block; the cluster count is
 *     1..min(present or JOB_CLUSTERS, slots), and JOB_CLUSTERS <= slots;
 *   - accepted exactly when the second model (tests/fw/job_inv.c) finds the
 *     words valid and the cluster rules hold.
 * The words are handed over in an array of exactly 12, so a read past
 * JOB_CLUSTERS_WORD is an out-of-bounds read for the sanitizers. */
#include <string.h>

#include "fuzz.h"
#include "job_inv.h"
#include "ktpu_defs.h"
#include "ktpu_job.h"

#define NWORDS KTPU_JOB_REQ_WORDS
#define GIB4 0x100000000ull

static int overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1) { return a0 < b1 && b0 < a1; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint32_t *j = malloc(NWORDS * sizeof *j);
    FUZZ_ASSERT(j != NULL, "%s", "malloc");
    for (unsigned w = 0; w < NWORDS; w++) {
        uint32_t v = 0;
        for (unsigned b = 0; b < 4; b++)
            if (4 * w + b < size) v |= (uint32_t)data[4 * w + b] << 8 * b;
        j[w] = v;
    }
    unsigned present = size > 4 * NWORDS ? data[4 * NWORDS] % 9u : 2u;
    unsigned slots = size > 4 * NWORDS + 1 ? 1u + data[4 * NWORDS + 1] % 5u : 5u;
    uint32_t win[2] = {0, 0};
    for (unsigned b = 0; b < 8 && 4 * NWORDS + 2 + b < size; b++)
        win[b / 4] |= (uint32_t)data[4 * NWORDS + 2 + b] << 8 * (b % 4);
    struct ktpu_job_env env = {present, slots, win[0], size >= 4 * NWORDS + 10 ? win[1] : GIB4};
    unsigned ncl = 0xFFFFu;
    uint32_t value = 0;
    const char *why = ktpu_job_check(j, &env, &ncl, &value);
    const char *inv = ktpu_job_invariant(j, env.win_base, env.win_limit);
    uint32_t req = j[KTPU_JOB_CLUSTERS_WORD];
    int clusters_ok = present > 0 && req <= present && req <= slots;

    if (why) {
        FUZZ_ASSERT(*why, "%s", "empty rule name");
        FUZZ_ASSERT(inv || !clusters_ok, "refused '%s' (0x%08x), but the model finds the block valid", why,
                    (unsigned)value);
        free(j);
        return 0;
    }
    FUZZ_ASSERT(!inv, "accepted, but the model says: %s", inv);
    FUZZ_ASSERT(clusters_ok, "accepted JOB_CLUSTERS %u with %u present", (unsigned)req, present);
    unsigned want = req ? req : present;
    if (want > slots) want = slots;
    FUZZ_ASSERT(ncl == want, "%u clusters, want %u", ncl, want);

    /* the ranges, directly: every product below is < 2^16 * 2^32 */
    uint32_t m = j[KTPU_JOB_M_WORD], n = j[KTPU_JOB_N_WORD], k = j[KTPU_JOB_K_WORD];
    uint64_t row = (j[KTPU_JOB_FLAGS_WORD] & 3u) == KTPU_FMT_MX ? k : 2ull * k;
    FUZZ_ASSERT(m >= 1 && n >= 1 && k >= 1, "M %u N %u K %u", (unsigned)m, (unsigned)n, (unsigned)k);
    uint64_t a0 = j[KTPU_JOB_A_WORD], a1 = a0 + (uint64_t)(m - 1) * j[KTPU_JOB_A_STRIDE_WORD] + row;
    uint64_t b0 = j[KTPU_JOB_B_WORD], b1 = b0 + (uint64_t)(n - 1) * j[KTPU_JOB_B_STRIDE_WORD] + row;
    uint64_t c0 = j[KTPU_JOB_C_WORD], c1 = c0 + (uint64_t)(m - 1) * j[KTPU_JOB_C_STRIDE_WORD] + 2ull * n;
    FUZZ_ASSERT(a1 <= GIB4, "A ends at 0x%llx", (unsigned long long)a1);
    FUZZ_ASSERT(b1 <= GIB4, "BT ends at 0x%llx", (unsigned long long)b1);
    FUZZ_ASSERT(c1 <= GIB4, "C ends at 0x%llx", (unsigned long long)c1);
    FUZZ_ASSERT(a0 >= env.win_base && a1 <= env.win_limit, "A 0x%llx..0x%llx outside the window",
                (unsigned long long)a0, (unsigned long long)a1);
    FUZZ_ASSERT(b0 >= env.win_base && b1 <= env.win_limit, "BT 0x%llx..0x%llx outside the window",
                (unsigned long long)b0, (unsigned long long)b1);
    FUZZ_ASSERT(c0 >= env.win_base && c1 <= env.win_limit, "C 0x%llx..0x%llx outside the window",
                (unsigned long long)c0, (unsigned long long)c1);
    FUZZ_ASSERT(!overlap(c0, c1, a0, a1), "C 0x%llx..0x%llx over A", (unsigned long long)c0,
                (unsigned long long)c1);
    FUZZ_ASSERT(!overlap(c0, c1, b0, b1), "C 0x%llx..0x%llx over BT", (unsigned long long)c0,
                (unsigned long long)c1);
    FUZZ_ASSERT(!overlap(c0, c1, KTPU_JOB_OFFSET, (uint64_t)KTPU_JOB_OFFSET + KTPU_JOB_BYTES),
                "C 0x%llx over the job block", (unsigned long long)c0);
    free(j);
    return 0;
}
