/* The GEMM service: validate the job, plan it (ktpu_plan.c), keep every
 * cluster's instruction FIFO fed up to its credit, collect completions,
 * announce finished tiles, gather STATUS counters, write the result words
 * and JOB_STATUS last. docs/gemm.md describes the job block and the schedule. */
#include <stdio.h>
#include <string.h>

#include "ktpu_gemm.h"
#include "ktpu_job.h"
#include "ktpu_mesh.h"
#include "ktpu_plan.h"

#define MAXC KTPU_GEMM_MAX_CLUSTERS
#define TAG_EMIT 1u    /* a GEMM that emits: the last K chunk of a tile */
#define TAG_CLEAR 2u   /* the STATUS CLEAR before the plan: its counters are not the job's */
#define RING 16u       /* a uniform plan's encoded instructions kept: the fastest cluster at most this far ahead */

static struct {
    struct ktpu_plan plan;
    struct ktpu_clset cs;
    int inited, present;               /* ktpu_gemm_init ran; clusters found, -1: no CPU node */
    uint32_t dirty;                    /* bit c: cluster c's counters ran since its last STATUS CLEAR */
    struct ktpu_plan_cursor cur[MAXC];
    struct ktpu_plan_op op;
    /* each cluster's next instruction, encoded while the CPU waits */
    uint32_t next_w[MAXC][KTPU_CI_WORDS], next_tag[MAXC];
    /* a uniform plan (ktpu_plan.h): one stream, cur[0]'s, encoded once into
     * a ring; cluster c sends entry pos[c] with its base word moved by
     * shift[c] */
    int uniform, lead_done;
    unsigned lead_n, pos[MAXC], ring;   /* ring: entries in use, a power of two <= RING */
    struct ktpu_plan_shift shift[MAXC];
    uint32_t ring_w[RING][KTPU_CI_WORDS];
    uint8_t ring_sel[RING], ring_tag[RING];
    uint8_t ready[MAXC], plan_done[MAXC], status_ok[MAXC], cl_err[MAXC], status_sent[MAXC];
    uint32_t tiles_done[MAXC], tiles_announced[MAXC];
    unsigned ann_bm[MAXC], ann_bn[MAXC];   /* the next tile to announce, as row and column block */
    volatile uint32_t *job;            /* the job block being run */
    unsigned jobst;
    uint32_t detail, addr, flags_out;
    int nonfinite_told;
    /* where the CPU's cycles go (mcycle): before the first instruction,
     * encoding, sending, completions; the rest of the loop is waiting */
    uint32_t t_start, t_prep, t_send, t_done, n_prep, n_send, n_done;
    /* the job's phases (mcycle from its start): a GEMM's CL_DONE comes when
     * its sweep starts, so the first one per cluster ends its prologue and
     * the last one starts the tail */
    uint32_t t0, t_first_sweep[MAXC], t_last_sweep;
} R;

/* The per-job state, cleared at boot and after each job's JOB_STATUS (so
 * not on the next job's path to its first instruction). Field by field:
 * picolibc's -Os memset goes a byte at a time. */
static void clear_job_state(void)
{
    for (unsigned c = 0; c < MAXC; c++) {
        R.ready[c] = R.plan_done[c] = R.status_ok[c] = R.cl_err[c] = R.status_sent[c] = 0;
        R.tiles_done[c] = R.tiles_announced[c] = R.t_first_sweep[c] = R.pos[c] = 0;
    }
    R.detail = R.addr = R.flags_out = 0;
    R.nonfinite_told = R.uniform = R.lead_done = 0;
    R.lead_n = 0;
    R.t_start = R.t_prep = R.t_send = R.t_done = R.n_prep = R.n_send = R.n_done = R.t_last_sweep = 0;
    R.jobst = KTPU_JOBST_DONE;
}

static void bad_job(const char *what, unsigned long v)
{
    printf("gemm: bad job: %s (0x%lx)\n", what, v);
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
        unsigned g0 = R.ann_bm[c] * p->gm, h0 = R.ann_bn[c] * p->gn;
        unsigned gm = p->gmt - g0 < p->gm ? p->gmt - g0 : p->gm, gn = p->gnt - h0 < p->gn ? p->gnt - h0 : p->gn;
        if (++R.ann_bm[c] == p->ntm) {   /* the plan's tile order: column-block major */
            R.ann_bm[c] = 0;
            R.ann_bn[c]++;
        }
        if (!(job_flags & KTPU_JOB_FLAGS_TILE_MBOX_MASK)) continue;
        KTPU_REG(MBOX_ARG0) = KTPU_FIELD(MBOX_TILE_HI, 4 * g0) | KTPU_FIELD(MBOX_TILE_LO, 4 * h0);
        KTPU_REG(MBOX_ARG1) = KTPU_FIELD(MBOX_TILE_HI, 4 * gm) | KTPU_FIELD(MBOX_TILE_LO, 4 * gn);
        KTPU_REG(MBOX_CMD) = KTPU_MBOX_CMD_TILE;
    }
}

/* An error completion, named (kept out of completion()'s common path). */
static void __attribute__((noinline)) completion_error(const struct ktpu_cl_done *d)
{
    char buf[96];
    if (d->code == KTPU_CLERR_MEM)
        snprintf(buf, sizeof buf, "CLERR_MEM, %s (%s) at 0x%08lx", ktpu_memst_name(d->memst),
                 ktpu_memst_doc(d->memst), (unsigned long)d->addr);
    else
        snprintf(buf, sizeof buf, "%s (%s)", ktpu_clerr_name(d->code), ktpu_clerr_doc(d->code));
    hw_error(d->cluster, d->op, d->code, d->code == KTPU_CLERR_MEM ? d->addr : 0, buf);
}

static void completion(const struct ktpu_cl_done *d, uint32_t job_flags)
{
    unsigned c = d->cluster;
    if (d->code == KTPU_CLERR_NONFINITE) {
        /* FILL done with the block zeroed (q = 0): C is still the
         * reference's, the job ends JOBST_NUMERIC with FLAG_NONFINITE */
        R.flags_out |= KTPU_FLAG_NONFINITE;
        if (!R.nonfinite_told++)
            printf("gemm: cluster %u: an operand block holds Inf/NaN (CLERR_NONFINITE): quantised to zero\n", c);
    } else if (d->code != KTPU_CLERR_OK) {
        completion_error(d);
        return;
    }
    if (d->op == KTPU_CLOP_GEMM) {
        R.t_last_sweep = ktpu_read_mcycle() - R.t0;
        if (!R.t_first_sweep[c]) R.t_first_sweep[c] = R.t_last_sweep;
        if ((d->tag & TAG_EMIT) && !R.cl_err[c]) R.tiles_done[c]++;
    }
    if (d->op == KTPU_CLOP_STATUS && !(d->tag & TAG_CLEAR)) {
        uint32_t fl = d->w[KTPU_CD_FLAGS_WORD];
        /* straight into the job block: a cluster's final STATUS is written
         * once, while the others still drain, not copied again at the end */
        volatile uint32_t *slot = R.job + KTPU_JOB_CL_WORD + 8 * c;
        for (unsigned i = 1; i < 8; i++) slot[i] = d->w[i];
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

static unsigned finish(unsigned ncl, uint32_t t0)
{
    volatile uint32_t *job = R.job;
    /* every cluster but those whose final STATUS CLEAR answered */
    R.dirty = ~0u;
    for (unsigned c = 0; c < ncl; c++)
        if (R.status_ok[c]) R.dirty &= ~(1u << c);
    uint32_t cycles = ktpu_read_mcycle() - t0;
    char buf[64];
    job[KTPU_JOB_DETAIL_WORD] = R.detail;
    job[KTPU_JOB_ADDR_WORD] = R.addr;
    job[KTPU_JOB_CYCLES_WORD] = cycles;
    job[KTPU_JOB_FLAGS_OUT_WORD] = R.flags_out;
    for (unsigned c = 0; c < ncl; c++)
        if (!R.status_ok[c])   /* no final STATUS came: no counters */
            for (unsigned i = 1; i < 8; i++) job[KTPU_JOB_CL_WORD + 8 * c + i] = 0;
    if (R.jobst == KTPU_JOBST_DONE && R.flags_out) {
        R.jobst = KTPU_JOBST_NUMERIC;
        printf("gemm: NUMERIC: C is written, but sticky flags are set: %s\n",
               ktpu_flag_names(R.flags_out, buf, sizeof buf));
    }
    job[KTPU_JOB_STATUS_WORD] = R.jobst;
    (void)job[KTPU_JOB_STATUS_WORD];   /* a load after the store: it has landed before we go on */
    return R.jobst;
}

int ktpu_gemm_init(void)
{
    uint32_t w[KTPU_CI_WORDS];
    struct ktpu_cl_done d;
    clear_job_state();
    R.present = ktpu_clset_discover(&R.cs, KTPU_GEMM_MAX_CLUSTERS);
    if (R.present <= 0) return R.present;
    /* STATUS CLEAR on every cluster: the nodes are idle, each answers at
     * once; a cluster that does not answer is left to the first job's
     * time-out (the counters are then cleared again) */
    ktpu_clset_new_epoch(&R.cs);
    for (unsigned c = 0; c < (unsigned)R.present; c++) {
        ktpu_ci_status(w, 1);
        ktpu_cl_issue(&R.cs, c, w, TAG_CLEAR);
    }
    uint32_t t0 = ktpu_mtime();
    for (unsigned left = (unsigned)R.present; left && ktpu_mtime() - t0 < (1u << 16);)
        if (ktpu_cl_poll(&R.cs, &d) > 0) left--;
    R.dirty = 0;
    for (unsigned c = 0; c < (unsigned)R.present; c++)
        if (R.cs.cl[c].outstanding) R.dirty |= 1u << c;
    R.inited = 1;
    return R.present;
}

/* Cluster c has an instruction encoded for it, or its plan goes on. */
static int has_next(unsigned c) { return R.uniform ? R.pos[c] != R.lead_n : R.ready[c]; }
static int left_to_send(unsigned c)
{
    return R.uniform ? R.pos[c] != R.lead_n || !R.lead_done : R.ready[c] || !R.plan_done[c];
}

/* Nothing outstanding on any cluster and nothing left to send. */
static int all_done(unsigned ncl, int stop)
{
    for (unsigned c = 0; c < ncl; c++)
        if (R.cs.cl[c].outstanding || (!stop && left_to_send(c))) return 0;
    return 1;
}

/* Spins until a flit waits (-1), or returns the first cluster that timed
 * out. The spin is a load and a branch, so a completion is taken within a
 * few cycles of its arrival; the timer is looked at every 64 turns. */
static int wait_flit(uint32_t limit)
{
    for (unsigned i = 1;; i++) {
        if (KTPU_REG(MESH_STATUS) & KTPU_MESH_STATUS_RX_VALID_MASK) return -1;
        if (!(i & 63)) {
            int t = ktpu_cl_timed_out(&R.cs, limit);
            if (t >= 0) return t;
        }
    }
}

/* The completion tag an instruction of the plan carries. */
static uint32_t op_tag(const struct ktpu_plan_op *o)
{
    return o->kind == KTPU_CLOP_GEMM && o->emit ? TAG_EMIT : 0;
}

/* Cluster c's next instruction into R.next_w[c] (the CPU does this while
 * the clusters work, so that a freed credit is used at once). */
static void prepare(unsigned c)
{
    struct ktpu_plan_op *o = &R.op;
    if (!ktpu_plan_next(&R.plan, &R.cur[c], o)) {
        R.plan_done[c] = 1;
        return;
    }
    ktpu_plan_encode(o, R.next_w[c]);
    R.next_tag[c] = op_tag(o);
    R.ready[c] = 1;
}

/* A uniform plan's next instruction into the ring, when the fastest
 * cluster has sent all it holds (so the ring keeps one instruction encoded
 * ahead of it) and the slowest is fewer than RING behind. Returns 1 if it
 * encoded one. */
static int produce(unsigned ncl)
{
    unsigned lo = R.lead_n, hi = 0;
    for (unsigned c = 0; c < ncl; c++) {
        if (R.pos[c] < lo) lo = R.pos[c];
        if (R.pos[c] > hi) hi = R.pos[c];
    }
    if (R.lead_done || hi != R.lead_n || R.lead_n - lo >= R.ring) return 0;
    struct ktpu_plan_op *o = &R.op;
    if (!ktpu_plan_next(&R.plan, &R.cur[0], o)) {
        R.lead_done = 1;
        return 0;
    }
    unsigned e = R.lead_n & (R.ring - 1u);
    ktpu_plan_encode(o, R.ring_w[e]);
    R.ring_sel[e] = (uint8_t)ktpu_plan_shift_sel(o);
    R.ring_tag[e] = (uint8_t)op_tag(o);
    R.lead_n++;
    return 1;
}

static unsigned run(volatile uint32_t *job, const struct ktpu_gemm_opts *opt)
{
    uint32_t t0 = ktpu_read_mcycle();
    uint32_t j[KTPU_JOB_CLUSTERS_WORD + 1];
    unsigned ncl = 0;
    uint32_t w[KTPU_CI_WORDS];
    struct ktpu_cl_done d;

    if (!R.inited) ktpu_gemm_init();   /* a caller that did not at boot */
    R.t0 = t0;
    R.job = job;
    for (unsigned i = 0; i <= KTPU_JOB_CLUSTERS_WORD; i++) j[i] = job[i];
    if (R.present < 0) printf("gemm: SOC_KINDS0/1 describe no CPU node\n");
    uint32_t bad_value = 0;
    struct ktpu_job_env env = {.present = R.present < 0 ? 0 : (unsigned)R.present, .max_clusters = MAXC,
                               .win_base = KTPU_REG(MEM_WIN_BASE), .win_limit = KTPU_REG(MEM_WIN_LIMIT)};
    if (opt && opt->no_window_check) env.win_base = 0, env.win_limit = 1ull << 32;
    const char *why = ktpu_job_check(j, &env, &ncl, &bad_value);
    if (R.present < 0 || why) {
        if (why) bad_job(why, bad_value);
        R.jobst = KTPU_JOBST_BADJOB;
        return finish(0, t0);
    }
    R.cs.n = ncl;
    R.cs.stray = 0;
    ktpu_clset_new_epoch(&R.cs);
    /* The counters and sticky flags a job reports are its own: ktpu_gemm_init
     * cleared them and a job ends with a STATUS CLEAR on each cluster it
     * used, so only a cluster the last job did not use, or that timed out,
     * needs a CLEAR first (not a credit held at every job's start). */
    for (unsigned c = 0; c < ncl; c++)
        if (R.dirty & (1u << c)) {
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
        .tile_gm = opt ? opt->tile_gm : 0,
        .tile_gn = opt ? opt->tile_gn : 0,
    };
    enum ktpu_plan_err pe = ktpu_plan_init(&R.plan, &cfg);
    if (pe != KTPU_PLAN_OK) {
        bad_job(ktpu_plan_err_name(pe), 0);
        R.jobst = KTPU_JOBST_BADJOB;
        return finish(0, t0);
    }
    uint32_t limit = opt && opt->timeout ? opt->timeout
                                         : (1u << 20) + 16u * R.plan.gm * R.plan.gn * R.plan.nk_max;
    /* a uniform plan: one cursor, a shift per cluster */
    R.uniform = R.plan.uniform && ncl > 1;
    R.ring = opt && opt->ring && opt->ring < RING && !(opt->ring & (opt->ring - 1)) ? opt->ring : RING;
    for (unsigned c = 0; c < ncl; c++) {
        if (R.uniform) {
            ktpu_plan_shift(&R.plan, c, &R.shift[c]);
            R.ann_bm[c] = R.shift[c].bm;
            R.ann_bn[c] = R.shift[c].bn;
            if (c) continue;
        }
        ktpu_plan_cursor_init(&R.plan, c, &R.cur[c]);
        R.ann_bm[c] = R.cur[c].bm;
        R.ann_bn[c] = R.cur[c].bn;
    }
    if (opt && opt->stuck_test) {
        /* a SEND to the CPU's own node: no grant ever comes, cluster 0 waits */
        ktpu_ci_peer(w, KTPU_CLOP_SEND, R.cs.cpu_x, R.cs.cpu_y, 0, 1);
        ktpu_cl_issue(&R.cs, 0, w, 0);
    }

    /* Every cluster's FIFO kept full, one instruction per cluster in turn
     * (so each cluster's first FILLs leave before any cluster's later
     * ones); every waiting completion taken; then each cluster's next
     * instruction encoded ahead. The time-out is checked only when a pass
     * found nothing to do. */
    int stop = 0, timed_out = -1;
    for (;;) {
        int sent = 0, done = 0, prep = 0;
        uint32_t ta = ktpu_read_mcycle();
        for (unsigned c = 0; c < ncl && !stop; c++)
            if (has_next(c) && ktpu_cl_credit(&R.cs, c)) {
                const uint32_t *w0;
                if (R.uniform) {   /* the ring's, moved to this cluster's tiles */
                    unsigned e = R.pos[c]++ & (R.ring - 1u);
                    w0 = R.ring_w[e];
                    ktpu_cl_issue_moved(&R.cs, c, w0, R.shift[c].d[R.ring_sel[e]], R.ring_tag[e]);
                } else {
                    w0 = R.next_w[c];
                    ktpu_cl_issue(&R.cs, c, w0, R.next_tag[c]);
                    R.ready[c] = 0;
                }
                if (KTPU_FIELD_GET(CI_OP_CODE, w0[KTPU_CI_OP_WORD]) == KTPU_CLOP_STATUS) R.status_sent[c] = 1;
                sent++;
            }
        uint32_t tb = ktpu_read_mcycle();
        int r;
        while ((r = ktpu_cl_poll(&R.cs, &d)) != 0) {
            done++;
            if (r < 0) continue;   /* counted in cs.stray */
            completion(&d, j[KTPU_JOB_FLAGS_WORD]);
            if (R.jobst == KTPU_JOBST_HWERR) stop = 1;
        }
        uint32_t tc = ktpu_read_mcycle();
        if (R.uniform && !stop)
            prep += produce(ncl);
        for (unsigned c = 0; c < ncl && !stop && !R.uniform; c++)
            if (!R.ready[c] && !R.plan_done[c]) {
                prepare(c);
                prep++;
            }
        uint32_t td = ktpu_read_mcycle();
        if (sent) R.t_send += tb - ta, R.n_send += sent;
        if (done) R.t_done += tc - tb, R.n_done += done;
        if (prep) R.t_prep += td - tc, R.n_prep += prep;
        if (!R.t_start) R.t_start = ta - t0;
        /* the last completion ends the loop at once (no further pass) */
        int did = sent || done || prep;
        if ((done || !did) && all_done(ncl, stop)) break;
        if (did) continue;
        /* nothing to send or prepare: only a completion can change that */
        if ((timed_out = wait_flit(limit)) >= 0) break;
    }
    if (timed_out >= 0) {
        unsigned op = 0;
        for (unsigned k = 0; k < KTPU_NODE_IQ_DEPTH; k++)
            if (R.cs.cl[timed_out].busy & (1u << k)) op = R.cs.cl[timed_out].op[k];
        R.jobst = KTPU_JOBST_TIMEOUT;
        R.detail = KTPU_FIELD(JOB_DETAIL_CLUSTER, timed_out) | KTPU_FIELD(JOB_DETAIL_OP, op);
        printf("gemm: TIMEOUT: cluster %d (%u,%u) answered nothing for %lu cycles (%s outstanding)\n", timed_out,
               R.cs.cl[timed_out].x, R.cs.cl[timed_out].y, (unsigned long)limit, ktpu_clop_name(op));
        return finish(ncl, t0);
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
    unsigned st = finish(ncl, t0);
    if (st == KTPU_JOBST_DONE && !(opt && opt->quiet)) {
        uint32_t cyc = job[KTPU_JOB_CYCLES_WORD];
        uint64_t macs = (uint64_t)cfg.m * cfg.n * cfg.k, peak = (uint64_t)cyc * 512u * ncl;
        unsigned pm = peak ? (unsigned)((macs * 1000u + peak / 2u) / peak) : 0;   /* rounded, as the harness prints it */
        printf("gemm: %lux%lux%lu %s on %u cluster(s): %u tiles of %ux%u sub-tiles%s, %lu cycles, %u.%u%% of peak\n",
               (unsigned long)cfg.m, (unsigned long)cfg.k, (unsigned long)cfg.n,
               cfg.fmt == KTPU_FMT_MX ? "MXFP7" : "FP16", ncl, R.plan.ntiles, R.plan.gm, R.plan.gn,
               R.uniform ? " (uniform: one stream, moved per cluster)" : "", (unsigned long)cyc, pm / 10, pm % 10);
        uint32_t busy = R.t_start + R.t_prep + R.t_send + R.t_done;
        printf("gemm: CPU: %lu cycles before the first instruction, %lu instructions encoded in %lu, %lu sent in %lu, "
               "%lu completions in %lu; busy %lu%% of the job\n",
               (unsigned long)R.t_start, (unsigned long)R.n_prep, (unsigned long)R.t_prep, (unsigned long)R.n_send,
               (unsigned long)R.t_send, (unsigned long)R.n_done, (unsigned long)R.t_done,
               (unsigned long)(cyc ? 100u * (uint64_t)busy / cyc : 0));
        printf("gemm: phases: first instruction at %lu, first sweep at", (unsigned long)R.t_start);
        for (unsigned c = 0; c < ncl; c++) printf(" %lu", (unsigned long)R.t_first_sweep[c]);
        printf(" (cluster 0..%u, 0: no tile), last sweep from %lu, done at %lu\n", ncl - 1,
               (unsigned long)R.t_last_sweep, (unsigned long)cyc);
    }
    return st;
}

unsigned ktpu_gemm_run(volatile uint32_t *job, const struct ktpu_gemm_opts *opt)
{
    unsigned st = run(job, opt);
    clear_job_state();
    return st;
}
