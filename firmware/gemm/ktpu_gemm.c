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
#include "ktpu_upload.h"

#define MAXC KTPU_GEMM_MAX_CLUSTERS
#define TAG_DRAIN 1u   /* a split-K tile's DRAIN: its completion says the tile is written */
#define TAG_CLEAR 2u   /* the STATUS CLEAR before the plan: its counters are not the job's */
#define RING 16u       /* a uniform plan's encoded instructions kept: the fastest cluster at most this far ahead */

static struct {
    struct ktpu_plan plan;
    struct ktpu_clset cs;
    uint8_t xy[2 * MAXC];              /* cluster c's mesh position (the planner's SEND / RECV peers) */
    int inited, present;               /* ktpu_gemm_init ran; clusters found, -1: no CPU node */
    uint32_t dirty;                    /* bit c: cluster c's counters ran since its last STATUS CLEAR */
    uint32_t live;                     /* bit c: cluster c may have instructions left to send */
    struct ktpu_plan_cursor cur[MAXC];
    struct ktpu_plan_op op;
    /* each cluster's next instruction, encoded while the CPU waits */
    uint32_t next_w[MAXC][KTPU_CI_WORDS], next_tag[MAXC];
    /* a uniform plan (ktpu_plan.h): one stream, cur[0]'s, encoded once into
     * a ring; cluster c sends entry pos[c] with its base word moved by
     * shift[c] */
    int uniform, lead_done;
    int single;                        /* a single plan (ktpu_plan.h): its four instructions are the ring */
    int skip0;                         /* cluster 0's first step went out from ktpu_plan_first_words: its
                                          cursor is made, and moved past it, by the first plan call */
    unsigned lead_n, lo, pos[MAXC], ring;   /* entries encoded, the slowest cluster's (a bound),
                                                each cluster's sent; ring: entries in use, a power
                                                of two <= RING */
    struct ktpu_plan_shift shift[MAXC];
    uint32_t ring_w[RING][KTPU_CI_WORDS];
    uint8_t ring_sel[RING], ring_tag[RING];
    uint8_t ready[MAXC], plan_done[MAXC], status_ok[MAXC], cl_err[MAXC], status_sent[MAXC];
    uint8_t gemm_wait[MAXC];           /* cluster c's GEMMs sent whose sweep has not started */
    unsigned n_started;                /* clusters whose first sweep has started */
    uint32_t cl_words[MAXC][8];        /* cluster c's final STATUS, words 1..7 (finish() writes them) */
    unsigned ann_bm[MAXC], ann_bn[MAXC];   /* the next tile to announce, as row and column block */
    unsigned written[MAXC];            /* cluster c's tiles in DRAM, not yet announced */
    uint32_t ann_due;                  /* bit c: written[c] != 0 */
    uint32_t job_flags;                /* the job's JOB_FLAGS word */
    volatile uint32_t *job;            /* the job block being run */
    unsigned jobst;
    uint32_t detail, addr, flags_out;
    int nonfinite_told;
    /* where the CPU's cycles go (mcycle): before the first instruction,
     * and waiting for a completion with nothing else to do (the rest is
     * busy); instructions encoded, sent, completions taken */
    uint32_t t_start, t_wait, n_prep, n_send, n_done;
    uint32_t t_upload;                 /* the quantise-on-upload phase, 0: none */
    /* the job's phases (mcycle from its start): a GEMM's CL_DONE comes when
     * its sweep starts, so the first one per cluster ends its prologue and
     * the last one starts the tail */
    uint32_t t0, t_first_sweep[MAXC], t_last_sweep;
    /* grouped FILLs (last here: the fields the issue path uses stay where
     * they were, within reach of short loads) */
    int grouped;                       /* the plan has grouped FILLs (plan_groups) */
    uint32_t group_w0[4];              /* by shift select: the GROUP_N bits of a FILL clusters read alike, or 0 */
} R;

/* The per-job state, cleared at boot and after each job's JOB_STATUS (so
 * not on the next job's path to its first instruction). Field by field:
 * picolibc's -Os memset goes a byte at a time. */
static void clear_job_state(void)
{
    for (unsigned c = 0; c < MAXC; c++) {
        R.ready[c] = R.plan_done[c] = R.status_ok[c] = R.cl_err[c] = R.status_sent[c] = R.gemm_wait[c] = 0;
        R.t_first_sweep[c] = R.pos[c] = R.written[c] = 0;
    }
    R.detail = R.addr = R.flags_out = 0;
    R.nonfinite_told = R.uniform = R.lead_done = R.single = R.grouped = R.skip0 = 0;
    R.lead_n = R.lo = R.n_started = R.ann_due = 0;
    R.t_start = R.t_wait = R.n_prep = R.n_send = R.n_done = R.t_last_sweep = R.t_upload = 0;
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

/* Cluster c's next tile is in DRAM (a CL_WRITTEN, or a split-K DRAIN's
 * completion: the node sends either once every burst of the tile is
 * acknowledged). Counted here; announced by announce() when the CPU has
 * nothing else to do, so that on 4 clusters, where the CPU is what the
 * clusters wait for, the mailbox work never delays an instruction; and at
 * once when no cluster has an instruction left to send, so that an
 * earlier cluster's last tile is not announced just as a later one's
 * completions arrive, unless a flit already waits (announcements one by
 * one cost more than a batch; measured against announcing only when idle:
 * 256x256x256 MXFP7 on 2 clusters 19,420 -> 19,325 cycles, 128x128x128 on
 * 4 5,473 -> 5,311, 64x128x64 on 1 2,696 -> 2,639). */
static void announce(void);
static inline void tile_written(unsigned c)
{
    if (R.cl_err[c]) return;
    R.written[c]++;
    R.ann_due |= 1u << c;
    if (!R.live && !(KTPU_REG(MESH_STATUS) & KTPU_MESH_STATUS_RX_VALID_MASK)) announce();
}

/* Cluster c's next tile, announced on the mailbox (where the harness
 * checks it; the plan's tile order, column-block major). */
static void announce_tile(unsigned c)
{
    const struct ktpu_plan *p = &R.plan;
    /* in locals: the mailbox stores are volatile and could alias R */
    unsigned bm = R.ann_bm[c], bn = R.ann_bn[c];
    if (R.job_flags & KTPU_JOB_FLAGS_TILE_MBOX_MASK) {
        unsigned g0 = bm * p->gm, h0 = bn * p->gn;
        unsigned gm = p->gmt - g0 < p->gm ? p->gmt - g0 : p->gm, gn = p->gnt - h0 < p->gn ? p->gnt - h0 : p->gn;
        KTPU_REG(MBOX_ARG0) = KTPU_FIELD(MBOX_TILE_HI, 4 * g0) | KTPU_FIELD(MBOX_TILE_LO, 4 * h0);
        KTPU_REG(MBOX_ARG1) = KTPU_FIELD(MBOX_TILE_HI, 4 * gm) | KTPU_FIELD(MBOX_TILE_LO, 4 * gn);
        KTPU_REG(MBOX_CMD) = KTPU_MBOX_CMD_TILE;
    }
    if (++bm == p->ntm) {
        bm = 0;
        bn++;
    }
    R.ann_bm[c] = bm;
    R.ann_bn[c] = bn;
}

/* Every tile counted written, announced. */
static void __attribute__((noinline)) announce(void)
{
    for (unsigned c = 0; R.ann_due; c++) {
        if (!(R.ann_due & (1u << c))) continue;
        R.ann_due &= ~(1u << c);
        for (; R.written[c]; R.written[c]--) announce_tile(c);
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

static void completion(const struct ktpu_cl_done *d)
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
    if (d->tag & TAG_DRAIN) tile_written(c);
    if (d->op == KTPU_CLOP_STATUS && !(d->tag & TAG_CLEAR)) {
        uint32_t fl = d->w[KTPU_CD_FLAGS_WORD];
        /* kept in local RAM, written to the job block by finish(): a DRAM
         * store here would hold the next MMIO access (the tile
         * announcements, the next completion's pop) until DRAM acknowledges
         * it, ~70 cycles on the last cluster's path to the job's end */
        uint32_t *slot = R.cl_words[c];
        slot[1] = d->w[1];
        slot[2] = d->w[2];
        slot[3] = d->w[3];
        slot[4] = d->w[4];
        slot[5] = d->w[5];
        slot[6] = d->w[6];
        slot[7] = d->w[7];
        R.flags_out |= KTPU_FIELD_GET(CD_FLAGS_NUM, fl);
        R.status_ok[c] = 1;
        if (fl & KTPU_CD_FLAGS_WRERR_MASK)
            hw_error(c, KTPU_CLOP_STATUS, KTPU_CLERR_MEM, 0,
                     "a drain write burst was refused (CD_FLAGS WRERR): C is incomplete");
        else if (fl & KTPU_CD_FLAGS_STRAY_MASK)
            hw_error(c, KTPU_CLOP_STATUS, 0, 0, "peer data without an open stream (CD_FLAGS STRAY)");
        if (R.single && !R.cl_err[c]) announce_tile(c);   /* its GEMM asked for no CL_WRITTEN */
    }
}

/* A GEMM's completion without error: its sweep has started (its tile, if
 * it emits, is announced at its CL_WRITTEN). */
static inline void sweep_started(unsigned c)
{
    R.gemm_wait[c]--;
    R.t_last_sweep = ktpu_read_mcycle() - R.t0;
    if (!R.t_first_sweep[c]) {
        R.t_first_sweep[c] = R.t_last_sweep;
        R.n_started++;
    }
}

/* Every completion goes through here: a FILL's without error (the most
 * common) asks for nothing, a GEMM's says its sweep started or (CL_WRITTEN)
 * its tile is in DRAM, the rest is completion()'s. */
static inline void take(const struct ktpu_cl_done *d)
{
    if (d->code == KTPU_CLERR_OK) {
        if (d->op == KTPU_CLOP_FILL) return;
        if (d->op == KTPU_CLOP_GEMM) {
            if (d->written) tile_written(d->cluster);
            else sweep_started(d->cluster);
            return;
        }
    } else if (d->op == KTPU_CLOP_GEMM && !d->written) {
        R.gemm_wait[d->cluster]--;
    }
    completion(d);
}

/* Quantise-on-upload (ktpu_upload.c): the plan's FILLs read the copies.
 * Returns 1 if it stopped the job. Not inlined: most jobs do without. */
static int __attribute__((noinline)) upload(uint32_t limit)
{
    struct ktpu_upload u;
    ktpu_upload(&R.plan, &R.cs, limit, &u);
    R.t_upload = u.cycles;
    R.t_wait += u.cycles;   /* the CPU only waits meanwhile: not its busy time */
    if (u.nonfinite) {   /* the blocks were zeroed, as an FP16 FILL's: NUMERIC */
        R.flags_out |= KTPU_FLAG_NONFINITE;
        R.nonfinite_told = 1;
        R.addr = u.addr;
    }
    if (u.jobst == KTPU_JOBST_DONE) return 0;
    R.jobst = u.jobst;
    R.detail = KTPU_FIELD(JOB_DETAIL_CODE, u.code) | KTPU_FIELD(JOB_DETAIL_CLUSTER, KTPU_UPLOAD_DETAIL_CLUSTER);
    R.addr = u.addr;
    return 1;
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
    job[KTPU_JOB_UPLOAD_CYCLES_WORD] = R.t_upload;
    for (unsigned c = 0; c < ncl; c++)   /* no final STATUS came: no counters */
        for (unsigned i = 1; i < 8; i++) job[KTPU_JOB_CL_WORD + 8 * c + i] = R.status_ok[c] ? R.cl_words[c][i] : 0;
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
    for (unsigned c = 0; c < (unsigned)R.present; c++) {
        R.xy[2 * c] = R.cs.cl[c].x;
        R.xy[2 * c + 1] = R.cs.cl[c].y;
    }
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

static int left_to_send(unsigned c)
{
    return R.uniform ? R.pos[c] != R.lead_n || !R.lead_done : R.ready[c] || !R.plan_done[c];
}

/* Nothing outstanding on any cluster. */
static int all_idle(unsigned ncl)
{
    for (unsigned c = 0; c < ncl; c++)
        if (R.cs.cl[c].outstanding) return 0;
    return 1;
}

/* Spins until a flit waits (-1), or returns the first cluster that timed
 * out. The spin is a load and a branch, so a completion is taken within a
 * few cycles of its arrival; the timer is looked at every 64 turns. Not
 * inlined: a function of its own is what ktpu-sim --timeline shows as the
 * service's wait phase (one call per wait). */
static int __attribute__((noinline)) wait_flit(uint32_t limit)
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
    return o->kind == KTPU_CLOP_DRAIN ? TAG_DRAIN : 0;
}

/* An emitting GEMM's words ask for its CL_WRITTEN: its tile is announced
 * as it lands. (A single plan's, encoded by encode_single, do not: its
 * STATUS follows at once and the tile is announced there, one completion
 * fewer on the short job's path.) */
static inline void ask_written(uint32_t w[KTPU_CI_WORDS])
{
    uint32_t op = w[KTPU_CI_OP_WORD];
    if (KTPU_FIELD_GET(CI_OP_CODE, op) == KTPU_CLOP_GEMM && (op & KTPU_CI_OP_EMIT_MASK))
        w[KTPU_CI_OP_WORD] = op | KTPU_CI_OP_WRITTEN_MASK;
}

/* The planner's words of o, as the service sends them. */
static inline void encode(const struct ktpu_plan_op *o, uint32_t w[KTPU_CI_WORDS])
{
    ktpu_plan_encode(o, w);
    ask_written(w);
}

/* Cluster 0's cursor, after its first step went out without one
 * (first_step): made and moved past that step when the next one is
 * wanted, while the clusters fetch its operands. */
static void __attribute__((noinline)) first_cursor(void)
{
    R.skip0 = 0;
    ktpu_plan_cursor_init(&R.plan, 0, &R.cur[0]);
    for (unsigned i = 0; i < 3; i++) ktpu_plan_next(&R.plan, &R.cur[0], &R.op);
}

/* Cluster c's next instruction into R.next_w[c] (the CPU does this while
 * the clusters work, so that a freed credit is used at once). */
static void prepare(unsigned c)
{
    struct ktpu_plan_op *o = &R.op;
    if (R.skip0 && !c) first_cursor();
    if (!ktpu_plan_next(&R.plan, &R.cur[c], o)) {
        R.plan_done[c] = 1;
        return;
    }
    encode(o, R.next_w[c]);
    R.next_tag[c] = op_tag(o);
    R.ready[c] = 1;
    /* a stream ends with its STATUS: done now, not one plan call later */
    if (o->kind == KTPU_CLOP_STATUS) R.plan_done[c] = 1;
    R.n_prep++;
}

/* The ring entry just produced, if a FILL clusters read alike, as a
 * grouped read (plan_groups): tagged with its place in the stream, the
 * same on every cluster. Out of line, and last in produce: an ungrouped
 * plan's produce pays one test for it. */
static void __attribute__((noinline)) group_entry(void)
{
    unsigned n = R.lead_n - 1u, e = n & (R.ring - 1u);
    uint32_t g = R.group_w0[R.ring_sel[e]];
    if (g) R.ring_w[e][KTPU_CI_OP_WORD] |= g | KTPU_FIELD(CI_OP_GROUP_ID, n);
}

/* A uniform plan's next instruction into the ring, if the slowest cluster
 * is fewer than ring entries behind. Returns 1 if it encoded one. */
static int produce(unsigned ncl)
{
    if (R.lead_done) return 0;
    if (R.lead_n - R.lo >= R.ring) {
        /* R.lo, the slowest cluster's position, only rises: looked up
         * again only when the ring seems full */
        unsigned lo = R.lead_n;
        for (unsigned c = 0; c < ncl; c++)
            if (R.pos[c] < lo) lo = R.pos[c];
        R.lo = lo;
        if (R.lead_n - lo >= R.ring) return 0;
    }
    struct ktpu_plan_op *o = &R.op;
    if (R.skip0) first_cursor();
    if (!ktpu_plan_next(&R.plan, &R.cur[0], o)) {
        R.lead_done = 1;
        return 0;
    }
    unsigned e = R.lead_n & (R.ring - 1u);
    encode(o, R.ring_w[e]);
    R.ring_sel[e] = (uint8_t)ktpu_plan_shift_sel(o);
    R.ring_tag[e] = (uint8_t)op_tag(o);
    R.lead_n++;
    R.n_prep++;
    if (o->kind == KTPU_CLOP_STATUS) R.lead_done = 1;
    if (R.grouped) group_entry();
    return 1;
}

/* Cluster c's next instruction, encoded now if it is not yet: its words,
 * and the base word's move and the completion tag it is sent with; NULL
 * when c's stream cannot go on (its plan is done, or, uniform, the ring is
 * full behind the slowest cluster). */
static const uint32_t *next_for(unsigned c, unsigned ncl, uint32_t *delta, uint32_t *tag)
{
    if (R.uniform) {
        /* nothing encoded for a cluster whose GEMM has not started (its
         * next FILL would be held; encode_ahead makes it when the CPU is
         * idle): the rounds after the first steps go on to the completions
         * instead of planning (the first sweeps' completions were taken
         * ~1,000 cycles late on 4 clusters, and every second step with them) */
        if (R.pos[c] == R.lead_n && (R.gemm_wait[c] || !produce(ncl))) return 0;
        unsigned e = R.pos[c]++ & (R.ring - 1u);
        *delta = R.shift[c].d[R.ring_sel[e]];
        *tag = R.ring_tag[e];
        return R.ring_w[e];
    }
    if (!R.ready[c]) {
        /* cluster 0's cursor (first_cursor) waits until its first sweep
         * starts or the CPU is idle (encode_ahead), not before the other
         * clusters' first steps (a uniform plan's rounds send those from
         * the ring before cluster 0 asks again) */
        if (R.plan_done[c] || (R.skip0 && !c && R.gemm_wait[0])) return 0;
        prepare(c);
        if (!R.ready[c]) return 0;
    }
    R.ready[c] = 0;
    *delta = 0;
    *tag = R.next_tag[c];
    return R.next_w[c];
}

/* Cluster c's instruction from next_for back: sent next time. */
static void unsend(unsigned c)
{
    if (R.uniform) R.pos[c]--;
    else R.ready[c] = 1;
}

/* With nothing to send and nothing arrived: the next instruction of one
 * cluster encoded ahead (so that a freed credit is used at once). Returns
 * 1 if it encoded one. */
static int encode_ahead(unsigned ncl)
{
    if (R.uniform) {   /* one entry ahead of the fastest cluster */
        for (unsigned c = 0; c < ncl; c++)
            if (R.pos[c] == R.lead_n) return produce(ncl);
        return 0;
    }
    for (unsigned c = 0; c < ncl; c++)
        if (!R.ready[c] && !R.plan_done[c]) {
            prepare(c);
            return 1;
        }
    return 0;
}

/* A uniform plan's FILLs that clusters read alike become grouped reads
 * (docs/mem.md): the memory agent reads each once for the clusters that
 * share it. Clusters read a FILL alike when the shift moves it by the same
 * amount on each; a FILL is grouped when those classes are all of one
 * size k >= 2, the group size every cluster's copy of the entry carries
 * (on 2 clusters the row band of A both clusters' column blocks share; on
 * 4, 256x256x256: BT shared by clusters 0 and 1 and by 2 and 3, A by 0
 * and 2 and by 1 and 3). Only FP16 read online, where every block costs
 * the port two beats: an MXFP7 block is one beat, as many as its MEM_DATA
 * flits, so a grouped MXFP7 read would save the port nothing the agent's
 * link could use (the node bench: 256x256x256 on 2 clusters, B grouped,
 * 17,992 cycles against 17,802).
 * Tags: entry e of the stream carries e mod 16 (classes of one entry have
 * different bases: the agent tells them apart). A cluster is sent the
 * next GEMM's FILLs only once its last GEMM's sweep has started (run's
 * rounds), which needs that GEMM's groups complete, so no cluster is more
 * than one step ahead of a cluster it shares a FILL with: a class has at
 * most one group open per operand (a step has one FILL of each), no two
 * open groups share a tag and base, and at most 2 classes x 2 operands
 * are open at an agent (MEM_GROUP_SLOTS 4: none is refused for want of
 * a slot). */
static void __attribute__((noinline)) plan_groups(void)
{
    unsigned n = R.plan.active;
    R.group_w0[0] = R.group_w0[1] = R.group_w0[2] = R.group_w0[3] = 0;
    if (n < 2 || n > KTPU_MEM_GROUP_MAX) return;
    for (unsigned sel = 1; sel <= 2; sel++) {
        unsigned k = 0;
        for (unsigned c = 0; c < n; c++) {
            unsigned size = 0;
            for (unsigned o = 0; o < n; o++) size += R.shift[o].d[sel] == R.shift[c].d[sel];
            if (c && size != k) k = 0;
            if (!c) k = size;
        }
        if (k >= 2) R.group_w0[sel] = KTPU_FIELD(CI_OP_GROUP_N, k), R.grouped = 1;
    }
}

/* Any plan but a single one: each active cluster's cursor (a uniform
 * plan: cluster 0's, and a shift per cluster); the clusters with a stream
 * are live. */
static void start_streams(unsigned ncl)
{
    for (unsigned c = 0; c < ncl; c++) {
        if (c >= R.plan.active) {   /* no tile for it (the last clusters): no instruction */
            R.plan_done[c] = 1;
            continue;
        }
        if (R.uniform) {
            ktpu_plan_shift(&R.plan, c, &R.shift[c]);
            R.ann_bm[c] = R.shift[c].bm;
            R.ann_bn[c] = R.shift[c].bn;
            if (c) continue;
        }
        if (!c && R.skip0) {   /* tile 0 first: the cursor comes later (first_cursor) */
            R.ann_bm[0] = R.ann_bn[0] = 0;
            continue;
        }
        ktpu_plan_cursor_init(&R.plan, c, &R.cur[c]);
        R.ann_bm[c] = R.cur[c].bm;
        R.ann_bn[c] = R.cur[c].bn;
    }
    if (R.uniform && R.plan.cfg.fmt == KTPU_FMT_FP16 && !R.plan.upload) plan_groups();
    R.live = 0;
    for (unsigned c = 0; c < ncl; c++)
        if (left_to_send(c)) R.live |= 1u << c;
}

/* A single plan: no cursor; cluster 0's four instructions encoded now, as
 * the whole ring of a uniform stream only cluster 0 sends from (the others
 * are never live). */
static void encode_single(void)
{
    ktpu_plan_first_words(&R.plan, R.ring_w);
    ktpu_ci_status(R.ring_w[3], 1);
    R.ring_sel[0] = R.ring_sel[1] = R.ring_sel[2] = R.ring_sel[3] = 0;
    R.ring_tag[0] = R.ring_tag[1] = R.ring_tag[2] = R.ring_tag[3] = 0;
    R.shift[0].d[0] = 0;
    R.lead_n = R.n_prep = 4;
    R.lead_done = R.uniform = 1;
    R.ring = RING;   /* all four, whatever opt->ring says */
    R.ann_bm[0] = R.ann_bn[0] = 0;
}

/* ... sent at once on cluster 0's four credits, without the rounds, unless
 * something holds one (a CLEAR, the stuck test): then the rounds send them.
 * Sent at once, the FILLs and the GEMM are SILENT: the STATUS's answer is
 * their completion, unless one fails (4x32x4: three completions fewer, ~90
 * CPU cycles each on the job's path; the GEMM's sweep start is then not
 * seen, and the phases line gives 0 for it). */
static void send_single(uint32_t t0)
{
    if (!R.cs.cl[0].outstanding) {
        R.t_start = ktpu_read_mcycle() - t0;
        ktpu_cl_issue_idle(&R.cs, 0, R.ring_w, 4, 7u);   /* FILL BT, FILL A, GEMM SILENT; STATUS */
        R.pos[0] = 4;
        R.n_send = 4;
        R.status_sent[0] = 1;
    }
    R.live = R.pos[0] != R.lead_n;
}

/* Any other plan that does not split K: cluster 0's first FILL BT, FILL A
 * and GEMM from ktpu_plan_first_words, without a cursor (start_streams
 * left cluster 0's to first_cursor, which the first plan call after them
 * makes), sent at once; a uniform plan's are ring entries 0..2, sent moved
 * to every cluster in turn, back to back (the rounds' bookkeeping per
 * instruction left out: 256x256x256 FP16 on 4 clusters 14,507 -> 13,827
 * cycles). A cluster whose credits a CLEAR holds is left to the rounds. */
static void __attribute__((noinline)) first_step(uint32_t t0)
{
    uint32_t own[3][KTPU_CI_WORDS];
    uint32_t (*w)[KTPU_CI_WORDS] = R.uniform ? R.ring_w : own;
    ktpu_plan_first_words(&R.plan, w);
    ask_written(w[2]);
    if (R.uniform) {
        R.ring_sel[0] = 2;   /* ktpu_plan_shift_sel: BT, A, C */
        R.ring_sel[1] = 1;
        R.ring_sel[2] = 3;
        R.ring_tag[0] = R.ring_tag[1] = R.ring_tag[2] = 0;
        for (unsigned e = 0; e < 3; e++) {
            R.lead_n++;
            if (R.grouped) group_entry();
        }
    }
    R.n_prep += 3;
    R.t_start = ktpu_read_mcycle() - t0;
    for (unsigned c = 0; c < (R.uniform ? R.plan.active : 1u); c++) {
        if (R.cs.cl[c].outstanding > KTPU_NODE_IQ_DEPTH - 3) continue;   /* a CLEAR holds one: the rounds send it */
        for (unsigned i = 0; i < 3; i++)
            ktpu_cl_issue_moved(&R.cs, c, w[i], R.uniform ? R.shift[c].d[R.ring_sel[i]] : 0, 0);
        R.pos[c] = 3;   /* a uniform plan's ring position (unused otherwise) */
        R.n_send += 3;
        R.gemm_wait[c] = 1;
    }
}

/* Every completion waiting, taken; returns how many free a credit (a
 * CL_WRITTEN frees none: no send round for it alone). */
static inline int take_all(struct ktpu_cl_done *d, int *stop)
{
    int r, done = 0;
    while ((r = ktpu_cl_poll(&R.cs, d)) != 0) {
        done += r < 0 || !d->written;
        if (r < 0) continue;   /* counted in cs.stray */
        take(d);
        if (R.jobst == KTPU_JOBST_HWERR) *stop = 1;
    }
    return done;
}

/* Inlined into ktpu_gemm_run, its one caller, whatever GCC's size limits
 * say (out of line: 512x512x256 MXFP7 on 4 clusters 37,247 -> 37,663
 * cycles, 256x256x1024 FP16 on 4 41,365 -> 41,495). */
static inline __attribute__((always_inline)) unsigned run(volatile uint32_t *job, const struct ktpu_gemm_opts *opt)
{
    uint32_t t0 = ktpu_read_mcycle();
    uint32_t j[KTPU_JOB_REQ_WORDS];
    unsigned ncl = 0;
    uint32_t w[KTPU_CI_WORDS];
    struct ktpu_cl_done d;

    if (!R.inited) ktpu_gemm_init();   /* a caller that did not at boot */
    R.t0 = t0;
    R.job = job;
    /* one DRAM read (the window's line and next-beat buffers serve the
     * other 11 words), the loop written out: the job's first instruction
     * waits for this */
#pragma GCC unroll 16
    for (unsigned i = 0; i <= KTPU_JOB_CLUSTERS_WORD; i++) j[i] = job[i];
    R.job_flags = j[KTPU_JOB_FLAGS_WORD];
    if (R.job_flags & KTPU_JOB_FLAGS_QJOB_MASK) {   /* read only then (the job check and plan likewise) */
        j[KTPU_JOB_SCRATCH_WORD] = job[KTPU_JOB_SCRATCH_WORD];
        j[KTPU_JOB_SCRATCH_BYTES_WORD] = job[KTPU_JOB_SCRATCH_BYTES_WORD];
    }
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
    /* built where the plan keeps it: ktpu_plan_init then copies nothing */
    struct ktpu_plan_cfg *cfg = &R.plan.cfg;
    ktpu_job_plan_cfg(j, ncl, cfg);
    cfg->peer_xy = R.xy;
    cfg->mem_ports = R.cs.nmem;
    if (opt) {   /* tests' and experiments' planner settings */
        if (opt->l1_depth) cfg->l1_depth = opt->l1_depth;
        if (opt->acc_depth) cfg->acc_depth = opt->acc_depth;
        cfg->tile_gm = opt->tile_gm;
        cfg->tile_gn = opt->tile_gn;
        cfg->tiny_sweep = opt->tiny_sweep;
        cfg->force_upload = opt->force_upload;
    }
    enum ktpu_plan_err pe = ktpu_plan_init(&R.plan, cfg);
    if (pe != KTPU_PLAN_OK) {
        bad_job(ktpu_plan_err_name(pe), 0);
        R.jobst = KTPU_JOBST_BADJOB;
        return finish(0, t0);
    }
    uint32_t limit = opt && opt->timeout ? opt->timeout
                                         : (1u << 20) + 16u * R.plan.gm * R.plan.gn * R.plan.nk_max;
    if (R.plan.upload && upload(limit)) return finish(ncl, t0);   /* before any instruction */
    /* The counters and sticky flags a job reports are its own: ktpu_gemm_init
     * cleared them and a job ends with a STATUS CLEAR on each cluster it
     * used, so only a cluster the last job did not use, or that timed out,
     * needs a CLEAR first (not a credit held at every job's start); after the
     * upload, which then has no completion to expect. */
    for (uint32_t dirty = R.dirty & ((1u << ncl) - 1u), c = 0; dirty; dirty >>= 1, c++)
        if (dirty & 1u) {
            ktpu_ci_status(w, 1);
            ktpu_cl_issue(&R.cs, c, w, TAG_CLEAR);
        }
    /* a uniform plan: one cursor, a shift per cluster */
    R.uniform = R.plan.uniform && ncl > 1;
    R.ring = opt && opt->ring && opt->ring < RING && !(opt->ring & (opt->ring - 1)) ? opt->ring : RING;
    R.single = R.plan.single;
    /* cluster 0's first step at once, where its credits allow (a CLEAR or
     * the stuck test may hold one each) and, uniform, the ring holds it */
    R.skip0 = !R.single && R.plan.split == 1 && (!R.uniform || R.ring > 3) &&
              R.cs.cl[0].outstanding + (opt && opt->stuck_test) <= KTPU_NODE_IQ_DEPTH - 3;
    if (R.single) encode_single();
    else start_streams(ncl);
    if (opt && opt->stuck_test) {
        /* a SEND to the CPU's own node: no grant ever comes, cluster 0 waits */
        ktpu_ci_peer(w, KTPU_CLOP_SEND, R.cs.cpu_x, R.cs.cpu_y, 0, 1);
        ktpu_cl_issue(&R.cs, 0, w, 0);
    }
    if (R.single) send_single(t0);
    if (R.skip0) first_step(t0);

    /* Every cluster's FIFO kept full: rounds of one step per cluster in
     * turn, a step being its instructions up to its next GEMM (so a
     * cluster's first sweep waits for no other cluster's encoding, and each
     * cluster's first FILLs leave before any cluster's later ones), each
     * encoded as it is sent; every waiting completion taken; with nothing
     * to do, one instruction encoded ahead, else a wait for the next flit
     * (the time-out is checked only there). */
    int stop = 0, timed_out = -1;
    for (;;) {
        int sent = 0, done = 0;
        for (int round = 1; round && !stop;) {
            round = 0;
            uint32_t live = R.live;   /* the rounds visit only clusters with a stream left */
            for (unsigned c = 0; live; c++, live >>= 1) {
                if (!(live & 1u)) continue;
                uint32_t delta, tag;
                const uint32_t *w0;
                while (ktpu_cl_credit(&R.cs, c) && (w0 = next_for(c, ncl, &delta, &tag))) {
                    unsigned op = KTPU_FIELD_GET(CI_OP_CODE, w0[KTPU_CI_OP_WORD]);
                    if (op == KTPU_CLOP_FILL &&
                        (R.gemm_wait[c] || (R.t_first_sweep[c] && R.n_started < R.plan.active))) {
                        /* the next GEMM's operands wait until the previous
                         * sweep has started, and until every cluster's first
                         * sweep has: read earlier, they would only take the
                         * ports from fills a sweep is waiting for */
                        unsend(c);
                        break;
                    }
                    if (!R.t_start) R.t_start = ktpu_read_mcycle() - t0;
                    ktpu_cl_issue_moved(&R.cs, c, w0, delta, tag);
                    round = 1;
                    sent++;
                    if (op == KTPU_CLOP_GEMM) R.gemm_wait[c]++;
                    if (op == KTPU_CLOP_STATUS) R.status_sent[c] = 1;
                    if (op != KTPU_CLOP_FILL) break;
                }
                if (!left_to_send(c)) R.live &= ~(1u << c);
                /* a plan that is not uniform encodes every instruction it
                 * sends (~200 cycles each): the completions waiting are
                 * taken between two clusters' steps, or a round of them
                 * holds the credits the next round needs */
                if (!R.uniform) done += take_all(&d, &stop);
            }
        }
        done += take_all(&d, &stop);
        R.n_send += sent;
        R.n_done += done;
        /* the last completion ends the loop at once (no further pass) */
        if ((done || !sent) && (stop || !R.live) && all_idle(ncl)) break;
        if (sent || done || (!stop && encode_ahead(ncl))) continue;
        if (R.ann_due) {   /* idle: the tiles written meanwhile */
            announce();
            continue;
        }
        /* nothing to send or encode: only a completion can change that */
        uint32_t tw = ktpu_read_mcycle();
        timed_out = wait_flit(limit);
        R.t_wait += ktpu_read_mcycle() - tw;
        if (timed_out >= 0) break;
    }
    if (timed_out >= 0) {
        unsigned op = 0;
        for (unsigned k = 0; k < KTPU_NODE_IQ_DEPTH; k++)
            if (R.cs.cl[timed_out].busy & (1u << k)) op = R.cs.cl[timed_out].op[k] & 15u;
        R.jobst = KTPU_JOBST_TIMEOUT;
        R.detail = KTPU_FIELD(JOB_DETAIL_CLUSTER, timed_out) | KTPU_FIELD(JOB_DETAIL_OP, op);
        printf("gemm: TIMEOUT: cluster %d (%u,%u) answered nothing for %lu cycles (%s outstanding)\n", timed_out,
               R.cs.cl[timed_out].x, R.cs.cl[timed_out].y, (unsigned long)limit, ktpu_clop_name(op));
        announce();   /* the tiles written before it */
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
            if (ktpu_cl_poll(&R.cs, &d) > 0) take(&d);
            else if (ktpu_cl_timed_out(&R.cs, limit) >= 0) break;
        }
    }
    if (R.cs.stray) printf("gemm: %lu flits that were no completion of ours were dropped\n", (unsigned long)R.cs.stray);
    announce();
    unsigned st = finish(ncl, t0);
    if (st == KTPU_JOBST_DONE && !(opt && opt->quiet)) {
        uint32_t cyc = job[KTPU_JOB_CYCLES_WORD];
        uint64_t macs = (uint64_t)cfg->m * cfg->n * cfg->k, peak = (uint64_t)cyc * 512u * ncl;
        unsigned pm = peak ? (unsigned)((macs * 1000u + peak / 2u) / peak) : 0;   /* rounded, as the harness prints it */
        char how[48];   /* not = "": that is a byte-wise memset of all 48 */
        how[0] = 0;
        if (R.uniform && !R.single) snprintf(how, sizeof how, " (uniform: one stream, moved per cluster)");
        if (R.plan.split > 1) snprintf(how, sizeof how, " (split-K: K in %u parts per tile)", R.plan.split);
        if (R.plan.upload) snprintf(how, sizeof how, " (quantised on upload: %lu cycles)", (unsigned long)R.t_upload);
        printf("gemm: %lux%lux%lu %s on %u cluster(s): %u tiles of %ux%u sub-tiles%s, %lu cycles, %u.%u%% of peak\n",
               (unsigned long)cfg->m, (unsigned long)cfg->k, (unsigned long)cfg->n,
               cfg->fmt == KTPU_FMT_MX && !R.plan.upload ? "MXFP7" : "FP16", ncl, R.plan.ntiles, R.plan.gm, R.plan.gn, how,
               (unsigned long)cyc, pm / 10, pm % 10);
        uint32_t busy = cyc > R.t_wait ? cyc - R.t_wait : 0;
        printf("gemm: CPU: %lu cycles before the first instruction, %lu instructions encoded, %lu sent, "
               "%lu completions, %lu cycles waiting; busy %lu%% of the job\n",
               (unsigned long)R.t_start, (unsigned long)R.n_prep, (unsigned long)R.n_send, (unsigned long)R.n_done,
               (unsigned long)R.t_wait, (unsigned long)(cyc ? 100u * (uint64_t)busy / cyc : 0));
        printf("gemm: phases: first instruction at %lu, first sweep at", (unsigned long)R.t_start);
        for (unsigned c = 0; c < ncl; c++) printf(" %lu", (unsigned long)R.t_first_sweep[c]);
        printf(" (cluster 0..%u; 0: no tile, or a single plan's SILENT GEMM), last sweep from %lu, done at %lu\n",
               ncl - 1, (unsigned long)R.t_last_sweep, (unsigned long)cyc);
    }
    return st;
}

unsigned ktpu_gemm_run(volatile uint32_t *job, const struct ktpu_gemm_opts *opt)
{
    unsigned st = run(job, opt);
    clear_job_state();
    return st;
}
