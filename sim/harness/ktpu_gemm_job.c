/* ktpu_gemm_job.c -- the host side of `ktpu-sim --gemm` (ktpu_gemm_job.h).
 * Every check here is bit for bit against the C reference (sim/ref); the
 * host doubles below only generate operands and measure the error report. */
#include "ktpu_gemm_job.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ktpu_defs.h"
#include "ktpu_err.h"
#include "ktpu_gemm.h"
#include "ktpu_npy.h"
#include "ktpu_out.h"
#include "ktpu_plan.h"
#include "ktpu_ref.h"
#include "ktpu_rng.h"

/* C canary: an FP16 NaN, which the machine never writes (R16 saturates). */
#define CANARY16 0x7E57u
#define CANARY32 0x7E577E57u
#define GUARD_BYTES 256u

static int fail(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, KTPU_GEMM_ERR_LEN, fmt, ap);
    va_end(ap);
    return -1;
}

static size_t round_up(size_t x, size_t q) { return (x + q - 1) / q * q; }

static const char *name_of(unsigned v, const char *const *names, unsigned count)
{
    return v < count && names[v] ? names[v] : "?";
}
#define NAME_ENTRY(n, v, d) [v] = #n,
static const char *const jobst_names[] = {KTPU_JOBST_LIST(NAME_ENTRY)};
static const char *const clerr_names[] = {KTPU_CLERR_LIST(NAME_ENTRY)};
static const char *const clop_names[] = {KTPU_CLOP_LIST(NAME_ENTRY)};
#define NAMES(a) a, (unsigned)(sizeof a / sizeof a[0])

/* ---- operands -------------------------------------------------------- */

/* Shape, padding and DRAM layout, before anything is allocated: job block,
 * then A, BT, C each from a 4 KiB boundary; C with a guard band before and
 * after and 32 bytes of row padding, all canary. On a machine with two
 * memory agents (port_half set: the first byte the second serves) A stays
 * below the middle, C straddles it (its upper rows' drain goes to the second
 * agent, the lower rows' to the first) and BT follows C, above the middle,
 * when that fits: both ports share the reads and the final drains
 * (docs/soc.md, two memory ports). */
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
    if (span > dram_bytes)
        return fail(err, "GEMM %zu x %zu x %zu needs %llu bytes of DRAM for A, BT and C; the "
                         "simulated DRAM has %u",
                    m, k, n, (unsigned long long)span, (unsigned)dram_bytes);
    j->a_off = (uint32_t)a_off, j->b_off = (uint32_t)b_off, j->lda = j->ldb = (uint32_t)bpr;
    j->guard_lo = (uint32_t)guard_lo, j->c_off = (uint32_t)c_off, j->ldc = (uint32_t)ldc;
    j->guard_hi = (uint32_t)guard_hi, j->end = (uint32_t)end, j->span = (uint32_t)span;
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

/* ---- DRAM -------------------------------------------------------------- */

static uint16_t rd16(const struct ktpu_gemm_io *io, uint32_t off)
{
    uint32_t w = io->read32(io->ctx, off & ~3u);
    return (uint16_t)(w >> (8 * (off & 2u)));
}

/* The 32-bit word of operand X (FP16 or MXFP7 storage) at byte o of row r. */
static uint32_t operand_word(const struct ktpu_gemm_job *j, int is_b, size_t r, uint32_t o)
{
    if (!j->preq) {
        const uint16_t *x = (is_b ? j->bt : j->a) + r * j->kp;
        return x[o / 2] | (uint32_t)x[o / 2 + 1] << 16;
    }
    const int8_t *q = (is_b ? j->qb : j->qa) + r * j->kp;
    const uint8_t *s = (is_b ? j->sb : j->sa) + r * (j->kp / 32u);
    uint8_t blk[32];
    ktpu_ref_mx_store(q + (o / 32u) * 32u, s[o / 32u], blk);
    o %= 32u;
    return blk[o] | (uint32_t)blk[o + 1] << 8 | (uint32_t)blk[o + 2] << 16 |
           (uint32_t)blk[o + 3] << 24;
}

static void job_write(const struct ktpu_gemm_io *io, unsigned word, uint32_t v)
{
    io->write32(io->ctx, KTPU_JOB_OFFSET + 4u * word, v);
}
static uint32_t job_read(const struct ktpu_gemm_io *io, unsigned word)
{
    return io->read32(io->ctx, KTPU_JOB_OFFSET + 4u * word);
}

int ktpu_gemm_job_place(struct ktpu_gemm_job *j, const struct ktpu_gemm_io *io,
                        unsigned use_clusters, unsigned clusters_present,
                        char err[KTPU_GEMM_ERR_LEN])
{
    size_t mp = j->mp, np = j->np, kp = j->kp, nkb = kp / 32u;
    int preq = j->preq;
    j->clusters_present = clusters_present;
    if (use_clusters > clusters_present)
        return fail(err, "--use-clusters %u: this machine has %u clusters", use_clusters,
                    clusters_present);
    if (j->span > io->dram_bytes)   /* planned for another DRAM */
        return fail(err, "GEMM %zu x %zu x %zu needs %u bytes of DRAM; the simulated DRAM has %u",
                    j->m, j->k, j->n, (unsigned)j->span, (unsigned)io->dram_bytes);
    uint64_t bpr = j->lda, a_off = j->a_off, b_off = j->b_off, guard_lo = j->guard_lo;
    uint64_t end = j->end;

    j->qa = malloc(mp * kp), j->qb = malloc(np * kp);
    j->sa = malloc(mp * nkb), j->sb = malloc(np * nkb);
    j->tile = malloc(mp * np * sizeof *j->tile);
    j->cref = malloc(mp * np * sizeof *j->cref);
    if (!j->qa || !j->qb || !j->sa || !j->sb || !j->tile || !j->cref)
        return fail(err, "out of memory for the reference of a %zu x %zu x %zu GEMM", j->m, j->k,
                    j->n);
    j->ref_flags = ktpu_ref_quant_matrix(j->a, mp, kp, j->qa, j->sa);
    j->ref_flags |= ktpu_ref_quant_matrix(j->bt, np, kp, j->qb, j->sb);
    if (preq && j->worst)
        for (size_t e = 0; e < mp * kp; e += 16)
            if (e / kp < j->m && e % kp < j->k)
                j->qa[e] = -64;
    if (preq && j->worst)
        for (size_t e = 0; e < np * kp; e += 16)
            if (e / kp < j->n && e % kp < j->k)
                j->qb[e] = -64;
    /* the firmware's plan, from the same portable planner and the job it
     * will read: where it splits K across clusters, the reference adds the
     * parts in the plan's order (SPEC §3.5) */
    struct ktpu_plan plan;
    struct ktpu_plan_cfg cfg = {
        .m = (uint32_t)mp, .n = (uint32_t)np, .k = (uint32_t)kp,
        .fmt = preq ? KTPU_FMT_MX : KTPU_FMT_FP16,
        .a = j->a_off, .lda = j->lda, .b = j->b_off, .ldb = j->ldb, .c = j->c_off, .ldc = j->ldc,
        .clusters = use_clusters ? use_clusters
                                 : clusters_present < KTPU_GEMM_MAX_CLUSTERS ? clusters_present
                                                                             : KTPU_GEMM_MAX_CLUSTERS,
        .l1_depth = KTPU_L1_DEPTH, .acc_depth = KTPU_ACC_DEPTH, .no_split = j->no_split,
    };
    j->split = cfg.clusters && ktpu_plan_init(&plan, &cfg) == KTPU_PLAN_OK ? plan.split : 1;
    uint32_t *parts = j->split > 1 ? malloc((j->split - 1) * mp * np * sizeof *parts) : NULL;
    if (j->split > 1 && !parts)
        return fail(err, "out of memory for the split-K reference of a %zu x %zu x %zu GEMM", j->m, j->k,
                    j->n);
    j->ref_flags |= ktpu_ref_gemm_mx_split(mp, np, kp, j->split, j->qa, j->sa, j->qb, j->sb, parts, j->tile,
                                           j->cref);
    free(parts);
    if (j->corrupt_row >= 0 && (size_t)j->corrupt_row < mp && j->corrupt_col >= 0 &&
        (size_t)j->corrupt_col < np)
        j->cref[(size_t)j->corrupt_row * np + (size_t)j->corrupt_col] ^= 1u;


    for (size_t r = 0; r < mp; r++)
        for (uint32_t o = 0; o < bpr; o += 4)
            io->write32(io->ctx, (uint32_t)(a_off + r * bpr + o), operand_word(j, 0, r, o));
    for (size_t r = 0; r < np; r++)
        for (uint32_t o = 0; o < bpr; o += 4)
            io->write32(io->ctx, (uint32_t)(b_off + r * bpr + o), operand_word(j, 1, r, o));
    for (uint64_t o = guard_lo; o < end; o += 4)
        io->write32(io->ctx, (uint32_t)o, CANARY32);

    for (unsigned w = 0; w < KTPU_JOB_BYTES / 4u; w++)
        job_write(io, w, 0);
    job_write(io, KTPU_JOB_MAGIC_WORD, KTPU_JOB_MAGIC);
    job_write(io, KTPU_JOB_M_WORD, (uint32_t)mp);
    job_write(io, KTPU_JOB_N_WORD, (uint32_t)np);
    job_write(io, KTPU_JOB_K_WORD, (uint32_t)kp);
    job_write(io, KTPU_JOB_A_WORD, j->a_off);
    job_write(io, KTPU_JOB_A_STRIDE_WORD, j->lda);
    job_write(io, KTPU_JOB_B_WORD, j->b_off);
    job_write(io, KTPU_JOB_B_STRIDE_WORD, j->ldb);
    job_write(io, KTPU_JOB_C_WORD, j->c_off);
    job_write(io, KTPU_JOB_C_STRIDE_WORD, j->ldc);
    job_write(io, KTPU_JOB_FLAGS_WORD,
              (uint32_t)(preq ? KTPU_FMT_MX : KTPU_FMT_FP16) << KTPU_JOB_FLAGS_FMT_LSB |
                  KTPU_JOB_FLAGS_TILE_MBOX_MASK | (j->no_split ? KTPU_JOB_FLAGS_NO_SPLIT_MASK : 0u));
    job_write(io, KTPU_JOB_CLUSTERS_WORD, use_clusters);
    job_write(io, KTPU_JOB_STATUS_WORD, KTPU_JOBST_PENDING);
    return 0;
}

/* ---- checks ------------------------------------------------------------ */

int ktpu_gemm_job_tile(struct ktpu_gemm_job *j, const struct ktpu_gemm_io *io, uint32_t arg0,
                       uint32_t arg1, FILE *log)
{
    size_t r0 = arg0 >> KTPU_MBOX_TILE_HI_LSB, c0 = arg0 & KTPU_MBOX_TILE_LO_MASK;
    size_t rows = arg1 >> KTPU_MBOX_TILE_HI_LSB, cols = arg1 & KTPU_MBOX_TILE_LO_MASK;
    j->tiles++;
    if (rows == 0 || cols == 0 || r0 + rows > j->mp || c0 + cols > j->np) {
        j->tiles_failed++, j->announce_errors++;
        fprintf(log, "ktpu-sim: FAIL: tile announced outside C: rows %zu..+%zu, columns %zu..+%zu "
                     "(C is %zu x %zu padded)\n", r0, rows, c0, cols, j->mp, j->np);
        return 1;
    }
    unsigned long long bad = 0;
    int twice = 0;
    for (size_t i = r0; i < r0 + rows; i++)
        for (size_t c = c0; c < c0 + cols; c++) {
            uint16_t got = rd16(io, (uint32_t)(j->c_off + i * j->ldc + 2u * c));
            uint16_t want = j->cref[i * j->np + c];
            if (j->covered[i * j->np + c]++)
                twice = 1;
            if (got == want)
                continue;
            if (bad++ == 0)
                fprintf(log, "ktpu-sim: MISMATCH in tile rows %zu..%zu, columns %zu..%zu: first at "
                             "C[%zu][%zu]: got 0x%04x (%.6g), reference 0x%04x (%.6g), FP22 tile "
                             "0x%06x\n",
                        r0, r0 + rows - 1, c0, c0 + cols - 1, i, c, (unsigned)got,
                        ktpu_err_fp16_value(got), (unsigned)want, ktpu_err_fp16_value(want),
                        (unsigned)j->tile[i * j->np + c]);
        }
    if (bad)
        fprintf(log, "ktpu-sim: MISMATCH: %llu of %zu elements of that tile differ\n", bad,
                rows * cols);
    if (twice) {
        j->announce_errors++;
        fprintf(log, "ktpu-sim: FAIL: tile rows %zu..%zu, columns %zu..%zu announced twice (it "
                     "overlaps an earlier one)\n", r0, r0 + rows - 1, c0, c0 + cols - 1);
    }
    j->elems_failed += bad;
    if (bad || twice) {
        j->tiles_failed++;
        return 1;
    }
    return 0;
}

static const char *flag_names(unsigned f, char *buf, size_t len)
{
    static const char *const names[] = {"ACC_OVERFLOW", "ACC_UNDERFLOW", "FP16_OVERFLOW",
                                        "NONFINITE"};
    static const unsigned bits[] = {KTPU_FLAG_ACC_OVERFLOW, KTPU_FLAG_ACC_UNDERFLOW,
                                    KTPU_FLAG_FP16_OVERFLOW, KTPU_FLAG_NONFINITE};
    buf[0] = 0;
    for (unsigned i = 0; i < 4; i++)
        if (f & bits[i]) {
            size_t n = strlen(buf);
            snprintf(buf + n, len - n, "%s%s", n ? "|" : "", names[i]);
        }
    if (!buf[0])
        snprintf(buf, len, "none");
    return buf;
}

void ktpu_gemm_job_summary(const struct ktpu_gemm_job *j, const struct ktpu_gemm_io *io,
                           struct ktpu_gemm_summary *s)
{
    unsigned use = job_read(io, KTPU_JOB_CLUSTERS_WORD);
    s->status = job_read(io, KTPU_JOB_STATUS_WORD);
    s->clusters_used = use ? use : j->clusters_present;
    s->job_cycles = job_read(io, KTPU_JOB_CYCLES_WORD);
    s->macs = (unsigned long long)j->m * j->n * j->k;
    s->macs_per_cycle = s->job_cycles ? (double)s->macs / (double)s->job_cycles : 0.0;
    s->pct_peak = 100.0 * s->macs_per_cycle / (512.0 * s->clusters_used);
}

int ktpu_gemm_job_finish(struct ktpu_gemm_job *j, const struct ktpu_gemm_io *io,
                         const struct ktpu_gemm_traffic *t, FILE *out,
                         char err[KTPU_GEMM_ERR_LEN])
{
    int bad = 0;
    size_t mp = j->mp, np = j->np;
    char fb[96], fb2[96];
    struct ktpu_gemm_summary s;
    ktpu_gemm_job_summary(j, io, &s);
    unsigned flags_out = job_read(io, KTPU_JOB_FLAGS_OUT_WORD);
    unsigned detail = job_read(io, KTPU_JOB_DETAIL_WORD);
    unsigned expect = j->ref_flags ? KTPU_JOBST_NUMERIC : KTPU_JOBST_DONE;
    int finished = s.status == KTPU_JOBST_DONE || s.status == KTPU_JOBST_NUMERIC;

    /* coverage: only meaningful when the job says it finished */
    unsigned long long uncovered = 0;
    size_t ui = 0, uj = 0;
    for (size_t e = 0; e < mp * np; e++)
        if (!j->covered[e] && uncovered++ == 0)
            ui = e / np, uj = e % np;
    if (finished && uncovered) {
        bad = 1;
        fprintf(out, "ktpu-sim: FAIL: %llu of %zu C elements were never announced (first C[%zu][%zu])\n",
                uncovered, mp * np, ui, uj);
    }
    /* canaries: guard bands and row padding */
    unsigned long long canary_hits = 0;
    uint32_t first_hit = 0;
    for (uint32_t o = j->guard_lo; o < j->end; o += 2) {
        int in_c = o >= j->c_off && o < j->guard_hi && (o - j->c_off) % j->ldc < 2u * np;
        if (!in_c && rd16(io, o) != CANARY16 && canary_hits++ == 0)
            first_hit = o;
    }
    if (canary_hits) {
        bad = 1;
        fprintf(out, "ktpu-sim: FAIL: %llu FP16 canaries around C overwritten (first at DRAM offset "
                     "0x%x; C is at 0x%x, row stride %u)\n",
                canary_hits, (unsigned)first_hit, (unsigned)j->c_off, (unsigned)j->ldc);
    }
    /* operands untouched */
    unsigned long long op_hits = 0;
    for (int is_b = 0; is_b < 2; is_b++)
        for (size_t r = 0; r < (is_b ? np : mp); r++)
            for (uint32_t o = 0; o < j->lda; o += 4) {
                uint32_t off = (is_b ? j->b_off : j->a_off) + (uint32_t)r * j->lda + o;
                if (io->read32(io->ctx, off) != operand_word(j, is_b, r, o) && op_hits++ == 0)
                    fprintf(out, "ktpu-sim: FAIL: operand %s changed in DRAM (row %zu, byte %u)\n",
                            is_b ? "BT" : "A", r, (unsigned)o);
            }
    if (op_hits)
        bad = 1;
    if (finished && flags_out != j->ref_flags) {
        bad = 1;
        fprintf(out, "ktpu-sim: FAIL: numeric flags: the job reports %s, the reference %s\n",
                flag_names(flags_out, fb, sizeof fb), flag_names(j->ref_flags, fb2, sizeof fb2));
    }
    if (t->stray_rq || t->stray_rs) {
        bad = 1;
        fprintf(out, "ktpu-sim: FAIL: %u + %u misaddressed flits (request, response plane)\n",
                t->stray_rq, t->stray_rs);
    }
    if (j->tiles_failed)
        bad = 1;

    /* ---- report (SPEC §11) ---- */
    fprintf(out, "---- GEMM report ----\n");
    if (j->run_info[0]) fprintf(out, "run: %s\n", j->run_info);
    fprintf(out, "shape: M x K x N = %zu x %zu x %zu", j->m, j->k, j->n);
    if (mp != j->m || np != j->n || j->kp != j->k)
        fprintf(out, " (padded to %zu x %zu x %zu)", mp, j->kp, np);
    fprintf(out, ", operands %s, %u of %u clusters\n",
            j->preq ? "pre-quantised MXFP7" : "FP16 (quantised on the way)", s.clusters_used,
            j->clusters_present);
    fprintf(out, "tiles: %u checked, %u failed (%llu elements differ); C coverage %llu of %zu; "
                 "canaries %s; operands %s\n",
            j->tiles, j->tiles_failed, j->elems_failed, (unsigned long long)(mp * np - uncovered),
            mp * np, canary_hits ? "OVERWRITTEN" : "intact", op_hits ? "CHANGED" : "unchanged");
    if (j->split > 1)
        fprintf(out, "split-K: K in %u parts per tile, checked against the reference adding them in "
                     "the plan's order (ktpu-ref gemm --split-k %u)\n", j->split, j->split);
    fprintf(out, "cycles: %llu in the job (firmware mcycle), %llu simulated in all\n",
            s.job_cycles, t->sim_cycles);
    fprintf(out, "MACs/cycle: %.2f of a peak of %u (512 x %u clusters): %.2f%% of peak\n",
            s.macs_per_cycle, 512u * s.clusters_used, s.clusters_used, s.pct_peak);
    unsigned shown = s.clusters_used < 5 ? s.clusters_used : 5;
    for (unsigned c = 0; c < shown; c++) {
        unsigned b = KTPU_JOB_CL_WORD + 8u * c;
        fprintf(out, "cluster %u: fill %u, sweep %u, drain %u, idle %u cycles; starved %u, "
                     "back-pressured %u; flags %s\n",
                c, job_read(io, b + KTPU_CD_FILL_WORD), job_read(io, b + KTPU_CD_SWEEP_WORD),
                job_read(io, b + KTPU_CD_DRAIN_WORD), job_read(io, b + KTPU_CD_IDLE_WORD),
                job_read(io, b + KTPU_CD_STARVED_WORD), job_read(io, b + KTPU_CD_BP_WORD),
                flag_names(job_read(io, b + KTPU_CD_FLAGS_WORD) & KTPU_CD_FLAGS_NUM_MASK, fb,
                           sizeof fb));
    }
    if (t->mem_ports > 1)
        fprintf(out, "DRAM beats: memory agent 0's port %llu read, %llu written; agent 1's port "
                     "%llu read, %llu written; CPU window %llu read, %llu written\n",
                t->agent_rd[0], t->agent_wr[0], t->agent_rd[1], t->agent_wr[1], t->cpu_rd,
                t->cpu_wr);
    else
        fprintf(out, "DRAM beats: memory agent port %llu read, %llu written; CPU window %llu "
                     "read, %llu written\n", t->agent_rd[0], t->agent_wr[0], t->cpu_rd, t->cpu_wr);
    if (t->win_err || t->bad_req)
        fprintf(out, "memory agent: %u window refusals, %u bad requests\n", t->win_err,
                t->bad_req);
    fprintf(out, "numeric flags: %s (reference %s)\n", flag_names(flags_out, fb, sizeof fb),
            flag_names(j->ref_flags, fb2, sizeof fb2));
    if (finished && !bad) {
        /* error of the machine's C (what was checked equal to the reference) */
        if (ktpu_err_report(out, j->m, j->n, j->kp, j->a, j->kp, j->bt, j->kp, j->qa, j->sa, j->qb,
                            j->sb, j->cref, np, 0))
            fprintf(out, "error report: out of memory\n");
    }
    fprintf(out, "job status: %s\n", name_of(s.status, NAMES(jobst_names)));
    if (bad)
        return 1;
    if (s.status != KTPU_JOBST_DONE) {
        unsigned code = detail & KTPU_JOB_DETAIL_CODE_MASK;
        unsigned cl = (detail & KTPU_JOB_DETAIL_CLUSTER_MASK) >> KTPU_JOB_DETAIL_CLUSTER_LSB;
        unsigned op = (detail & KTPU_JOB_DETAIL_OP_MASK) >> KTPU_JOB_DETAIL_OP_LSB;
        switch (s.status) {
        case KTPU_JOBST_NUMERIC:
            fail(err, "the job finished with numeric flags set: %s (C is written and checked)",
                 flag_names(flags_out, fb, sizeof fb));
            break;
        case KTPU_JOBST_HWERR:
            fail(err, "the job failed: JOBST_HWERR: cluster %u answered %s with CLERR_%s (code %u), "
                      "address 0x%x",
                 cl, name_of(op, NAMES(clop_names)), name_of(code, NAMES(clerr_names)), code,
                 (unsigned)job_read(io, KTPU_JOB_ADDR_WORD));
            break;
        case KTPU_JOBST_TIMEOUT:
            fail(err, "the job failed: JOBST_TIMEOUT: cluster %u did not answer in time", cl);
            break;
        case KTPU_JOBST_BADJOB:
            fail(err, "the job failed: JOBST_BADJOB: the firmware refused the job block");
            break;
        case KTPU_JOBST_PENDING:
            fail(err, "the job never finished: its status is still JOBST_PENDING");
            break;
        default:
            fail(err, "the job ended with unknown status %u", s.status);
            break;
        }
        (void)expect;
        return 2;
    }
    if (expect != KTPU_JOBST_DONE) {
        /* DONE although the reference raises flags: flags_out mismatch above */
        return 1;
    }
    return 0;
}

int ktpu_gemm_job_write_c(const struct ktpu_gemm_job *j, const struct ktpu_gemm_io *io,
                          struct ktpu_out *out, char err[KTPU_GEMM_ERR_LEN])
{
    uint16_t *c = malloc(j->m * j->n * sizeof *c + 2);
    char nerr[KTPU_NPY_ERR_LEN];
    if (!c)
        return fail(err, "out of memory writing %s", out->path);
    for (size_t i = 0; i < j->m; i++)
        for (size_t k = 0; k < j->n; k++)
            c[i * j->n + k] = rd16(io, (uint32_t)(j->c_off + i * j->ldc + 2u * k));
    size_t shape[2] = {j->m, j->n};
    int rc = ktpu_npy_write_f16_to(out->f, out->path, c, 2, shape, nerr);
    free(c);
    if (rc)
        return fail(err, "%s", nerr);
    char oerr[KTPU_OUT_ERR_LEN];
    return ktpu_out_commit(out, oerr) ? fail(err, "%s", oerr) : 0;
}

void ktpu_gemm_job_free(struct ktpu_gemm_job *j)
{
    free(j->a), free(j->bt), free(j->qa), free(j->qb), free(j->sa), free(j->sb);
    free(j->tile), free(j->cref), free(j->covered);
    memset(j, 0, sizeof *j);
}
