/* ktpu_gemm_selftest.elf: the GEMM service checked on-chip (SPEC §10), the
 * check an FPGA user runs with no host attached. Each case writes seeded
 * operands and a job block into DRAM, runs the same service code as
 * ktpu_gemm.elf, and compares C bit for bit with the reference compiled for
 * RV32 (build/rv32/libktpuref.a), plus the bytes around C (a canary), the
 * job's status words and the reported flags. Bad jobs, a hardware refusal
 * and a stuck cluster are cases too. Exit status: the number of failed
 * checks (0 = pass). */
#include <stdio.h>
#include <string.h>

#include "ktpu_ci.h"
#include "ktpu_gemm.h"
#include "ktpu_rt.h"
#include "ktpu_ref.h"

#define MAXM 24
#define MAXN 24
#define MAXK 128

static uint16_t a16[MAXM * MAXK], b16[MAXN * MAXK], cref[MAXM * MAXN];
static int8_t qa[MAXM * MAXK], qb[MAXN * MAXK];
static uint8_t sa[MAXM * MAXK / 32], sb[MAXN * MAXK / 32];
static uint32_t tile[MAXM * MAXN], parts[(MAXK / 32 - 1) * MAXM * MAXN];   /* split-K: at most K / 32 parts */
static unsigned present;   /* clusters on this machine */
static unsigned checks, fails;
static uint32_t rng;

#define CHECK(c, ...)                              \
    do {                                           \
        checks++;                                  \
        if (!(c)) {                                \
            fails++;                               \
            printf("selftest: FAIL: " __VA_ARGS__); \
            printf("\n");                          \
        }                                          \
    } while (0)

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static volatile uint32_t *dram(uint32_t off) { return (volatile uint32_t *)(uintptr_t)(KTPU_DRAM_BASE + off); }

static uint16_t rnd_f16(void)
{
    uint32_t r = rnd();
    if (r % 17 == 0) return 0;
    return (uint16_t)((r & 0x8000) | (8 + (r >> 8) % 14) << 10 | ((r >> 16) & 0x3FF));
}

/* DRAM layout of every case */
#define A_OFF 0x1000u
#define B_OFF 0x4000u
#define C_OFF 0x8008u   /* not 32-byte aligned: bursts straddle beats */
#define S_OFF 0xA000u   /* quantise-on-upload's scratch region, (M + N) x K bytes, a canary after it */
#define CANARY 0xA5A5A5A5u

struct tcase {
    const char *name;
    uint32_t m, k, n, fmt, clusters;
    uint32_t expect;        /* JOBST_* */
    int inf;                /* put an Inf into A */
    int bad;                /* 1 bad magic, 2 K = 48, 3 C over the job block, 4 A outside DRAM
                               (past the firmware's window check, refused by the agent),
                               5 C over A, 6 C over BT, 7 A outside DRAM (refused by the firmware),
                               8 C's second row band past DRAM (past the window check: the
                               agent refuses its burst, the tile's CL_WRITTEN says so) */
    int stuck;
    unsigned l1, acc;       /* planner capacities (0: the hardware's): small ones force many tiles */
    unsigned ring;          /* a uniform plan's ring of encoded instructions (0: the service's) */
    unsigned tiny;          /* split-K for sweeps longer than this (0: the planner's threshold): C,
                               one tile, is then K split over min(clusters, K / 32) parts, and the
                               reference adds them in the tree ktpu_ref_gemm_mx_split states */
    int upload;             /* quantise-on-upload, whatever the cost model says: 1 into a scratch
                               region at S_OFF, 2 into one past DRAM (past the window check: the
                               agent refuses the MEM_QJOB) */
};

static void put_rows16(uint32_t off, uint32_t ld, const uint16_t *x, uint32_t rows, uint32_t cols)
{
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < cols; c += 2)
            *dram(off + r * ld + 2 * c) = x[r * cols + c] | (uint32_t)x[r * cols + c + 1] << 16;
}

static void put_mx(uint32_t off, uint32_t ld, const int8_t *q, const uint8_t *s, uint32_t rows, uint32_t k)
{
    uint8_t blk[32];
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t kb = 0; kb < k / 32; kb++) {
            ktpu_ref_mx_store(q + r * k + 32 * kb, s[r * (k / 32) + kb], blk);
            for (unsigned i = 0; i < 32; i += 4)
                *dram(off + r * ld + 32 * kb + i) =
                    blk[i] | (uint32_t)blk[i + 1] << 8 | (uint32_t)blk[i + 2] << 16 | (uint32_t)blk[i + 3] << 24;
        }
}

static void run_case(const struct tcase *t, unsigned seed)
{
    uint32_t esz = t->fmt == KTPU_FMT_FP16 ? 2 : 1;
    uint32_t lda = t->k * esz + 32, ldb = t->k * esz + 64, ldc = 2 * t->n + 8;
    uint32_t m = t->m, n = t->n, k = t->k;
    unsigned rflags = 0, ncl = t->clusters ? t->clusters : present;
    unsigned split = t->tiny && ncl > 1 ? (ncl < k / 32 ? ncl : k / 32) : 1;
    volatile uint32_t *job = ktpu_gemm_job();
    rng = 0x9E3779B9u ^ seed;
    uint32_t t_ref = ktpu_read_mcycle();

    if (t->fmt == KTPU_FMT_FP16) {
        for (uint32_t i = 0; i < m * k; i++) a16[i] = rnd_f16();
        for (uint32_t i = 0; i < n * k; i++) b16[i] = rnd_f16();
        if (t->inf) a16[k + 5] = 0x7C00;   /* row 1, block 0: Inf */
        put_rows16(A_OFF, lda, a16, m, k);
        put_rows16(B_OFF, ldb, b16, n, k);
        if (!t->bad && !t->stuck) {
            rflags = ktpu_ref_quant_matrix(a16, m, k, qa, sa) | ktpu_ref_quant_matrix(b16, n, k, qb, sb);
            rflags |= ktpu_ref_gemm_mx_split(m, n, k, split, qa, sa, qb, sb, parts, tile, cref);
        }
    } else {
        for (uint32_t i = 0; i < m * k; i++) qa[i] = i % 16 == 3 ? -64 : (int8_t)((int)(rnd() % 128) - 64);
        for (uint32_t i = 0; i < n * k; i++) qb[i] = i % 16 == 7 ? -64 : (int8_t)((int)(rnd() % 128) - 64);
        for (uint32_t i = 0; i < m * k / 32; i++) sa[i] = (uint8_t)((12 + rnd() % 8) << 3 | (rnd() & 7));
        for (uint32_t i = 0; i < n * k / 32; i++) sb[i] = (uint8_t)((12 + rnd() % 8) << 3 | (rnd() & 7));
        put_mx(A_OFF, lda, qa, sa, m, k);
        put_mx(B_OFF, ldb, qb, sb, n, k);
        rflags = ktpu_ref_gemm_mx_split(m, n, k, split, qa, sa, qb, sb, parts, tile, cref);
    }
    t_ref = ktpu_read_mcycle() - t_ref;
    /* C and 64 bytes either side: canary */
    for (uint32_t off = C_OFF - 64; off < C_OFF + m * ldc + 64; off += 4) *dram(off & ~3u) = CANARY;

    for (unsigned i = 0; i < KTPU_JOB_BYTES / 4; i++) job[i] = 0;
    job[KTPU_JOB_MAGIC_WORD] = t->bad == 1 ? 0x12345678u : KTPU_JOB_MAGIC;
    job[KTPU_JOB_M_WORD] = m;
    job[KTPU_JOB_N_WORD] = n;
    job[KTPU_JOB_K_WORD] = t->bad == 2 ? 48 : k;
    job[KTPU_JOB_A_WORD] = t->bad == 4 || t->bad == 7 ? KTPU_DRAM_SIM_BYTES + 0x1000u : A_OFF;
    job[KTPU_JOB_A_STRIDE_WORD] = lda;
    job[KTPU_JOB_B_WORD] = B_OFF;
    job[KTPU_JOB_B_STRIDE_WORD] = ldb;
    job[KTPU_JOB_C_WORD] = t->bad == 3   ? KTPU_JOB_OFFSET + 8
                           : t->bad == 5 ? A_OFF + (m - 1) * lda   /* C's first row is A's last */
                           : t->bad == 6 ? B_OFF - 8                /* C's first row ends in BT's */
                           : t->bad == 8 ? KTPU_DRAM_SIM_BYTES - 4 * ldc
                                         : C_OFF;
    job[KTPU_JOB_C_STRIDE_WORD] = ldc;
    job[KTPU_JOB_FLAGS_WORD] = KTPU_FIELD(JOB_FLAGS_FMT, t->fmt) | KTPU_FIELD(JOB_FLAGS_QJOB, t->upload != 0);
    uint32_t sbytes = (m + n) * k;
    job[KTPU_JOB_SCRATCH_WORD] = t->upload == 2 ? KTPU_DRAM_SIM_BYTES : S_OFF;
    job[KTPU_JOB_SCRATCH_BYTES_WORD] = sbytes;
    for (uint32_t off = S_OFF + sbytes; t->upload == 1 && off < S_OFF + sbytes + 64; off += 4) *dram(off) = CANARY;
    job[KTPU_JOB_CLUSTERS_WORD] = t->clusters;
    job[KTPU_JOB_STATUS_WORD] = KTPU_JOBST_PENDING;

    struct ktpu_gemm_opts opt = {0};
    opt.stuck_test = t->stuck;
    opt.timeout = t->stuck ? 50000u : 0;
    opt.l1_depth = t->l1;
    opt.acc_depth = t->acc;
    opt.no_window_check = t->bad == 4 || t->bad == 8 || t->upload == 2;
    opt.force_upload = t->upload != 0;
    opt.ring = t->ring;
    opt.tiny_sweep = t->tiny;
    unsigned st = ktpu_gemm_run(job, &opt);
    unsigned f0 = fails;
    CHECK(st == t->expect && job[KTPU_JOB_STATUS_WORD] == t->expect, "%s: status %s, expected %s", t->name,
          ktpu_jobst_name(st), ktpu_jobst_name(t->expect));
    uint32_t detail = job[KTPU_JOB_DETAIL_WORD];
    if (t->expect == KTPU_JOBST_DONE || t->expect == KTPU_JOBST_NUMERIC) {
        long bad = 0;
        for (uint32_t i = 0; i < m; i++)
            for (uint32_t j = 0; j < n; j += 2) {
                uint32_t v = *dram(C_OFF + i * ldc + 2 * j);
                uint32_t want = cref[i * n + j] | (uint32_t)cref[i * n + j + 1] << 16;
                checks++;
                if (v != want) {
                    fails++;
                    if (bad++ < 4)
                        printf("selftest: FAIL: %s: C[%lu][%lu..%lu] = 0x%08lx, reference 0x%08lx\n", t->name,
                               (unsigned long)i, (unsigned long)j, (unsigned long)j + 1, (unsigned long)v,
                               (unsigned long)want);
                }
            }
        CHECK(job[KTPU_JOB_FLAGS_OUT_WORD] == (rflags & 0xFu), "%s: FLAGS_OUT 0x%lx, reference flags 0x%x", t->name,
              (unsigned long)job[KTPU_JOB_FLAGS_OUT_WORD], rflags);
        CHECK(job[KTPU_JOB_CYCLES_WORD] > 0, "%s: JOB_CYCLES written", t->name);
        CHECK((job[KTPU_JOB_UPLOAD_CYCLES_WORD] > 0) == (t->upload != 0), "%s: JOB_UPLOAD_CYCLES %lu", t->name,
              (unsigned long)job[KTPU_JOB_UPLOAD_CYCLES_WORD]);
        if (t->upload) {   /* the copies' region and no byte after it */
            unsigned after = 0;
            for (uint32_t off = S_OFF + sbytes; off < S_OFF + sbytes + 64; off += 4) after += *dram(off) != CANARY;
            CHECK(after == 0, "%s: %u words after the scratch region written", t->name, after);
        }
        if (t->upload && t->inf)   /* the block holding the Inf, named */
            CHECK(job[KTPU_JOB_ADDR_WORD] == A_OFF + lda, "%s: JOB_ADDR 0x%lx, the Inf's block is at 0x%lx",
                  t->name, (unsigned long)job[KTPU_JOB_ADDR_WORD], (unsigned long)(A_OFF + lda));
        /* the STATUS counters arrived: the sweeps add up to at least the MACs / 512 */
        {
            uint32_t sweep = 0;
            for (unsigned c = 0; c < KTPU_GEMM_MAX_CLUSTERS; c++) sweep += job[KTPU_JOB_CL_WORD + 8 * c + KTPU_CD_SWEEP_WORD];
            CHECK(sweep >= m * n * k / 512, "%s: sweep counters add up to %lu cycles", t->name, (unsigned long)sweep);
        }
    }
    if (!t->bad || t->bad >= 4) {
        /* nothing outside C was written (row padding, both ends) */
        unsigned outside = 0;
        for (uint32_t off = C_OFF - 64; off < C_OFF + m * ldc + 64; off += 4) {
            int in = off >= C_OFF && off < C_OFF + m * ldc && (off - C_OFF) % ldc < 2 * n;
            if (!in && *dram(off) != CANARY) outside++;
        }
        CHECK(outside == 0, "%s: %u words outside C written", t->name, outside);
    }
    if (t->bad == 4) {
        /* the GEMM behind the refused FILL wrote nothing (CLERR_FILLFAIL):
         * no garbage tile in C */
        unsigned written = 0;
        for (uint32_t off = C_OFF; off < C_OFF + m * ldc; off += 4) written += *dram(off) != CANARY;
        CHECK(written == 0, "%s: %u words of C written after the refused FILL", t->name, written);
    }
    if (t->bad == 4)
        CHECK(KTPU_FIELD_GET(JOB_DETAIL_CODE, detail) == KTPU_CLERR_MEM &&
              KTPU_FIELD_GET(JOB_DETAIL_OP, detail) == KTPU_CLOP_FILL &&
              job[KTPU_JOB_ADDR_WORD] >= KTPU_DRAM_SIM_BYTES,
              "%s: DETAIL 0x%lx ADDR 0x%lx", t->name, (unsigned long)detail,
              (unsigned long)job[KTPU_JOB_ADDR_WORD]);
    if (t->bad == 8)
        CHECK(KTPU_FIELD_GET(JOB_DETAIL_CODE, detail) == KTPU_CLERR_MEM &&
              KTPU_FIELD_GET(JOB_DETAIL_OP, detail) == KTPU_CLOP_GEMM &&
              job[KTPU_JOB_ADDR_WORD] == KTPU_DRAM_SIM_BYTES,
              "%s: DETAIL 0x%lx ADDR 0x%lx (expected CLERR_MEM on the GEMM, the refused burst at 0x%x)", t->name,
              (unsigned long)detail, (unsigned long)job[KTPU_JOB_ADDR_WORD], (unsigned)KTPU_DRAM_SIM_BYTES);
    if (t->upload == 2) {   /* refused before any instruction: DETAIL names the upload, C untouched */
        unsigned written = 0;
        for (uint32_t off = C_OFF; off < C_OFF + m * ldc; off += 4) written += *dram(off) != CANARY;
        CHECK(written == 0 && KTPU_FIELD_GET(JOB_DETAIL_CODE, detail) == KTPU_MEMST_WINDOW &&
                  KTPU_FIELD_GET(JOB_DETAIL_CLUSTER, detail) == 255 && job[KTPU_JOB_ADDR_WORD] >= KTPU_DRAM_SIM_BYTES,
              "%s: DETAIL 0x%lx ADDR 0x%lx, %u words of C written", t->name, (unsigned long)detail,
              (unsigned long)job[KTPU_JOB_ADDR_WORD], written);
    }
    if (t->stuck)
        CHECK(KTPU_FIELD_GET(JOB_DETAIL_CLUSTER, detail) == 0, "%s: DETAIL names cluster %lu", t->name,
              (unsigned long)KTPU_FIELD_GET(JOB_DETAIL_CLUSTER, detail));
    if (t->bad && t->bad != 4 && t->bad != 8) CHECK(detail == 0, "%s: BADJOB DETAIL 0", t->name);
    printf("selftest: %s: %s (service %lu cycles; operands + reference %lu)\n", t->name,
           fails == f0 ? "pass" : "FAIL", (unsigned long)job[KTPU_JOB_CYCLES_WORD], (unsigned long)t_ref);
}

int main(void)
{
    static const struct tcase cases[] = {
        /* name, M, K, N, format, JOB_CLUSTERS, expected, inf, bad, stuck, L1, ACC, ring, tiny, upload */
        {"8x64x16 FP16, all clusters", 8, 64, 16, KTPU_FMT_FP16, 0, KTPU_JOBST_DONE, 0, 0, 0, 0, 0, 0, 0, 0},
        {"8x96x12 MXFP7 (-64 elements), 1 cluster", 8, 96, 12, KTPU_FMT_MX, 1, KTPU_JOBST_DONE, 0, 0, 0, 0, 0, 0, 0, 0},
        {"12x32x8 FP16, one K block (unfusable emit)", 12, 32, 8, KTPU_FMT_FP16, 0, KTPU_JOBST_DONE, 0, 0, 0, 0, 0, 0, 0, 0},
        /* small planner capacities: 2-sub-tile tiles over all clusters, K
         * chunks of 1-2 blocks through both L1 halves, BT resident and
         * switching column blocks (L1 8) or streamed (L1 4) */
        {"16x96x12 MXFP7, ACC 2, L1 8: many tiles", 16, 96, 12, KTPU_FMT_MX, 0, KTPU_JOBST_DONE, 0, 0, 0, 8, 2, 0, 0, 0},
        {"8x96x8 MXFP7, ACC 2, L1 4: BT streamed", 8, 96, 8, KTPU_FMT_MX, 0, KTPU_JOBST_DONE, 0, 0, 0, 4, 2, 0, 0, 0},
        /* 2x2-group tiles of a 16x16 C on all clusters: a uniform plan (one
         * stream moved per cluster) whose ring of encoded instructions holds
         * one, or two: the clusters in lockstep, or the fastest held two
         * instructions ahead of the slowest (the case above is uniform with
         * the full ring) */
        {"16x32x16 MXFP7, ACC 4, L1 16: uniform, ring 1", 16, 32, 16, KTPU_FMT_MX, 0, KTPU_JOBST_DONE, 0, 0, 0, 16, 4, 1, 0, 0},
        {"16x32x16 FP16, ACC 4, L1 16: uniform, ring 2", 16, 32, 16, KTPU_FMT_FP16, 0, KTPU_JOBST_DONE, 0, 0, 0, 16, 4, 2, 0, 0},
        /* the regular rule's tiles (plan_regular) in 3 column blocks on 2
         * clusters: each cluster's range straddles a column block, so the
         * plan is not uniform */
        {"16x32x24 MXFP7, 2 clusters, ACC 4, L1 16: regular, not uniform", 16, 32, 24, KTPU_FMT_MX, 2, KTPU_JOBST_DONE, 0, 0, 0, 16, 4, 0, 0, 0},
        /* split-K (one tile, K over every cluster: 4 parts on 4 clusters,
         * where the tree is not a chain; 3 parts, the tree's uneven end);
         * with an L1 that streams BT */
        {"24x128x20 MXFP7, split-K over all clusters", 24, 128, 20, KTPU_FMT_MX, 0, KTPU_JOBST_DONE, 0, 0, 0, 0, 0, 0, 1, 0},
        {"16x96x24 FP16, split-K, L1 16", 16, 96, 24, KTPU_FMT_FP16, 0, KTPU_JOBST_DONE, 0, 0, 0, 16, 0, 0, 1, 0},
        {"8x64x8 FP16 with an Inf (NUMERIC)", 8, 64, 8, KTPU_FMT_FP16, 0, KTPU_JOBST_NUMERIC, 1, 0, 0, 0, 0, 0, 0, 0},
        /* quantise-on-upload: many tiles reading the MXFP7 copies (uniform,
         * and not), an Inf named by its block's address, the agent refusing
         * a scratch region outside DRAM */
        {"16x96x12 FP16, ACC 2, L1 8: quantised on upload", 16, 96, 12, KTPU_FMT_FP16, 0, KTPU_JOBST_DONE, 0, 0, 0, 8, 2, 0, 0, 1},
        {"16x32x16 FP16, ACC 4, L1 16: uniform, quantised on upload", 16, 32, 16, KTPU_FMT_FP16, 0, KTPU_JOBST_DONE, 0, 0, 0, 16, 4, 0, 0, 1},
        {"24x64x20 FP16, 1 cluster, ACC 4: quantised on upload", 24, 64, 20, KTPU_FMT_FP16, 1, KTPU_JOBST_DONE, 0, 0, 0, 0, 4, 0, 0, 1},
        {"8x64x8 FP16 with an Inf, ACC 1: quantised on upload (NUMERIC)", 8, 64, 8, KTPU_FMT_FP16, 0, KTPU_JOBST_NUMERIC, 1, 0, 0, 0, 1, 0, 0, 1},
        {"scratch past DRAM, window check off (HWERR)", 8, 64, 8, KTPU_FMT_FP16, 0, KTPU_JOBST_HWERR, 0, 0, 0, 0, 1, 0, 0, 2},
        {"bad magic", 8, 32, 8, KTPU_FMT_FP16, 0, KTPU_JOBST_BADJOB, 0, 1, 0, 0, 0, 0, 0, 0},
        {"K = 48", 8, 32, 8, KTPU_FMT_FP16, 0, KTPU_JOBST_BADJOB, 0, 2, 0, 0, 0, 0, 0, 0},
        {"C over the job block", 8, 32, 8, KTPU_FMT_FP16, 0, KTPU_JOBST_BADJOB, 0, 3, 0, 0, 0, 0, 0, 0},
        {"C over A", 8, 32, 8, KTPU_FMT_FP16, 0, KTPU_JOBST_BADJOB, 0, 5, 0, 0, 0, 0, 0, 0},
        {"C over BT", 8, 32, 8, KTPU_FMT_MX, 0, KTPU_JOBST_BADJOB, 0, 6, 0, 0, 0, 0, 0, 0},
        {"A outside the window (BADJOB)", 8, 32, 8, KTPU_FMT_FP16, 0, KTPU_JOBST_BADJOB, 0, 7, 0, 0, 0, 0, 0, 0},
        {"A outside DRAM, window check off (HWERR)", 8, 32, 8, KTPU_FMT_FP16, 1, KTPU_JOBST_HWERR, 0, 4, 0, 0, 0, 0, 0, 0},
        /* two tiles (ACC 2), the second past DRAM: its GEMM asked for a
         * CL_WRITTEN, which names the refusal (a single plan's does not ask:
         * its STATUS's WRERR would say it, OP = STATUS) */
        {"C past DRAM, window check off (HWERR)", 8, 32, 8, KTPU_FMT_MX, 1, KTPU_JOBST_HWERR, 0, 8, 0, 0, 2, 0, 0, 0},
        {"after the errors, 8x32x8 MXFP7", 8, 32, 8, KTPU_FMT_MX, 0, KTPU_JOBST_DONE, 0, 0, 0, 0, 0, 0, 0, 0},
        /* last: the stuck cluster stays stuck */
        {"a stuck cluster (TIMEOUT)", 8, 32, 8, KTPU_FMT_FP16, 0, KTPU_JOBST_TIMEOUT, 0, 0, 1, 0, 0, 0, 0, 0},
    };
    int found = ktpu_gemm_init();
    present = found > 0 ? (unsigned)found : 0;
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i], 1 + i);
    printf("gemm selftest: %u checks, %u failed\n", checks, fails);
    return fails > 100 ? 100 : (int)fails;
}
