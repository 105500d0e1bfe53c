/* Host test of the GEMM job block's check (firmware/gemm/ktpu_job.c, the
 * code the firmware runs; rules in docs/gemm.md "The job block").
 *
 * - every rule that refuses a block, with one crafted block each: the rule
 *   named and the value reported must be exactly the ones expected;
 * - both sides of every limit: M, N at 4 / 65536 / 65540, K at 32 / 2^20,
 *   strides of exactly a row and 32 (or 8) bytes less, A, BT and C ending
 *   exactly at 4 GiB and one alignment step past, C ending exactly where A
 *   or BT starts and one step into it, C in the gaps of a wide A stride;
 * - 64-bit wrap attempts: strides like 0xFFFFFFE0 with many rows, built so
 *   that the end computed in 32 bits would wrap to a small plausible value;
 * - each operand against the memory window: starting at its base and one
 *   step below, ending at its limit and one step past;
 * - JOB_CLUSTERS 0, present, present + 1, and above max_clusters;
 * - good blocks (FP16 and MX) accepted, with the cluster count expected;
 * - random blocks near the limits: accepted exactly when the independent
 *   model (tests/fw/job_inv.c) says the words are valid.
 * Usage: job_test [--quiet]. Exit 0 only if every check passed; the last
 * line is "job check: N checks, N failed". */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "job_inv.h"
#include "ktpu_defs.h"
#include "ktpu_job.h"

static long checks, fails;
static int verbose = 1;

#define CHECK(c, ...)                         \
    do {                                      \
        checks++;                             \
        if (!(c)) {                           \
            fails++;                          \
            if (fails <= 20) {                \
                printf("FAIL line %d: ", __LINE__); \
                printf(__VA_ARGS__);          \
                printf("\n");                 \
            }                                 \
        }                                     \
    } while (0)

#define GIB4 0x100000000ull
#define MAXC 5u   /* KTPU_GEMM_MAX_CLUSTERS: the job block's counter slots */

/* the rule names, as the firmware prints them */
#define R_MAGIC "magic is not JOB_MAGIC"
#define R_M "M must be a multiple of 4 in 4..65536"
#define R_N "N must be a multiple of 4 in 4..65536"
#define R_K "K must be a multiple of 32 in 32..2^20"
#define R_FMT "FLAGS.FMT is neither FP16 nor MX"
#define R_RSV "FLAGS has reserved bits set"
#define R_ABASE "A base not a multiple of 32"
#define R_BBASE "BT base not a multiple of 32"
#define R_CBASE "C base not a multiple of 8"
#define R_ASTR "A stride not a multiple of 32 of at least a row"
#define R_BSTR "BT stride not a multiple of 32 of at least a row"
#define R_CSTR "C stride not a multiple of 8 of at least a row"
#define R_A4G "A extends past 4 GiB"
#define R_B4G "BT extends past 4 GiB"
#define R_C4G "C extends past 4 GiB"
#define R_CJOB "C overlaps the job block"
#define R_CA "C overlaps A"
#define R_CB "C overlaps BT"
#define R_NOCL "no clusters in SOC_KINDS0/1"
#define R_CL "JOB_CLUSTERS is more than the clusters present"
#define R_SLOTS "JOB_CLUSTERS is more than the job block's counter slots"
#define R_AWIN "A outside the memory window"
#define R_BWIN "BT outside the memory window"
#define R_CWIN "C outside the memory window"
#define R_QMX "FLAGS.QJOB with FMT MX (it quantises FP16 operands)"
#define R_SALIGN "scratch base not a multiple of 32"
#define R_S4G "scratch extends past 4 GiB"
#define R_SWIN "scratch outside the memory window"
#define R_SJOB "scratch overlaps the job block"
#define R_SA "scratch overlaps A"
#define R_SB "scratch overlaps BT"
#define R_SC "scratch overlaps C"

/* the memory window the checks below run against (all of 4 GiB unless a
 * test narrows it) */
static uint32_t win_base;
static uint64_t win_limit = GIB4;

struct job { uint32_t w[KTPU_JOB_REQ_WORDS]; };

/* M x K times N x K, tightly packed rows, A, BT and C far apart */
static struct job job(uint32_t m, uint32_t n, uint32_t k, uint32_t fmt)
{
    struct job j;
    uint32_t row = fmt == KTPU_FMT_MX ? k : 2 * k;
    memset(&j, 0, sizeof j);
    j.w[KTPU_JOB_MAGIC_WORD] = KTPU_JOB_MAGIC;
    j.w[KTPU_JOB_M_WORD] = m;
    j.w[KTPU_JOB_N_WORD] = n;
    j.w[KTPU_JOB_K_WORD] = k;
    j.w[KTPU_JOB_A_WORD] = 0x00010000u;
    j.w[KTPU_JOB_A_STRIDE_WORD] = row;
    j.w[KTPU_JOB_B_WORD] = 0x40000000u;
    j.w[KTPU_JOB_B_STRIDE_WORD] = row;
    j.w[KTPU_JOB_C_WORD] = 0x80000000u;
    j.w[KTPU_JOB_C_STRIDE_WORD] = 2 * n;
    j.w[KTPU_JOB_FLAGS_WORD] = fmt;
    j.w[KTPU_JOB_CLUSTERS_WORD] = 0;
    return j;
}

static void set(struct job *j, unsigned word, uint32_t v) { j->w[word] = v; }

/* A job the check accepted is one the planner takes without its own
 * checks (ktpu_job_plan_cfg sets checked): so its own checks, run here,
 * must pass on it. */
static long planned;
static void plannable(int line, const char *what, const struct job *j, unsigned ncl)
{
    struct ktpu_plan_cfg cfg;
    struct ktpu_plan p;
    ktpu_job_plan_cfg(j->w, ncl, &cfg);
    cfg.checked = 0;
    enum ktpu_plan_err e = ktpu_plan_init(&p, &cfg);
    CHECK(e == KTPU_PLAN_OK, "line %d: %s: accepted, but the planner's own checks say: %s", line, what,
          ktpu_plan_err_name(e));
    planned++;
}

static void ok_(int line, const char *what, const struct job *j, unsigned present, unsigned maxc,
                unsigned want_ncl)
{
    unsigned ncl = 12345;
    uint32_t v = 0;
    struct ktpu_job_env env = {present, maxc, win_base, win_limit};
    const char *why = ktpu_job_check(j->w, &env, &ncl, &v);
    checks++;
    if (why || ncl != want_ncl) {
        fails++;
        if (fails <= 20)
            printf("FAIL line %d: %s: want accepted on %u clusters, got %s (value 0x%08x), ncl %u\n",
                   line, what, want_ncl, why ? why : "accepted", (unsigned)v, ncl);
    } else if (verbose > 1) {
        printf("ok   %s\n", what);
    }
    /* the second model agrees on every block this test accepts */
    const char *inv = ktpu_job_invariant(j->w, win_base, win_limit);
    CHECK(!inv, "line %d: %s: accepted, but the model says: %s", line, what, inv);
    if (!why) plannable(line, what, j, ncl);
}

static void bad_(int line, const char *what, const struct job *j, unsigned present, const char *rule,
                 uint32_t value)
{
    unsigned ncl = 0;
    uint32_t v = 0xDEADBEEFu;
    struct ktpu_job_env env = {present, MAXC, win_base, win_limit};
    const char *why = ktpu_job_check(j->w, &env, &ncl, &v);
    checks++;
    if (!why || strcmp(why, rule) != 0 || v != value) {
        fails++;
        if (fails <= 20)
            printf("FAIL line %d: %s: want '%s' (value 0x%08x), got '%s' (value 0x%08x)\n", line, what,
                   rule, (unsigned)value, why ? why : "accepted", (unsigned)v);
    } else if (verbose > 1) {
        printf("ok   %s: %s\n", what, why);
    }
}

#define OK(what, j, present, want) ok_(__LINE__, what, j, present, MAXC, want)
#define BAD(what, j, rule, value) bad_(__LINE__, what, j, 2, rule, value)

static void test_rules(void)
{
    struct job j;

    j = job(64, 64, 64, KTPU_FMT_FP16);
    OK("good FP16 64x64x64", &j, 2, 2);
    j = job(64, 64, 64, KTPU_FMT_MX);
    OK("good MX 64x64x64", &j, 2, 2);

    j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_MAGIC_WORD, KTPU_JOB_MAGIC ^ 1u);
    BAD("magic one bit off", &j, R_MAGIC, KTPU_JOB_MAGIC ^ 1u);
    set(&j, KTPU_JOB_MAGIC_WORD, 0);
    BAD("magic 0", &j, R_MAGIC, 0);

    /* M, N: multiples of 4 in 4..65536 */
    static const uint32_t bad_mn[] = {0, 1, 2, 3, 5, 6, 65537, 65538, 65540, 0x10000004u, 0xFFFFFFFCu};
    for (unsigned i = 0; i < sizeof bad_mn / sizeof bad_mn[0]; i++) {
        j = job(64, 64, 64, KTPU_FMT_FP16);
        set(&j, KTPU_JOB_M_WORD, bad_mn[i]);
        BAD("M out of its set", &j, R_M, bad_mn[i]);
        j = job(64, 64, 64, KTPU_FMT_FP16);
        set(&j, KTPU_JOB_N_WORD, bad_mn[i]);
        BAD("N out of its set", &j, R_N, bad_mn[i]);
    }
    j = job(4, 4, 32, KTPU_FMT_FP16);
    OK("M = N = 4, K = 32", &j, 1, 1);
    j = job(65536, 64, 64, KTPU_FMT_FP16);
    OK("M = 65536", &j, 2, 2);
    j = job(65540, 64, 64, KTPU_FMT_FP16);
    BAD("M = 65540", &j, R_M, 65540);
    j = job(64, 65536, 64, KTPU_FMT_FP16);
    OK("N = 65536", &j, 2, 2);
    j = job(64, 65540, 64, KTPU_FMT_FP16);
    BAD("N = 65540", &j, R_N, 65540);
    j = job(65536, 16384, 64, KTPU_FMT_MX);
    set(&j, KTPU_JOB_C_WORD, 0x40000000u);
    set(&j, KTPU_JOB_B_WORD, 0x20000000u);
    OK("M = 65536, N = 16384: C of 2 GiB", &j, 2, 2);
    j = job(65536, 65536, 64, KTPU_FMT_MX);
    BAD("M = N = 65536: C of 8 GiB", &j, R_C4G, 0x80000000u);

    /* K: a multiple of 32 in 32..2^20 */
    static const uint32_t bad_k[] = {0, 1, 16, 31, 33, 48, (1u << 20) + 32, (1u << 20) + 1, 1u << 21,
                                     0xFFFFFFE0u};
    for (unsigned i = 0; i < sizeof bad_k / sizeof bad_k[0]; i++) {
        j = job(64, 64, 64, KTPU_FMT_FP16);
        set(&j, KTPU_JOB_K_WORD, bad_k[i]);
        BAD("K out of its set", &j, R_K, bad_k[i]);
    }
    j = job(4, 4, 1u << 20, KTPU_FMT_FP16);
    OK("K = 2^20 FP16 (2 MiB rows)", &j, 2, 2);
    j = job(64, 64, 1u << 20, KTPU_FMT_MX);
    OK("K = 2^20 MX", &j, 2, 2);

    /* FMT: FP16 or MX; TILE_MBOX is independent of it */
    for (uint32_t f = 2; f < 4; f++) {
        j = job(64, 64, 64, KTPU_FMT_FP16);
        set(&j, KTPU_JOB_FLAGS_WORD, f);
        BAD("FMT 2 or 3", &j, R_FMT, f);
        set(&j, KTPU_JOB_FLAGS_WORD, f | KTPU_JOB_FLAGS_TILE_MBOX_MASK);
        BAD("FMT 2 or 3 with TILE_MBOX", &j, R_FMT, f);
    }
    j = job(64, 64, 64, KTPU_FMT_MX);
    set(&j, KTPU_JOB_FLAGS_WORD, KTPU_FMT_MX | KTPU_JOB_FLAGS_TILE_MBOX_MASK);
    OK("MX with TILE_MBOX", &j, 2, 2);
    set(&j, KTPU_JOB_FLAGS_WORD, KTPU_FMT_MX | KTPU_JOB_FLAGS_TILE_MBOX_MASK | KTPU_JOB_FLAGS_NO_SPLIT_MASK);
    OK("MX with TILE_MBOX and NO_SPLIT", &j, 2, 2);
    /* bits above QJOB are reserved: refused, not ignored */
    for (unsigned bit = 5; bit < 32; bit += 6) {
        j = job(64, 64, 64, KTPU_FMT_MX);
        set(&j, KTPU_JOB_FLAGS_WORD, KTPU_FMT_MX | 1u << bit);
        BAD("a reserved FLAGS bit", &j, R_RSV, KTPU_FMT_MX | 1u << bit);
    }
    j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_FLAGS_WORD, 1u << 31);
    BAD("FLAGS bit 31", &j, R_RSV, 1u << 31);

    /* base alignment */
    static const uint32_t off32[] = {1, 8, 16, 31};
    for (unsigned i = 0; i < 4; i++) {
        j = job(64, 64, 64, KTPU_FMT_FP16);
        set(&j, KTPU_JOB_A_WORD, 0x00010000u + off32[i]);
        BAD("A base misaligned", &j, R_ABASE, 0x00010000u + off32[i]);
        j = job(64, 64, 64, KTPU_FMT_FP16);
        set(&j, KTPU_JOB_B_WORD, 0x40000000u + off32[i]);
        BAD("BT base misaligned", &j, R_BBASE, 0x40000000u + off32[i]);
    }
    static const uint32_t off8[] = {1, 2, 4, 7};
    for (unsigned i = 0; i < 4; i++) {
        j = job(64, 64, 64, KTPU_FMT_FP16);
        set(&j, KTPU_JOB_C_WORD, 0x80000000u + off8[i]);
        BAD("C base misaligned", &j, R_CBASE, 0x80000000u + off8[i]);
    }
    j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_C_WORD, 0x80000008u);
    OK("C base a multiple of 8, not of 32", &j, 2, 2);

    /* strides: aligned and at least a row (FP16 row = 2K bytes, MX row = K) */
    j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_A_STRIDE_WORD, 96);
    BAD("A stride a row less 32 (FP16)", &j, R_ASTR, 96);
    set(&j, KTPU_JOB_A_STRIDE_WORD, 144);
    BAD("A stride not a multiple of 32", &j, R_ASTR, 144);
    set(&j, KTPU_JOB_A_STRIDE_WORD, 0);
    BAD("A stride 0", &j, R_ASTR, 0);
    set(&j, KTPU_JOB_A_STRIDE_WORD, 160);
    OK("A stride a row + 32", &j, 2, 2);
    j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_B_STRIDE_WORD, 96);
    BAD("BT stride a row less 32 (FP16)", &j, R_BSTR, 96);
    set(&j, KTPU_JOB_B_STRIDE_WORD, 130);
    BAD("BT stride not a multiple of 32", &j, R_BSTR, 130);
    j = job(64, 64, 64, KTPU_FMT_MX);
    OK("MX strides exactly K bytes", &j, 2, 2);
    set(&j, KTPU_JOB_A_STRIDE_WORD, 32);
    BAD("A stride a row less 32 (MX)", &j, R_ASTR, 32);
    j = job(64, 64, 64, KTPU_FMT_MX);
    set(&j, KTPU_JOB_B_STRIDE_WORD, 32);
    BAD("BT stride a row less 32 (MX)", &j, R_BSTR, 32);
    j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_C_STRIDE_WORD, 120);
    BAD("C stride a row less 8", &j, R_CSTR, 120);
    set(&j, KTPU_JOB_C_STRIDE_WORD, 132);
    BAD("C stride not a multiple of 8", &j, R_CSTR, 132);
    set(&j, KTPU_JOB_C_STRIDE_WORD, 136);
    OK("C stride a row + 8", &j, 2, 2);
}

static void test_4gib(void)
{
    struct job j;
    /* each operand ending exactly at 4 GiB, then one alignment step past */
    const uint32_t abytes = 63 * 128 + 128;   /* 64 rows of 128 bytes */
    j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_A_WORD, (uint32_t)(GIB4 - abytes));
    OK("A ends at 4 GiB", &j, 2, 2);
    set(&j, KTPU_JOB_A_WORD, (uint32_t)(GIB4 - abytes + 32));
    BAD("A ends 32 past 4 GiB", &j, R_A4G, (uint32_t)(GIB4 - abytes + 32));
    set(&j, KTPU_JOB_A_WORD, (uint32_t)(GIB4 - abytes));
    set(&j, KTPU_JOB_A_STRIDE_WORD, 160);
    BAD("A, a stride 32 longer, ends past 4 GiB", &j, R_A4G, (uint32_t)(GIB4 - abytes));

    j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_B_WORD, (uint32_t)(GIB4 - abytes));
    OK("BT ends at 4 GiB", &j, 2, 2);
    set(&j, KTPU_JOB_B_WORD, (uint32_t)(GIB4 - abytes + 32));
    BAD("BT ends 32 past 4 GiB", &j, R_B4G, (uint32_t)(GIB4 - abytes + 32));

    j = job(64, 64, 64, KTPU_FMT_FP16);   /* C: 64 rows of 128 bytes */
    set(&j, KTPU_JOB_C_WORD, (uint32_t)(GIB4 - 64 * 128));
    OK("C ends at 4 GiB", &j, 2, 2);
    set(&j, KTPU_JOB_C_WORD, (uint32_t)(GIB4 - 64 * 128 + 8));
    BAD("C ends 8 past 4 GiB", &j, R_C4G, (uint32_t)(GIB4 - 64 * 128 + 8));

    /* the largest A: K = 2^20 FP16, M = 2048 rows of 2 MiB = 4 GiB from 0 */
    j = job(2048, 4, 1u << 20, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_A_WORD, 0);
    set(&j, KTPU_JOB_B_WORD, 0);   /* BT inside A: both are only read */
    set(&j, KTPU_JOB_C_WORD, 0);   /* C at 0 overlaps the job block first */
    BAD("C at 0", &j, R_CJOB, 0);
    j = job(2048, 4, 1u << 20, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_A_WORD, 0);
    set(&j, KTPU_JOB_B_WORD, 0);
    BAD("A is all of the 4 GiB: C overlaps it wherever it is", &j, R_CA, 0x80000000u);
    set(&j, KTPU_JOB_A_STRIDE_WORD, (1u << 21) + 32);
    BAD("A a stride 32 longer than the whole-memory A", &j, R_A4G, 0);
}

/* Strides near 2^32 with many rows: in 32 bits, base + (rows-1)*stride + row
 * wraps to a small value (here just past the base, or below it); in 64 bits
 * it is far beyond 4 GiB. 65535 * 0xFFFFFFE0 = 2^32 * 65535 - 0x1FFFE0, so a
 * base of 0x200000 makes the 32-bit end 0x20 + row. */
static void test_wrap(void)
{
    struct job j;
    j = job(65536, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_A_WORD, 0x00200000u);
    set(&j, KTPU_JOB_A_STRIDE_WORD, 0xFFFFFFE0u);
    BAD("A stride 0xFFFFFFE0, M = 65536", &j, R_A4G, 0x00200000u);
    j = job(64, 65536, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_B_WORD, 0x00200000u);
    set(&j, KTPU_JOB_B_STRIDE_WORD, 0xFFFFFFE0u);
    BAD("BT stride 0xFFFFFFE0, N = 65536", &j, R_B4G, 0x00200000u);
    /* C: 65535 * 0xFFFFFFF8 = 2^32 * 65535 - 0x7FFF8 */
    j = job(65536, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_A_WORD, 0x40000000u);
    set(&j, KTPU_JOB_C_WORD, 0x00080000u);
    set(&j, KTPU_JOB_C_STRIDE_WORD, 0xFFFFFFF8u);
    BAD("C stride 0xFFFFFFF8, M = 65536", &j, R_C4G, 0x00080000u);
    /* 3 * 0x55555560 = 2^32 + 0x20: a product alone wrapped to 32 bits is
     * 0x20, so A, BT or C of 4 rows would seem to end just past its first */
    j = job(4, 4, 32, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_A_STRIDE_WORD, 0x55555560u);
    BAD("A stride 0x55555560, M = 4", &j, R_A4G, 0x00010000u);
    j = job(4, 4, 32, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_B_STRIDE_WORD, 0x55555560u);
    BAD("BT stride 0x55555560, N = 4", &j, R_B4G, 0x40000000u);
    j = job(4, 4, 32, KTPU_FMT_FP16);   /* 3 * 0x55555558 = 2^32 + 8 */
    set(&j, KTPU_JOB_C_WORD, 0x00000100u);
    set(&j, KTPU_JOB_C_STRIDE_WORD, 0x55555558u);
    BAD("C stride 0x55555558, M = 4", &j, R_C4G, 0x00000100u);
    /* two rows, the second one stride 2^32 - 32 on: wraps to 32 below the first */
    j = job(4, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_A_WORD, 0x00010000u);
    set(&j, KTPU_JOB_A_STRIDE_WORD, 0xFFFFFFE0u);
    BAD("A stride 0xFFFFFFE0, M = 4", &j, R_A4G, 0x00010000u);
    /* the largest of everything: every product is above 2^32 */
    j = job(65536, 65536, 1u << 20, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_A_STRIDE_WORD, 0xFFFFFFE0u);
    set(&j, KTPU_JOB_B_STRIDE_WORD, 0xFFFFFFE0u);
    set(&j, KTPU_JOB_C_STRIDE_WORD, 0xFFFFFFF8u);
    BAD("every stride and dimension at its largest", &j, R_A4G, 0x00010000u);
    /* a C stride that wraps C's last row onto the job block */
    j = job(8, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_C_WORD, 0x20000000u);
    set(&j, KTPU_JOB_C_STRIDE_WORD, 0x20000000u);
    BAD("C's 7 rows of stride 2^29 from 2^29 end past 4 GiB", &j, R_C4G, 0x20000000u);
}

/* C against the job block, A and BT: half-open ranges */
static void test_overlap(void)
{
    struct job j;
    const uint32_t cbytes = 64 * 128;   /* C of 64 x 64: 64 rows of 128 bytes */
    const uint32_t abytes = 64 * 128;   /* A of 64 x 64 FP16 */
    const uint32_t a0 = 0x00010000u, b0 = 0x40000000u;

    j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_C_WORD, KTPU_JOB_OFFSET + KTPU_JOB_BYTES);
    OK("C right after the job block", &j, 2, 2);
    set(&j, KTPU_JOB_C_WORD, KTPU_JOB_OFFSET + KTPU_JOB_BYTES - 8);
    BAD("C 8 bytes into the job block", &j, R_CJOB, KTPU_JOB_OFFSET + KTPU_JOB_BYTES - 8);
    set(&j, KTPU_JOB_C_WORD, KTPU_JOB_OFFSET);
    BAD("C on the job block", &j, R_CJOB, KTPU_JOB_OFFSET);

    j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_C_WORD, a0 - cbytes);
    OK("C ends exactly where A starts", &j, 2, 2);
    set(&j, KTPU_JOB_C_WORD, a0 - cbytes + 8);
    BAD("C 8 bytes into A's start", &j, R_CA, a0 - cbytes + 8);
    set(&j, KTPU_JOB_C_WORD, a0 + abytes);
    OK("C starts exactly where A ends", &j, 2, 2);
    set(&j, KTPU_JOB_C_WORD, a0 + abytes - 8);
    BAD("C starts 8 bytes before A ends", &j, R_CA, a0 + abytes - 8);
    set(&j, KTPU_JOB_C_WORD, a0);
    BAD("C on A", &j, R_CA, a0);
    /* A inside C's range */
    set(&j, KTPU_JOB_C_WORD, a0 - 256);
    set(&j, KTPU_JOB_C_STRIDE_WORD, 1024);
    BAD("A inside C's range", &j, R_CA, a0 - 256);
    /* C's rows in the gaps of A's rows: refused whatever the interleave */
    j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_A_STRIDE_WORD, 256);
    set(&j, KTPU_JOB_C_WORD, a0 + 128);
    set(&j, KTPU_JOB_C_STRIDE_WORD, 256);
    BAD("C rows in A's stride gaps", &j, R_CA, a0 + 128);
    /* the last row of A is one row (128 bytes), not a stride: C right after it */
    set(&j, KTPU_JOB_C_WORD, a0 + 63 * 256 + 128);
    set(&j, KTPU_JOB_C_STRIDE_WORD, 128);
    OK("C right after A's last row (not its last stride)", &j, 2, 2);

    j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_C_WORD, b0 - cbytes);
    OK("C ends exactly where BT starts", &j, 2, 2);
    set(&j, KTPU_JOB_C_WORD, b0 - cbytes + 8);
    BAD("C 8 bytes into BT's start", &j, R_CB, b0 - cbytes + 8);
    set(&j, KTPU_JOB_C_WORD, b0 + abytes);
    OK("C starts exactly where BT ends", &j, 2, 2);
    set(&j, KTPU_JOB_C_WORD, b0 + abytes - 8);
    BAD("C starts 8 bytes before BT ends", &j, R_CB, b0 + abytes - 8);

    /* A and BT may share bytes: both are only read (A times A transposed) */
    j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_B_WORD, a0);
    OK("BT is A", &j, 2, 2);
    set(&j, KTPU_JOB_B_WORD, a0 + 32);
    OK("BT overlaps A", &j, 2, 2);
    /* an MX C range is still FP16: 2N bytes a row */
    j = job(64, 64, 64, KTPU_FMT_MX);
    set(&j, KTPU_JOB_C_WORD, a0 - cbytes + 8);
    BAD("MX: C 8 bytes into A", &j, R_CA, a0 - cbytes + 8);
    set(&j, KTPU_JOB_C_WORD, a0 + 64 * 64);
    OK("MX: C right after A's K-byte rows", &j, 2, 2);
}

/* JOB_CLUSTERS against the clusters present and the slots the block has */
static void test_clusters(void)
{
    struct job j = job(64, 64, 64, KTPU_FMT_FP16);
    for (unsigned present = 1; present <= 4; present++) {
        set(&j, KTPU_JOB_CLUSTERS_WORD, 0);
        OK("JOB_CLUSTERS 0 = all present", &j, present, present);
        set(&j, KTPU_JOB_CLUSTERS_WORD, present);
        OK("JOB_CLUSTERS = present", &j, present, present);
        set(&j, KTPU_JOB_CLUSTERS_WORD, 1);
        OK("JOB_CLUSTERS 1", &j, present, 1);
        set(&j, KTPU_JOB_CLUSTERS_WORD, present + 1);
        bad_(__LINE__, "JOB_CLUSTERS = present + 1", &j, present, R_CL, present + 1);
    }
    set(&j, KTPU_JOB_CLUSTERS_WORD, 0xFFFFFFFFu);
    BAD("JOB_CLUSTERS 2^32 - 1", &j, R_CL, 0xFFFFFFFFu);
    set(&j, KTPU_JOB_CLUSTERS_WORD, 0);
    bad_(__LINE__, "no clusters present", &j, 0, R_NOCL, 0);
    set(&j, KTPU_JOB_CLUSTERS_WORD, 1);
    bad_(__LINE__, "no clusters present, 1 asked", &j, 0, R_NOCL, 0);
    /* more clusters present than the block has counter slots: at most MAXC */
    set(&j, KTPU_JOB_CLUSTERS_WORD, 0);
    ok_(__LINE__, "8 present, all asked", &j, 8, MAXC, MAXC);
    set(&j, KTPU_JOB_CLUSTERS_WORD, 7);
    bad_(__LINE__, "8 present, 7 asked", &j, 8, R_SLOTS, 7);
    set(&j, KTPU_JOB_CLUSTERS_WORD, MAXC + 1);
    bad_(__LINE__, "8 present, MAXC + 1 asked", &j, 8, R_SLOTS, MAXC + 1);
    set(&j, KTPU_JOB_CLUSTERS_WORD, MAXC);
    ok_(__LINE__, "8 present, MAXC asked", &j, 8, MAXC, MAXC);
    set(&j, KTPU_JOB_CLUSTERS_WORD, 3);
    ok_(__LINE__, "8 present, 3 asked", &j, 8, MAXC, 3);
    /* a shape rule is reported before the cluster rules */
    set(&j, KTPU_JOB_M_WORD, 2);
    bad_(__LINE__, "bad M and no clusters", &j, 0, R_M, 2);
}

/* Each operand against the window: A, BT and C placed in every order, the
 * window exactly around them, then its base one byte (and 32) above the
 * lowest operand and its limit one byte (and 32) short of the highest:
 * only that operand is outside, and it is the one named. */
static void test_window(void)
{
    static const char *const rule[3] = {R_AWIN, R_BWIN, R_CWIN};
    static const unsigned word[3] = {KTPU_JOB_A_WORD, KTPU_JOB_B_WORD, KTPU_JOB_C_WORD};
    static const uint32_t place[3] = {0x00010000u, 0x40000000u, 0x80000000u};
    static const unsigned perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    for (uint32_t fmt = 0; fmt < 2; fmt++)
        for (unsigned p = 0; p < 6; p++) {
            struct job j = job(64, 64, 64, fmt ? KTPU_FMT_MX : KTPU_FMT_FP16);
            uint64_t row[3] = {fmt ? 64 : 128, fmt ? 64 : 128, 128};   /* A, BT, C row bytes */
            uint64_t lo[3], hi[3];
            unsigned low = 0, high = 0;
            for (unsigned o = 0; o < 3; o++) {
                set(&j, word[o], place[perm[p][o]]);
                lo[o] = place[perm[p][o]];
                hi[o] = lo[o] + 64 * row[o];
                if (lo[o] < lo[low]) low = o;
                if (hi[o] > hi[high]) high = o;
            }
            win_base = (uint32_t)lo[low];
            win_limit = hi[high];
            OK("window exactly around A, BT and C", &j, 2, 2);
            for (uint32_t step = 1; step <= 32; step += 31) {
                win_base = (uint32_t)lo[low] + step;
                BAD("window base above the lowest operand", &j, rule[low], j.w[word[low]]);
                win_base = (uint32_t)lo[low];
                win_limit = hi[high] - step;
                BAD("window limit short of the highest operand", &j, rule[high], j.w[word[high]]);
                win_limit = hi[high];
            }
        }
    win_base = 0;
    win_limit = GIB4;
}

/* FLAGS.QJOB's scratch region: FP16 only, aligned, within 4 GiB and the
 * window, clear of the job block, A, BT and C (each edge: adjacent is
 * accepted, 32 bytes into it refused); without the flag its words are not
 * looked at. */
static void test_scratch(void)
{
    const uint32_t a0 = 0x00010000u, b0 = 0x40000000u, c0 = 0x80000000u, op = 64 * 128;   /* 64 x 64 FP16 */
    const uint32_t sb = 128 * 64;   /* the copies of A and BT: (M + N) x K bytes */
    struct job j = job(64, 64, 64, KTPU_FMT_FP16);
    set(&j, KTPU_JOB_SCRATCH_WORD, 0xFFFFFFF0u);   /* garbage, and no QJOB: not looked at */
    set(&j, KTPU_JOB_SCRATCH_BYTES_WORD, 0xFFFFFFFFu);
    OK("scratch words without FLAGS.QJOB", &j, 2, 2);
    set(&j, KTPU_JOB_FLAGS_WORD, KTPU_FMT_FP16 | KTPU_JOB_FLAGS_QJOB_MASK);
    set(&j, KTPU_JOB_SCRATCH_WORD, 0x20000000u);
    set(&j, KTPU_JOB_SCRATCH_BYTES_WORD, sb);
    OK("a scratch region apart from everything", &j, 2, 2);
    set(&j, KTPU_JOB_SCRATCH_BYTES_WORD, 0);
    OK("an empty scratch region (no upload)", &j, 2, 2);
    set(&j, KTPU_JOB_SCRATCH_BYTES_WORD, sb);
    set(&j, KTPU_JOB_SCRATCH_WORD, 0x20000010u);
    BAD("scratch base 16 bytes off", &j, R_SALIGN, 0x20000010u);
    set(&j, KTPU_JOB_SCRATCH_WORD, (uint32_t)(GIB4 - sb));
    OK("scratch ending at 4 GiB", &j, 2, 2);
    set(&j, KTPU_JOB_SCRATCH_WORD, (uint32_t)(GIB4 - sb + 32));
    BAD("scratch 32 bytes past 4 GiB", &j, R_S4G, (uint32_t)(GIB4 - sb + 32));
    struct { uint32_t lo, hi; const char *rule; } around[] = {
        {KTPU_JOB_OFFSET, KTPU_JOB_OFFSET + KTPU_JOB_BYTES, R_SJOB},
        {a0, a0 + op, R_SA}, {b0, b0 + op, R_SB}, {c0, c0 + op, R_SC}};
    for (unsigned i = 0; i < 4; i++) {
        if (around[i].lo >= sb) {
            set(&j, KTPU_JOB_SCRATCH_WORD, around[i].lo - sb);
            OK("scratch ending where a region starts", &j, 2, 2);
            set(&j, KTPU_JOB_SCRATCH_WORD, around[i].lo - sb + 32);
            BAD("scratch 32 bytes into a region's start", &j, around[i].rule, around[i].lo - sb + 32);
        }
        set(&j, KTPU_JOB_SCRATCH_WORD, around[i].hi);
        OK("scratch starting where a region ends", &j, 2, 2);
        set(&j, KTPU_JOB_SCRATCH_WORD, around[i].hi - 32);
        BAD("scratch starting 32 bytes before a region ends", &j, around[i].rule, around[i].hi - 32);
    }
    set(&j, KTPU_JOB_SCRATCH_WORD, c0 + op);
    win_base = a0;
    win_limit = c0 + op + sb;
    OK("a window ending where the scratch region ends", &j, 2, 2);
    win_limit -= 32;
    BAD("a window ending 32 bytes short of the scratch region", &j, R_SWIN, c0 + op);
    set(&j, KTPU_JOB_SCRATCH_WORD, 0);
    win_base = 0;
    win_limit = c0 + op + sb;
    set(&j, KTPU_JOB_C_WORD, 0x20000000u);
    BAD("scratch at 0, over the job block", &j, R_SJOB, 0);
    win_base = 0;
    win_limit = GIB4;
    j = job(64, 64, 64, KTPU_FMT_MX);
    set(&j, KTPU_JOB_FLAGS_WORD, KTPU_FMT_MX | KTPU_JOB_FLAGS_QJOB_MASK);
    set(&j, KTPU_JOB_SCRATCH_WORD, 0x20000000u);
    set(&j, KTPU_JOB_SCRATCH_BYTES_WORD, sb);
    BAD("QJOB with pre-quantised operands", &j, R_QMX, KTPU_FMT_MX | KTPU_JOB_FLAGS_QJOB_MASK);
}

static uint32_t rng = 0x1234567u;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* One random block against both models: the check and the second model
 * (job_inv.c) agree on it, and an accepted one plans. Returns 1 if
 * accepted. */
static int agree(const char *what, int t, const struct job *j, const struct ktpu_job_env *env)
{
    unsigned ncl = 0;
    uint32_t v = 0;
    const char *why = ktpu_job_check(j->w, env, &ncl, &v);
    const char *inv = ktpu_job_invariant(j->w, env->win_base, env->win_limit);
    if (!why) plannable(__LINE__, what, j, ncl);
    CHECK(!why == !inv, "%s %d: check says %s, model says %s", what, t, why ? why : "accepted", inv ? inv : "valid");
    return !why;
}

/* A value near one of the limits that matter for word w. */
static uint32_t near(unsigned w)
{
    static const uint32_t edge[] = {0, 4, 32, 256, 65536, 1u << 20, 1u << 21, 1u << 31,
                                    0xFFFFFFE0u, 0xFFFF0000u};
    uint32_t r = rnd();
    switch (r % 4) {
    case 0: return edge[rnd() % 10] + (uint32_t)(int32_t)((int)(rnd() % 9) - 4) * (w == 8 || w == 9 ? 8 : 32);
    case 1: return rnd() & (w <= 3 ? 0x1FFFFu : 0xFFFFFFFFu) & ~31u;
    case 2: return (rnd() % 64 + 1) * (w <= 2 ? 4u : 32u);
    default: return rnd();
    }
}

/* random blocks near the limits: accepted exactly when the model says the
 * words are valid (clusters: 2 present, JOB_CLUSTERS 0..2) */
static void test_random(void)
{
    long accepted = 0;
    for (int t = 0; t < 200000; t++) {
        struct job j = job(64, 64, 64, rnd() & 1);
        unsigned nw = 1 + rnd() % 4;
        for (unsigned i = 0; i < nw; i++) {
            unsigned w = 1 + rnd() % 9;
            set(&j, w, near(w));
        }
        if (rnd() % 8 == 0) {   /* line C up against A or BT */
            uint32_t a = j.w[KTPU_JOB_A_WORD + 2 * (rnd() % 2)];
            set(&j, KTPU_JOB_C_WORD, (a & ~7u) - 8 * (rnd() % 3) + 8 * (rnd() % 3));
        }
        /* half the blocks against all of 4 GiB, half against a window
         * with its ends near A, BT or C */
        struct ktpu_job_env env = {2, MAXC, 0, GIB4};
        if (rnd() & 1) {
            env.win_base = j.w[KTPU_JOB_A_WORD + 2 * (rnd() % 3)] + 32 * (rnd() % 3) - 32;
            env.win_limit = (uint64_t)j.w[KTPU_JOB_A_WORD + 2 * (rnd() % 3)] + (rnd() % 0x20000u);
        }
        accepted += agree("random block", t, &j, &env);
    }
    CHECK(accepted > 1000, "only %ld random blocks accepted: the generator tests little", accepted);
    if (verbose) printf("random: 200000 blocks, %ld accepted\n", accepted);
}

/* random FP16 blocks with FLAGS.QJOB and a scratch region near A, BT, C,
 * the job block or 4 GiB: accepted exactly when the model says so */
static void test_random_scratch(void)
{
    long accepted = 0;
    for (int t = 0; t < 100000; t++) {
        struct job j = job(64, 64, 64, KTPU_FMT_FP16);
        set(&j, KTPU_JOB_FLAGS_WORD, KTPU_FMT_FP16 | KTPU_JOB_FLAGS_QJOB_MASK);
        static const uint32_t at[] = {0, KTPU_JOB_OFFSET + KTPU_JOB_BYTES, 0x00010000u, 0x40000000u, 0x80000000u,
                                      0xFFFFE000u};
        uint32_t bytes = rnd() % 4 ? 32 * (rnd() % 512) : rnd();
        set(&j, KTPU_JOB_SCRATCH_WORD, at[rnd() % 6] + 32 * (rnd() % 512) - 32 * (rnd() % 512) + (rnd() % 8 ? 0 : 8));
        set(&j, KTPU_JOB_SCRATCH_BYTES_WORD, bytes);
        struct ktpu_job_env env = {2, MAXC, 0, GIB4};
        if (rnd() & 1) env.win_limit = 0x80000000u + 64 * 128 + 32 * (rnd() % 0x100000u);
        accepted += agree("random scratch", t, &j, &env);
    }
    CHECK(accepted > 1000, "only %ld random scratch blocks accepted", accepted);
    if (verbose) printf("random scratch: 100000 blocks, %ld accepted\n", accepted);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--quiet") == 0) verbose = 0;
    if (argc > 1 && strcmp(argv[1], "-v") == 0) verbose = 2;
    test_rules();
    test_4gib();
    test_wrap();
    test_overlap();
    test_clusters();
    test_window();
    test_random();
    test_scratch();
    test_random_scratch();
    if (verbose) printf("accepted jobs the planner's own checks take: %ld\n", planned);
    CHECK(planned > 1000, "only %ld accepted jobs planned", planned);
    printf("job check: %ld checks, %ld failed\n", checks, fails);
    return fails ? 1 : 0;
}
