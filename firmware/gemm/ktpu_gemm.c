/* The GEMM service: validate the job, plan it (ktpu_plan.c), keep every
 * cluster's instruction FIFO fed up to its credit, collect completions,
 * announce finished tiles, gather STATUS counters, write the result words
 * and JOB_STATUS last. docs/gemm.md describes the job block and the schedule. */
#include <stdio.h>
#include <string.h>

#include "ktpu_gemm.h"
#include "ktpu_mesh.h"
#include "ktpu_plan.h"

#define MAXC KTPU_GEMM_MAX_CLUSTERS
#define TAG_EMIT 1u    /* a GEMM that emits: the last K chunk of a tile */
#define TAG_CLEAR 2u   /* the STATUS CLEAR before the plan: its counters are not the job's */

static struct {
    struct ktpu_plan plan;
    struct ktpu_clset cs;
    struct ktpu_plan_cursor cur[MAXC];
    struct ktpu_plan_op op[MAXC];
    uint8_t have_op[MAXC], stream_done[MAXC], status_ok[MAXC], cl_err[MAXC], status_sent[MAXC];
    uint32_t tiles_done[MAXC], tiles_announced[MAXC], tile_first[MAXC];
    uint32_t ctr[MAXC][8];
    unsigned jobst;
    uint32_t detail, addr, flags_out;
    int nonfinite_told;
} R;

static void bad_job(const char *what, unsigned long v)
{
    printf("gemm: bad job: %s (0x%lx)\n", what, v);
}

/* SPEC §2 / ktpu.def JOB_*: everything the clusters would refuse, or that
 * would make C overlap the job block, is refused here with its name. */
static int validate(const uint32_t *j, unsigned present, unsigned *ncl)
{
    uint32_t m = j[KTPU_JOB_M_WORD], n = j[KTPU_JOB_N_WORD], k = j[KTPU_JOB_K_WORD];
    uint32_t fmt = KTPU_FIELD_GET(JOB_FLAGS_FMT, j[KTPU_JOB_FLAGS_WORD]);
    uint32_t esz = fmt == KTPU_FMT_FP16 ? 2u : 1u;
    uint32_t req = j[KTPU_JOB_CLUSTERS_WORD];
    uint64_t end;
    if (j[KTPU_JOB_MAGIC_WORD] != KTPU_JOB_MAGIC) return bad_job("magic is not JOB_MAGIC", j[0]), 0;
    if (!m || m % 4 || m > 65536) return bad_job("M must be a multiple of 4 in 4..65536", m), 0;
    if (!n || n % 4 || n > 65536) return bad_job("N must be a multiple of 4 in 4..65536", n), 0;
    if (!k || k % 32 || k > (1u << 20)) return bad_job("K must be a multiple of 32 in 32..2^20", k), 0;
    if (fmt != KTPU_FMT_FP16 && fmt != KTPU_FMT_MX) return bad_job("FLAGS.FMT is neither FP16 nor MX", fmt), 0;
    if (j[KTPU_JOB_A_WORD] % 32) return bad_job("A base not a multiple of 32", j[KTPU_JOB_A_WORD]), 0;
    if (j[KTPU_JOB_B_WORD] % 32) return bad_job("BT base not a multiple of 32", j[KTPU_JOB_B_WORD]), 0;
    if (j[KTPU_JOB_C_WORD] % 8) return bad_job("C base not a multiple of 8", j[KTPU_JOB_C_WORD]), 0;
    if (j[KTPU_JOB_A_STRIDE_WORD] % 32 || j[KTPU_JOB_A_STRIDE_WORD] < k * esz)
        return bad_job("A stride not a multiple of 32 of at least a row", j[KTPU_JOB_A_STRIDE_WORD]), 0;
    if (j[KTPU_JOB_B_STRIDE_WORD] % 32 || j[KTPU_JOB_B_STRIDE_WORD] < k * esz)
        return bad_job("BT stride not a multiple of 32 of at least a row", j[KTPU_JOB_B_STRIDE_WORD]), 0;
    if (j[KTPU_JOB_C_STRIDE_WORD] % 8 || j[KTPU_JOB_C_STRIDE_WORD] < 2 * n)
        return bad_job("C stride not a multiple of 8 of at least a row", j[KTPU_JOB_C_STRIDE_WORD]), 0;
    end = (uint64_t)j[KTPU_JOB_C_WORD] + (uint64_t)(m - 1) * j[KTPU_JOB_C_STRIDE_WORD] + 2ull * n;
    if (end > 0xFFFFFFFFull) return bad_job("C extends past 4 GiB", j[KTPU_JOB_C_WORD]), 0;
    if (j[KTPU_JOB_C_WORD] < KTPU_JOB_OFFSET + KTPU_JOB_BYTES && end > KTPU_JOB_OFFSET)
        return bad_job("C overlaps the job block", j[KTPU_JOB_C_WORD]), 0;
    if (present == 0) return bad_job("no clusters in SOC_KINDS0/1", 0), 0;
    if (req > present) return bad_job("JOB_CLUSTERS is more than the clusters present", req), 0;
    *ncl = req ? req : present;
    if (*ncl > MAXC) *ncl = MAXC;   /* counters have room for MAXC */
    return 1;
}

static int encode(uint32_t *w, const struct ktpu_plan_op *o)
{
    switch (o->kind) {
    case KTPU_CLOP_FILL: return ktpu_ci_fill(w, o->side, o->fmt, o->off, o->base, o->stride, o->gm, o->nk);
    case KTPU_CLOP_GEMM:
        return ktpu_ci_gemm(w, o->aoff, o->boff, o->toff, o->gm, o->gn, o->nk, o->acc, o->emit, o->base, o->stride);
    case KTPU_CLOP_STATUS: return ktpu_ci_status(w, 1);   /* read and clear: the next job starts clean */
    default: return -1;
    }
}

static void hw_error(unsigned c, unsigned op, unsigned code, uint32_t addr, const char *what)
{
    R.cl_err[c] = 1;
    if (R.jobst == KTPU_JOBST_HWERR || R.jobst == KTPU_JOBST_TIMEOUT) return;   /* the first one is reported */
    R.jobst = KTPU_JOBST_HWERR;
    R.detail = KTPU_FIELD(JOB_DETAIL_CODE, code) | KTPU_FIELD(JOB_DETAIL_CLUSTER, c) | KTPU_FIELD(JOB_DETAIL_OP, op);
    R.addr = addr;
    printf("gemm: HWERR: cluster %u (%u,%u) %s: %s\n", c, R.cs.cl[c].x, R.cs.cl[c].y, ktpu_clop_name(op), what);
}

/* Announce the tiles of cluster c known written: its emitting GEMMs were
 * accepted and a STATUS (the node answers it only once every drain burst is
 * acknowledged) came back after them. */
static void announce(unsigned c, uint32_t job_flags)
{
    const struct ktpu_plan *p = &R.plan;
    for (; R.tiles_announced[c] < R.tiles_done[c]; R.tiles_announced[c]++) {
        unsigned t = R.tile_first[c] + R.tiles_announced[c];
        unsigned g0 = (t % p->ntm) * p->gm, h0 = (t / p->ntm) * p->gn;
        unsigned gm = p->gmt - g0 < p->gm ? p->gmt - g0 : p->gm, gn = p->gnt - h0 < p->gn ? p->gnt - h0 : p->gn;
        if (!(job_flags & KTPU_JOB_FLAGS_TILE_MBOX_MASK)) continue;
        KTPU_REG(MBOX_ARG0) = KTPU_FIELD(MBOX_TILE_HI, 4 * g0) | KTPU_FIELD(MBOX_TILE_LO, 4 * h0);
        KTPU_REG(MBOX_ARG1) = KTPU_FIELD(MBOX_TILE_HI, 4 * gm) | KTPU_FIELD(MBOX_TILE_LO, 4 * gn);
        KTPU_REG(MBOX_CMD) = KTPU_MBOX_CMD_TILE;
    }
}

static void completion(const struct ktpu_cl_done *d, uint32_t job_flags)
{
    unsigned c = d->cluster;
    char buf[96];
    if (d->code == KTPU_CLERR_NONFINITE) {
        /* FILL done with the block zeroed (q = 0): C is still the
         * reference's, the job ends JOBST_NUMERIC with FLAG_NONFINITE */
        R.flags_out |= KTPU_FLAG_NONFINITE;
        if (!R.nonfinite_told++)
            printf("gemm: cluster %u: an operand block holds Inf/NaN (CLERR_NONFINITE): quantised to zero\n", c);
    } else if (d->code != KTPU_CLERR_OK) {
        if (d->code == KTPU_CLERR_MEM)
            snprintf(buf, sizeof buf, "CLERR_MEM, %s (%s) at 0x%08lx", ktpu_memst_name(d->memst),
                     ktpu_memst_doc(d->memst), (unsigned long)d->addr);
        else
            snprintf(buf, sizeof buf, "%s (%s)", ktpu_clerr_name(d->code), ktpu_clerr_doc(d->code));
        hw_error(c, d->op, d->code, d->code == KTPU_CLERR_MEM ? d->addr : 0, buf);
        return;
    }
    if (d->op == KTPU_CLOP_GEMM && (d->tag & TAG_EMIT) && !R.cl_err[c]) R.tiles_done[c]++;
    if (d->op == KTPU_CLOP_STATUS && !(d->tag & TAG_CLEAR)) {
        uint32_t fl = d->w[KTPU_CD_FLAGS_WORD];
        for (unsigned i = 1; i < 8; i++) R.ctr[c][i] = d->w[i];
        R.flags_out |= KTPU_FIELD_GET(CD_FLAGS_NUM, fl);
        R.status_ok[c] = 1;
        if (fl & KTPU_CD_FLAGS_WRERR_MASK)
            hw_error(c, KTPU_CLOP_STATUS, KTPU_CLERR_MEM, 0,
                     "a drain write burst was refused (CD_FLAGS WRERR): C is incomplete");
        else if (fl & KTPU_CD_FLAGS_STRAY_MASK)
            hw_error(c, KTPU_CLOP_STATUS, 0, 0, "peer data without an open stream (CD_FLAGS STRAY)");
        if (!R.cl_err[c]) announce(c, job_flags);
    }
}

static unsigned finish(volatile uint32_t *job, unsigned ncl, uint32_t t0)
{
    uint32_t cycles = ktpu_read_mcycle() - t0;
    char buf[64];
    job[KTPU_JOB_DETAIL_WORD] = R.detail;
    job[KTPU_JOB_ADDR_WORD] = R.addr;
    job[KTPU_JOB_CYCLES_WORD] = cycles;
    job[KTPU_JOB_FLAGS_OUT_WORD] = R.flags_out;
    for (unsigned c = 0; c < ncl; c++)
        for (unsigned i = 1; i < 8; i++) job[KTPU_JOB_CL_WORD + 8 * c + i] = R.ctr[c][i];
    if (R.jobst == KTPU_JOBST_DONE && R.flags_out) {
        R.jobst = KTPU_JOBST_NUMERIC;
        printf("gemm: NUMERIC: C is written, but sticky flags are set: %s\n",
               ktpu_flag_names(R.flags_out, buf, sizeof buf));
    }
    job[KTPU_JOB_STATUS_WORD] = R.jobst;
    (void)job[KTPU_JOB_STATUS_WORD];   /* a load after the store: it has landed before we go on */
    return R.jobst;
}

unsigned ktpu_gemm_run(volatile uint32_t *job, const struct ktpu_gemm_opts *opt)
{
    uint32_t t0 = ktpu_read_mcycle();
    uint32_t j[KTPU_JOB_CLUSTERS_WORD + 1];
    unsigned ncl = 0;
    uint32_t w[KTPU_CI_WORDS];
    struct ktpu_cl_done d;

    /* field by field: picolibc's -Os memset goes a byte at a time */
    for (unsigned c = 0; c < MAXC; c++) {
        R.have_op[c] = R.stream_done[c] = R.status_ok[c] = R.cl_err[c] = R.status_sent[c] = 0;
        R.tiles_done[c] = R.tiles_announced[c] = R.tile_first[c] = 0;
        for (unsigned i = 0; i < 8; i++) R.ctr[c][i] = 0;
    }
    R.detail = R.addr = R.flags_out = 0;
    R.nonfinite_told = 0;
    R.jobst = KTPU_JOBST_DONE;
    for (unsigned i = 0; i <= KTPU_JOB_CLUSTERS_WORD; i++) j[i] = job[i];
    int present = ktpu_clset_discover(&R.cs, KTPU_MAX_CLUSTERS);
    if (present < 0) printf("gemm: SOC_KINDS0/1 describe no CPU node\n");
    if (present < 0 || !validate(j, present < 0 ? 0 : (unsigned)present, &ncl)) {
        R.jobst = KTPU_JOBST_BADJOB;
        return finish(job, 0, t0);
    }
    R.cs.n = ncl;
    /* STATUS CLEAR first: the counters and sticky flags the job reports
     * are its own (the nodes are idle, so this answers at once; it
     * travels while the CPU plans) */
    for (unsigned c = 0; c < ncl; c++) {
        ktpu_ci_status(w, 1);
        ktpu_cl_issue(&R.cs, c, w, TAG_CLEAR);
    }
    struct ktpu_plan_cfg cfg = {
        .m = j[KTPU_JOB_M_WORD], .n = j[KTPU_JOB_N_WORD], .k = j[KTPU_JOB_K_WORD],
        .fmt = KTPU_FIELD_GET(JOB_FLAGS_FMT, j[KTPU_JOB_FLAGS_WORD]),
        .a = j[KTPU_JOB_A_WORD], .lda = j[KTPU_JOB_A_STRIDE_WORD],
        .b = j[KTPU_JOB_B_WORD], .ldb = j[KTPU_JOB_B_STRIDE_WORD],
        .c = j[KTPU_JOB_C_WORD], .ldc = j[KTPU_JOB_C_STRIDE_WORD],
        .clusters = ncl,
        .l1_depth = opt && opt->l1_depth ? opt->l1_depth : KTPU_L1_DEPTH,
        .acc_depth = opt && opt->acc_depth ? opt->acc_depth : KTPU_ACC_DEPTH,
    };
    enum ktpu_plan_err pe = ktpu_plan_init(&R.plan, &cfg);
    if (pe != KTPU_PLAN_OK) {
        bad_job(ktpu_plan_err_name(pe), 0);
        R.jobst = KTPU_JOBST_BADJOB;
        return finish(job, 0, t0);
    }
    uint32_t limit = opt && opt->timeout ? opt->timeout
                                         : (1u << 20) + 16u * R.plan.gm * R.plan.gn * R.plan.nk_max;
    for (unsigned c = 0; c < ncl; c++) {
        ktpu_plan_cursor_init(&R.plan, c, &R.cur[c]);
        R.tile_first[c] = R.cur[c].tile;
    }
    if (opt && opt->stuck_test) {
        /* a SEND to the CPU's own node: no grant ever comes, cluster 0 waits */
        ktpu_ci_peer(w, KTPU_CLOP_SEND, R.cs.cpu_x, R.cs.cpu_y, 0, 1);
        ktpu_cl_issue(&R.cs, 0, w, 0);
    }

    int stop = 0, timed_out = -1;
    for (;;) {
        /* keep every FIFO full: the clusters must never wait for the CPU */
        for (unsigned c = 0; c < ncl && !stop; c++)
            while (!R.stream_done[c] && ktpu_cl_credit(&R.cs, c)) {
                struct ktpu_plan_op *o = &R.op[c];
                if (!R.have_op[c] && !ktpu_plan_next(&R.plan, &R.cur[c], o)) {
                    R.stream_done[c] = 1;
                    break;
                }
                R.have_op[c] = 0;
                if (encode(w, o)) {
                    hw_error(c, o->kind, 0, 0, "the plan made an instruction field out of range (planner bug)");
                    stop = 1;
                    break;
                }
                ktpu_cl_issue(&R.cs, c, w, o->kind == KTPU_CLOP_GEMM && o->emit ? TAG_EMIT : 0);
                if (o->kind == KTPU_CLOP_STATUS) {
                    R.status_sent[c] = 1;
                    R.stream_done[c] = 1;
                }
            }
        int r;
        while ((r = ktpu_cl_poll(&R.cs, &d)) != 0) {
            if (r < 0) continue;   /* counted in cs.stray */
            completion(&d, j[KTPU_JOB_FLAGS_WORD]);
            if (R.jobst == KTPU_JOBST_HWERR) stop = 1;
        }
        unsigned busy = 0, pending = 0;
        for (unsigned c = 0; c < ncl; c++) {
            busy += R.cs.cl[c].outstanding;
            pending += !R.stream_done[c];
        }
        if (!busy && (stop || !pending)) break;
        if ((timed_out = ktpu_cl_timed_out(&R.cs, limit)) >= 0) break;
    }
    if (timed_out >= 0) {
        unsigned op = 0;
        for (unsigned k = 0; k < KTPU_NODE_IQ_DEPTH; k++)
            if (R.cs.cl[timed_out].slot[k].busy) op = R.cs.cl[timed_out].slot[k].op;
        R.jobst = KTPU_JOBST_TIMEOUT;
        R.detail = KTPU_FIELD(JOB_DETAIL_CLUSTER, timed_out) | KTPU_FIELD(JOB_DETAIL_OP, op);
        printf("gemm: TIMEOUT: cluster %d (%u,%u) answered nothing for %lu cycles (%s outstanding)\n", timed_out,
               R.cs.cl[timed_out].x, R.cs.cl[timed_out].y, (unsigned long)limit, ktpu_clop_name(op));
        return finish(job, ncl, t0);
    }
    if (stop) {
        /* an error stopped the plan: a STATUS barrier on every cluster that
         * has not had its own, so the counters and the finished tiles are
         * still reported (nothing already computed is lost) */
        for (unsigned c = 0; c < ncl; c++)
            if (!R.status_sent[c]) {
                ktpu_ci_status(w, 1);
                ktpu_cl_issue(&R.cs, c, w, 0);
            }
        for (;;) {
            unsigned busy = 0;
            for (unsigned c = 0; c < ncl; c++) busy += R.cs.cl[c].outstanding;
            if (!busy) break;
            if (ktpu_cl_poll(&R.cs, &d) > 0) completion(&d, j[KTPU_JOB_FLAGS_WORD]);
            else if (ktpu_cl_timed_out(&R.cs, limit) >= 0) break;
        }
    }
    if (R.cs.stray) printf("gemm: %lu flits that were no completion of ours were dropped\n", (unsigned long)R.cs.stray);
    unsigned st = finish(job, ncl, t0);
    if (st == KTPU_JOBST_DONE && !(opt && opt->quiet)) {
        uint32_t cyc = job[KTPU_JOB_CYCLES_WORD];
        uint64_t macs = (uint64_t)cfg.m * cfg.n * cfg.k, peak = (uint64_t)cyc * 512u * ncl;
        unsigned pm = peak ? (unsigned)((macs * 1000u + peak / 2u) / peak) : 0;   /* rounded, as the harness prints it */
        printf("gemm: %lux%lux%lu %s on %u cluster(s): %u tiles of %ux%u sub-tiles, %lu cycles, %u.%u%% of peak\n",
               (unsigned long)cfg.m, (unsigned long)cfg.k, (unsigned long)cfg.n,
               cfg.fmt == KTPU_FMT_MX ? "MXFP7" : "FP16", ncl, R.plan.ntiles, R.plan.gm, R.plan.gn,
               (unsigned long)cyc, pm / 10, pm % 10);
    }
    return st;
}
