/* ktpu_gemm_operands.c -- a GEMM job's operands (ktpu_gemm_job.h): the
 * shape, its padding and DRAM layout checked first, then A and BT read from
 * .npy or generated from a seed and a distribution. The host doubles here
 * only generate operands; every check is bit for bit (ktpu_gemm_job.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ktpu_gemm_priv.h"
#include "ktpu_npy.h"
#include "ktpu_rng.h"

static size_t round_up(size_t x, size_t q) { return (x + q - 1) / q * q; }


/* Shape, padding and DRAM layout, before anything is allocated: job block,
 * then A, BT, C each from a 4 KiB boundary; C with a guard band before and
 * after and 32 bytes of row padding, all canary. On a machine with two
 * memory agents (port_half set: the first byte the second serves) A stays
 * below the middle, C straddles it (its upper rows' drain goes to the second
 * agent, the lower rows' to the first) and BT follows C, above the middle,
 * when that fits: both ports share the final drains (every FILL reads half
 * its rows through each agent wherever it lies; docs/soc.md, two memory
 * ports). */
int ktpu_gemm_job_plan(struct ktpu_gemm_job *j, size_t m, size_t k, size_t n, int preq,
                       uint32_t dram_bytes, char err[KTPU_GEMM_ERR_LEN])
{
    if (m == 0 || k == 0 || n == 0)
        return fail(err, "GEMM %zu x %zu x %zu: every dimension must be at least 1", m, k, n);
    /* 16 MiB of DRAM bounds every real job far below this; it keeps the
     * products below from overflowing before the DRAM check says so. */
    if (m > KTPU_GEMM_MAX_DIM || k > KTPU_GEMM_MAX_DIM || n > KTPU_GEMM_MAX_DIM)
        return fail(err, "GEMM %zu x %zu x %zu is too large (each dimension at most %u)", m, k,
                    n, (unsigned)KTPU_GEMM_MAX_DIM);
    j->m = m, j->k = k, j->n = n;
    j->mp = round_up(m, KTPU_TILE_ROWS);
    j->np = round_up(n, KTPU_TILE_COLS);
    j->kp = round_up(k, KTPU_MX_BLOCK_K);
    j->preq = preq;
    uint64_t bpr = preq ? j->kp : 2u * j->kp;   /* bytes per operand row */
    uint64_t ldc = 2u * j->np + 32u;
    uint64_t a_off = round_up(KTPU_JOB_OFFSET + KTPU_JOB_BYTES, 4096);
    uint64_t a_end = a_off + j->mp * bpr;
    /* one port: A, BT, then C */
    uint64_t b_off = round_up(a_end, 4096);
    uint64_t guard_lo = round_up(b_off + j->np * bpr, 4096);
    if (j->port_half) {
        /* two: A, C with its middle row band at the middle, BT */
        uint64_t lo = (uint64_t)j->port_half - (j->mp / 8u * 4u) * ldc - GUARD_BYTES;
        uint64_t bt = round_up(lo + 2u * GUARD_BYTES + j->mp * ldc, 4096);
        if (j->port_half >= (j->mp / 8u * 4u) * ldc + GUARD_BYTES && lo >= round_up(a_end, 4096) &&
            bt + j->np * bpr <= dram_bytes)
            guard_lo = lo, b_off = bt;
    }
    uint64_t c_off = guard_lo + GUARD_BYTES;
    uint64_t guard_hi = c_off + j->mp * ldc;
    uint64_t end = guard_hi + GUARD_BYTES;
    uint64_t span = end > b_off + j->np * bpr ? end : b_off + j->np * bpr;
    /* FP16: a scratch region for quantise-on-upload, both operands'
     * MXFP7 storage ((M + N) x K bytes), then a guard band of canaries;
     * none if DRAM has no room for it (it is optional: the job runs without) */
    uint64_t scratch = round_up(span, 4096), scratch_bytes = preq || j->no_qjob ? 0 : (j->mp + j->np) * j->kp;
    if (scratch_bytes && scratch + scratch_bytes + GUARD_BYTES <= dram_bytes)
        span = scratch + scratch_bytes + GUARD_BYTES;
    else
        scratch = scratch_bytes = 0;
    if (span > dram_bytes)
        return fail(err, "GEMM %zu x %zu x %zu needs %llu bytes of DRAM for A, BT and C; the "
                         "simulated DRAM has %u",
                    m, k, n, (unsigned long long)span, (unsigned)dram_bytes);
    j->a_off = (uint32_t)a_off, j->b_off = (uint32_t)b_off, j->lda = j->ldb = (uint32_t)bpr;
    j->guard_lo = (uint32_t)guard_lo, j->c_off = (uint32_t)c_off, j->ldc = (uint32_t)ldc;
    j->guard_hi = (uint32_t)guard_hi, j->end = (uint32_t)end, j->span = (uint32_t)span;
    j->scratch = (uint32_t)scratch, j->scratch_bytes = (uint32_t)scratch_bytes;
    return 0;
}

/* The padded operands and the coverage map of a planned job. */
static int alloc_padded(struct ktpu_gemm_job *j, char *err)
{
    j->a = calloc(j->mp * j->kp, sizeof *j->a);
    j->bt = calloc(j->np * j->kp, sizeof *j->bt);
    j->covered = calloc(j->mp * j->np, 1);
    if (!j->a || !j->bt || !j->covered)
        return fail(err, "out of memory for a %zu x %zu x %zu GEMM", j->m, j->k, j->n);
    return 0;
}

int ktpu_gemm_job_load(struct ktpu_gemm_job *j, const char *path_a, const char *path_b,
                       int preq, uint32_t dram_bytes, char err[KTPU_GEMM_ERR_LEN])
{
    struct ktpu_npy a, b;
    char nerr[KTPU_NPY_ERR_LEN];
    j->name_a = path_a, j->name_b = path_b;
    /* the notes (elements rounding to FP16 changed) lead the run's output */
    if (ktpu_npy_read_gemm(path_a, path_b, &a, &b, stdout, nerr))
        return fail(err, "%s", nerr);
    int rc = ktpu_gemm_job_plan(j, a.shape[0], a.shape[1], b.shape[0], preq, dram_bytes, err);
    if (!rc)
        rc = alloc_padded(j, err);
    if (!rc) {
        for (size_t i = 0; i < j->m; i++)
            memcpy(j->a + i * j->kp, a.data + i * j->k, j->k * 2u);
        for (size_t i = 0; i < j->n; i++)
            memcpy(j->bt + i * j->kp, b.data + i * j->k, j->k * 2u);
    }
    ktpu_npy_free(&a);
    ktpu_npy_free(&b);
    return rc;
}

/* ---- generated operands ------------------------------------------------ */

static struct ktpu_rng rng_state;
static uint32_t rng(void) { return ktpu_rng_next(&rng_state); }
static double uni(void) { return ldexp((double)rng(), -32); } /* [0, 1) */
/* Irwin-Hall: the sum of 12 uniforms minus 6, mean 0, variance 1; portable
 * (no libm transcendental decides a generated bit). */
static double normal(void)
{
    double s = 0;
    for (int i = 0; i < 12; i++)
        s += uni();
    return s - 6.0;
}

/* Nearest FP16 (ties to even), saturating at 65504; zero gives +0. */
static uint16_t to_fp16(double x)
{
    uint16_t sign = x < 0 ? 0x8000u : 0u;
    x = fabs(x);
    if (x == 0)
        return 0;
    if (x >= 65504.0)
        return (uint16_t)(sign | KTPU_FP16_MAX_BITS);
    int e;
    (void)frexp(x, &e);                          /* x in [2^(e-1), 2^e) */
    int qe = (e - 1 >= -14 ? e - 1 : -14) - 10;  /* the FP16 quantum at x */
    uint32_t mant = (uint32_t)rint(ldexp(x, -qe)); /* exact scaling, RNE */
    if (mant == 2048u)
        mant = 1024u, qe++;
    if (mant < 1024u)
        return (uint16_t)(sign | mant);          /* subnormal (qe = -24) */
    if (qe + 25 >= 31)
        return (uint16_t)(sign | KTPU_FP16_MAX_BITS);
    return (uint16_t)(sign | (uint32_t)(qe + 25) << 10 | (mant - 1024u));
}

/* Worst-case blocks (the cases random data never reaches, SPEC §14): all
 * elements at the block peak (full-scale K=32 sums), alternating signs,
 * FP16 subnormals, one large element among tiny ones, zero blocks; a
 * different exponent per block (non-uniform scales). |x| < 2, so C stays
 * finite in FP16 for K <= 1024. */
static void worst_row(uint16_t *row, size_t k)
{
    for (size_t b = 0; b < k; b += 32) {
        unsigned cls = rng() % 6u;
        double peak = ldexp(1.0 + (rng() % 64u) / 64.0, -(int)(rng() % 7u));
        for (size_t i = b; i < b + 32 && i < k; i++) {
            double v = 0;
            switch (cls) {
            case 0: v = peak; break;
            case 1: v = (i & 1) ? -peak : peak; break;
            case 2: row[i] = (uint16_t)((rng() & 0x83FFu)); continue;   /* subnormal */
            case 3: v = i == b + rng() % 32u ? peak : ldexp(uni() - 0.5, -12); break;
            case 4: v = 0; break;
            default: v = (2 * uni() - 1) * peak; break;
            }
            row[i] = to_fp16(v);
        }
    }
}

int ktpu_gemm_dist_parse(const char *s, enum ktpu_gemm_dist *d)
{
    static const char *const names[] = {"normal", "uniform", "relu", "lowrank", "worst"};
    for (unsigned i = 0; i < 5; i++)
        if (strcmp(s, names[i]) == 0) {
            *d = (enum ktpu_gemm_dist)i;
            return 0;
        }
    return -1;
}

int ktpu_gemm_job_generate(struct ktpu_gemm_job *j, enum ktpu_gemm_dist dist, uint64_t seed,
                           char err[KTPU_GEMM_ERR_LEN])
{
    size_t m = j->m, k = j->k, n = j->n;
    j->name_a = "A (generated)", j->name_b = "BT (generated)";
    if (alloc_padded(j, err))
        return -1;
    ktpu_rng_seed(&rng_state, seed);
    j->worst = dist == KTPU_DIST_WORST;
    enum { R = 4 };
    double *u = NULL, *v = NULL;
    if (dist == KTPU_DIST_LOWRANK) {
        u = malloc(m * R * sizeof *u), v = malloc(R * k * sizeof *v);
        if (!u || !v) {
            free(u), free(v);
            return fail(err, "out of memory for a %zu x %zu x %zu GEMM", m, k, n);
        }
        for (size_t i = 0; i < m * R; i++)
            u[i] = normal();
        for (size_t i = 0; i < R * k; i++)
            v[i] = normal();
    }
    for (size_t i = 0; i < m; i++) {
        uint16_t *row = j->a + i * j->kp;
        if (dist == KTPU_DIST_WORST) {
            worst_row(row, k);
            continue;
        }
        for (size_t kk = 0; kk < k; kk++) {
            double x;
            switch (dist) {
            case KTPU_DIST_UNIFORM: x = 2 * uni() - 1; break;
            case KTPU_DIST_RELU: x = normal(); x = x > 0 ? x : 0; break;
            case KTPU_DIST_LOWRANK:
                x = 0;
                for (int r = 0; r < R; r++)
                    x += u[i * R + r] * v[r * k + kk];
                x /= 2.0;
                break;
            default: x = normal(); break;
            }
            row[kk] = to_fp16(x);
        }
    }
    for (size_t i = 0; i < n; i++) {
        uint16_t *row = j->bt + i * j->kp;
        if (dist == KTPU_DIST_WORST)
            worst_row(row, k);
        else
            for (size_t kk = 0; kk < k; kk++)
                row[kk] = to_fp16(dist == KTPU_DIST_UNIFORM ? 2 * uni() - 1 : normal());
    }
    free(u), free(v);
    return 0;
}
