/* ktpu_gemm_job.c -- a GEMM job in DRAM and its checks (ktpu_gemm_job.h):
 * the reference, the operands, canaries and job block placed, every tile the
 * firmware announces and the whole C at the end compared bit for bit with
 * the C reference (sim/ref), and C written back. */
#include <stdlib.h>
#include <string.h>

#include "ktpu_ci.h"
#include "ktpu_err.h"
#include "ktpu_gemm.h"
#include "ktpu_gemm_priv.h"
#include "ktpu_job.h"
#include "ktpu_npy.h"
#include "ktpu_out.h"
#include "ktpu_plan.h"
#include "ktpu_ref.h"

/* ---- DRAM -------------------------------------------------------------- */

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

/* The job block's request words, as the firmware reads them. */
static void job_words(const struct ktpu_gemm_job *j, unsigned use_clusters, uint32_t w[KTPU_JOB_REQ_WORDS])
{
    w[KTPU_JOB_MAGIC_WORD] = KTPU_JOB_MAGIC;
    w[KTPU_JOB_M_WORD] = (uint32_t)j->mp;
    w[KTPU_JOB_N_WORD] = (uint32_t)j->np;
    w[KTPU_JOB_K_WORD] = (uint32_t)j->kp;
    w[KTPU_JOB_A_WORD] = j->a_off;
    w[KTPU_JOB_A_STRIDE_WORD] = j->lda;
    w[KTPU_JOB_B_WORD] = j->b_off;
    w[KTPU_JOB_B_STRIDE_WORD] = j->ldb;
    w[KTPU_JOB_C_WORD] = j->c_off;
    w[KTPU_JOB_C_STRIDE_WORD] = j->ldc;
    w[KTPU_JOB_FLAGS_WORD] = (uint32_t)(j->preq ? KTPU_FMT_MX : KTPU_FMT_FP16) << KTPU_JOB_FLAGS_FMT_LSB |
                             KTPU_JOB_FLAGS_TILE_MBOX_MASK | (j->no_split ? KTPU_JOB_FLAGS_NO_SPLIT_MASK : 0u) |
                             (j->scratch_bytes ? KTPU_JOB_FLAGS_QJOB_MASK : 0u);
    w[KTPU_JOB_CLUSTERS_WORD] = use_clusters;
    for (unsigned i = KTPU_JOB_CLUSTERS_WORD + 1; i < KTPU_JOB_REQ_WORDS; i++) w[i] = 0;
    w[KTPU_JOB_SCRATCH_WORD] = j->scratch;
    w[KTPU_JOB_SCRATCH_BYTES_WORD] = j->scratch_bytes;
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
    struct ktpu_plan_cfg cfg;
    uint32_t jw[KTPU_JOB_REQ_WORDS];
    job_words(j, use_clusters, jw);
    ktpu_job_plan_cfg(jw, use_clusters ? use_clusters
                                       : clusters_present < KTPU_GEMM_MAX_CLUSTERS ? clusters_present
                                                                                   : KTPU_GEMM_MAX_CLUSTERS,
                      &cfg);
    cfg.checked = 0;   /* the planner's own checks: this block was not through ktpu_job_check */
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
    for (uint32_t o = j->scratch_bytes; o < j->scratch_bytes + GUARD_BYTES && j->scratch_bytes; o += 4)
        io->write32(io->ctx, j->scratch + o, CANARY32);

    for (unsigned w = 0; w < KTPU_JOB_BYTES / 4u; w++)
        job_write(io, w, w < sizeof jw / sizeof jw[0] ? jw[w] : 0);
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

int ktpu_gemm_job_finish(struct ktpu_gemm_job *j, const struct ktpu_gemm_io *io,
                         const struct ktpu_gemm_traffic *t, FILE *out,
                         char err[KTPU_GEMM_ERR_LEN])
{
    size_t mp = j->mp, np = j->np;
    unsigned status = job_read(io, KTPU_JOB_STATUS_WORD);
    struct ktpu_gemm_checks c = {0};
    c.flags_out = job_read(io, KTPU_JOB_FLAGS_OUT_WORD);
    c.finished = status == KTPU_JOBST_DONE || status == KTPU_JOBST_NUMERIC;

    /* coverage: only meaningful when the job says it finished */
    size_t ui = 0, uj = 0;
    for (size_t e = 0; e < mp * np; e++)
        if (!j->covered[e] && c.uncovered++ == 0)
            ui = e / np, uj = e % np;
    if (c.finished && c.uncovered) {
        c.bad = 1;
        fprintf(out, "ktpu-sim: FAIL: %llu of %zu C elements were never announced (first C[%zu][%zu])\n",
                c.uncovered, mp * np, ui, uj);
    }
    /* canaries: guard bands and row padding */
    uint32_t first_hit = 0;
    for (uint32_t o = j->guard_lo; o < j->end; o += 2) {
        int in_c = o >= j->c_off && o < j->guard_hi && (o - j->c_off) % j->ldc < 2u * np;
        if (!in_c && rd16(io, o) != CANARY16 && c.canary_hits++ == 0)
            first_hit = o;
    }
    for (uint32_t o = j->scratch_bytes; o < j->scratch_bytes + GUARD_BYTES && j->scratch_bytes; o += 2)
        if (rd16(io, j->scratch + o) != CANARY16 && c.canary_hits++ == 0)
            first_hit = j->scratch + o;
    if (c.canary_hits) {
        c.bad = 1;
        fprintf(out, "ktpu-sim: FAIL: %llu FP16 canaries around C overwritten (first at DRAM offset "
                     "0x%x; C is at 0x%x, row stride %u)\n",
                c.canary_hits, (unsigned)first_hit, (unsigned)j->c_off, (unsigned)j->ldc);
    }
    /* operands untouched */
    for (int is_b = 0; is_b < 2; is_b++)
        for (size_t r = 0; r < (is_b ? np : mp); r++)
            for (uint32_t o = 0; o < j->lda; o += 4) {
                uint32_t off = (is_b ? j->b_off : j->a_off) + (uint32_t)r * j->lda + o;
                if (io->read32(io->ctx, off) != operand_word(j, is_b, r, o) && c.op_hits++ == 0)
                    fprintf(out, "ktpu-sim: FAIL: operand %s changed in DRAM (row %zu, byte %u)\n",
                            is_b ? "BT" : "A", r, (unsigned)o);
            }
    if (c.op_hits)
        c.bad = 1;
    if (c.finished && c.flags_out != j->ref_flags) {
        char fb[96], fb2[96];
        c.bad = 1;
        fprintf(out, "ktpu-sim: FAIL: numeric flags: the job reports %s, the reference %s\n",
                ktpu_flag_names(c.flags_out, fb, sizeof fb), ktpu_flag_names(j->ref_flags, fb2, sizeof fb2));
    }
    if (t->stray_rq || t->stray_rs) {
        c.bad = 1;
        fprintf(out, "ktpu-sim: FAIL: %u + %u misaddressed flits (request, response plane)\n",
                t->stray_rq, t->stray_rs);
    }
    if (j->tiles_failed)
        c.bad = 1;

    ktpu_gemm_report(j, io, t, &c, out);
    if (c.bad)
        return 1;
    if (status != KTPU_JOBST_DONE) {
        ktpu_gemm_status_error(io, status, c.flags_out, err);
        return 2;
    }
    /* DONE although the reference raises flags: the flags check above failed */
    return j->ref_flags ? 1 : 0;
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
