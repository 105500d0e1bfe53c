/* Host test of the GEMM planner (firmware/gemm/ktpu_plan.c) and the
 * instruction encoders (firmware/lib/ktpu_ci.c).
 *
 * Every plan is executed on a model of the cluster as docs/node.md defines
 * it: instructions run in order per cluster; a FILL runs once every earlier
 * instruction has started, and a GEMM starts only after the previous sweep
 * has ended, so while a FILL runs the only sweep that may still read L1 is
 * the last GEMM before it. The model tags every L1 entry with the (row
 * group, K block) the FILL's source address names, and every accumulator
 * sub-tile with the C sub-tile and the next K block it expects. Checks:
 *   - every C sub-tile is emitted exactly once, at its own C address;
 *   - each element's K blocks arrive exactly once each, in increasing order
 *     (LOAD of block 0, then ADD of 1, 2, ...), A and BT blocks matching;
 *   - split-K: each part LOADs at its range's first block
 *     (ktpu_ref_split_range), every SEND is RECVed by the cluster it names,
 *     each RECV adds exactly the partial ktpu_ref_gemm_mx_split's tree adds
 *     there (part ranges [i, i + d) + [i + d, i + 2d)), and C is emitted
 *     only from the sum of every part (clusters are run last first, so a
 *     SEND is modelled before the RECV that takes it);
 *   - no L1 / accumulator capacity and no instruction field range exceeded;
 *   - a FILL never writes L1 entries the still-running sweep reads;
 *   - each cluster's stream ends with exactly one STATUS (none without tiles).
 * Usage: plan_test [--quiet]. Exit 0 only if every check passed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktpu_ci.h"
#include "ktpu_plan.h"
#include "ktpu_ref.h"

static long checks, fails;
static int verbose = 1;
static const char *ctx = "";

#define CHECK(c, ...)                                                    \
    do {                                                                 \
        checks++;                                                        \
        if (!(c)) {                                                      \
            fails++;                                                     \
            if (fails <= 15) {                                           \
                printf("FAIL [%s] ", ctx);                               \
                printf(__VA_ARGS__);                                     \
                printf("\n");                                            \
            }                                                            \
        }                                                                \
    } while (0)

static uint32_t rng = 12345;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

#define NO_TAG 0xFFFFFFFFu
/* an accumulator sub-tile: C sub-tile (rg, cg), K blocks up to next, the
 * sum of split-K parts [plo, phi) */
struct acc_state { int valid; unsigned rg, cg, next, plo, phi; };

/* cluster c's mesh position for SEND / RECV (any distinct ones) */
#define MAX_CL 16
static const uint8_t peer_xy[2 * MAX_CL] = {1, 0, 2, 0, 3, 0, 0, 1, 1, 1, 2, 1, 3, 1, 0, 2,
                                            1, 2, 2, 2, 3, 2, 0, 3, 1, 3, 2, 3, 3, 3, 0, 4};
static unsigned cluster_at(unsigned x, unsigned y)
{
    for (unsigned c = 0; c < MAX_CL; c++)
        if (peer_xy[2 * c] == x && peer_xy[2 * c + 1] == y) return c;
    return MAX_CL;
}
/* K block one past split-K part i (the whole K without split-K) */
static unsigned part_end(const struct ktpu_plan *p, unsigned i)
{
    size_t kb0, kb1;
    ktpu_ref_split_range(p->nkb, p->split, i, &kb0, &kb1);
    return (unsigned)kb1;
}
/* the split-K part whose range starts at K block k, or split */
static unsigned part_at(const struct ktpu_plan *p, unsigned k)
{
    for (unsigned i = 0; i < p->split; i++) {
        size_t kb0, kb1;
        ktpu_ref_split_range(p->nkb, p->split, i, &kb0, &kb1);
        if (kb0 == k) return i;
    }
    return p->split;
}
/* a SEND's partials, held until the RECV that takes them */
struct mailbox { int full; unsigned to, n; struct acc_state *s; };

/* Tag of the block a FILL entry loads: (row group << 16 | K block), or
 * NO_TAG (and a failure) if the address is not the start of a 4-row group's
 * K block inside the matrix. */
static uint32_t src_tag(const struct ktpu_plan *p, int side, uint32_t addr)
{
    const struct ktpu_plan_cfg *c = &p->cfg;
    uint32_t base = side ? c->b : c->a, ld = side ? c->ldb : c->lda, rows = side ? c->n : c->m;
    if (addr < base) return NO_TAG;
    uint32_t rel = addr - base, row = rel / ld, col = rel % ld;
    if (row % 4 || row + 4 > rows || col % p->bpb || col / p->bpb >= p->nkb) return NO_TAG;
    return (row / 4) << 16 | (col / p->bpb);
}

/* the service's unchecked encoder gives the checked encoder's words w */
static int fast_encode_same(const struct ktpu_plan_op *op, const uint32_t w[KTPU_CI_WORDS])
{
    uint32_t f[KTPU_CI_WORDS];
    ktpu_plan_encode(op, f);
    return memcmp(f, w, sizeof f) == 0;
}

static int overlaps(uint64_t a0, uint64_t n0, uint64_t a1, uint64_t n1)
{
    return a0 < a1 + n1 && a1 < a0 + n0;
}

/* SEND, RECV and DRAIN on the model (split-K). */
static void peer_op(const struct ktpu_plan *p, unsigned cl, const struct ktpu_plan_op *op, struct acc_state *acc,
                    struct mailbox *box, unsigned char *produced)
{
    const struct ktpu_plan_cfg *c = &p->cfg;
    uint32_t w[KTPU_CI_WORDS];
    unsigned n = op->gm * op->gn;
    CHECK(op->toff + n <= c->acc_depth && n, "cluster %u: %s of %u sub-tiles at %u past the accumulator", cl,
          ktpu_clop_name(op->kind), n, op->toff);
    if (op->toff + n > c->acc_depth || !n) return;
    if (op->kind == KTPU_CLOP_DRAIN) {
        CHECK(ktpu_ci_drain(w, op->toff, op->gm, op->gn, op->base, op->stride) == 0, "cluster %u: DRAIN fields", cl);
        CHECK(fast_encode_same(op, w), "cluster %u: DRAIN: ktpu_plan_encode differs from ktpu_ci_drain", cl);
        for (unsigned g = 0; g < op->gm; g++)
            for (unsigned h = 0; h < op->gn; h++) {
                struct acc_state *s = &acc[op->toff + g * op->gn + h];
                CHECK(s->valid && s->next == p->nkb && s->plo == 0 && s->phi == p->split,
                      "cluster %u: DRAIN of (%u,%u) after %u of %u K blocks (parts %u..%u of %u)", cl, s->rg, s->cg,
                      s->next, p->nkb, s->plo, s->phi, p->split);
                uint32_t want = c->c + 4 * s->rg * c->ldc + 8 * s->cg, got = op->base + 4 * g * op->stride + 8 * h;
                CHECK(got == want && op->stride == c->ldc, "cluster %u: DRAIN of (%u,%u) to 0x%x, its C address is 0x%x",
                      cl, s->rg, s->cg, got, want);
                if (s->valid && s->rg < p->gmt && s->cg < p->gnt) produced[s->rg * p->gnt + s->cg]++;
                s->valid = 0;
            }
        return;
    }
    unsigned peer = cluster_at(op->px, op->py);
    CHECK(ktpu_ci_peer(w, op->kind, op->px, op->py, op->toff, n) == 0, "cluster %u: peer fields", cl);
    CHECK(fast_encode_same(op, w), "cluster %u: %s: ktpu_plan_encode differs from ktpu_ci_peer", cl,
          ktpu_clop_name(op->kind));
    CHECK(peer < c->clusters && peer != cl, "cluster %u: %s names (%u,%u), no other cluster of the job", cl,
          ktpu_clop_name(op->kind), op->px, op->py);
    if (peer >= c->clusters || peer == cl) return;
    for (unsigned i = 0; i < n; i++) {   /* only whole partials move */
        struct acc_state *s = &acc[op->toff + i];
        CHECK(s->valid && s->phi >= 1 && s->next == part_end(p, s->phi - 1),
              "cluster %u: %s of sub-tile %u, an incomplete partial (K blocks to %u, parts %u..%u)", cl,
              ktpu_clop_name(op->kind), op->toff + i, s->next, s->plo, s->phi);
    }
    if (op->kind == KTPU_CLOP_SEND) {
        struct mailbox *b = &box[cl];
        CHECK(!b->full, "cluster %u: a second SEND before the first was taken", cl);
        b->full = 1;
        b->to = peer;
        b->n = n;
        free(b->s);
        b->s = malloc(n * sizeof *b->s);
        memcpy(b->s, &acc[op->toff], n * sizeof *b->s);
        return;
    }
    /* RECV: the tree step ktpu_ref_gemm_mx_split takes here */
    struct mailbox *b = &box[peer];
    CHECK(b->full && b->to == cl && b->n == n, "cluster %u: RECV from cluster %u, which sent %s", cl, peer,
          b->full ? "another count or to another cluster" : "nothing (yet)");
    if (!b->full || b->to != cl || b->n != n) return;
    b->full = 0;
    for (unsigned i = 0; i < n; i++) {
        struct acc_state *r = &acc[op->toff + i], *t = &b->s[i];
        unsigned d = r->phi - r->plo;
        CHECK(r->rg == t->rg && r->cg == t->cg && !(d & (d - 1)) && r->plo % (2 * d) == 0 && t->plo == r->phi &&
                  t->phi == (r->plo + 2 * d < p->split ? r->plo + 2 * d : p->split),
              "cluster %u: RECV adds (%u,%u) parts %u..%u onto (%u,%u) parts %u..%u: not the reference's tree", cl,
              t->rg, t->cg, t->plo, t->phi, r->rg, r->cg, r->plo, r->phi);
        r->phi = t->phi;
        r->next = t->next;
    }
}

/* Runs and checks one plan; returns the number of instructions. */
static long check_plan(const struct ktpu_plan *p)
{
    const struct ktpu_plan_cfg *c = &p->cfg;
    unsigned l1 = c->l1_depth, accd = c->acc_depth;
    uint32_t *l1a = malloc(l1 * sizeof *l1a), *l1b = malloc(l1 * sizeof *l1b);
    struct acc_state *acc = malloc(accd * sizeof *acc);
    unsigned char *produced = calloc((size_t)p->gmt * p->gnt, 1);
    struct mailbox box[MAX_CL] = {{0}};
    long n_ops = 0, fail0 = fails;
    for (unsigned cl = c->clusters; cl-- > 0 && fails - fail0 < 5;) {
        struct ktpu_plan_cursor cur;
        struct ktpu_plan_op op;
        struct ktpu_plan_op last_gemm;
        int have_gemm = 0, statuses = 0;
        for (unsigned i = 0; i < l1; i++) l1a[i] = l1b[i] = NO_TAG;
        memset(acc, 0, accd * sizeof *acc);
        ktpu_plan_cursor_init(p, cl, &cur);
        unsigned my_tiles = cur.tile_end - cur.tile;
        long guard = 4L * p->ntiles * (p->nkb + 1) + 16;
        while (ktpu_plan_next(p, &cur, &op)) {
            uint32_t w[KTPU_CI_WORDS];
            n_ops++;
            if (--guard < 0) { CHECK(0, "cluster %u: stream does not end", cl); break; }
            CHECK(!statuses, "cluster %u: instruction after STATUS", cl);
            if (op.kind == KTPU_CLOP_STATUS) {
                statuses++;
                CHECK(ktpu_ci_status(w, 1) == 0, "status encodes");
                CHECK(fast_encode_same(&op, w), "cluster %u: STATUS: ktpu_plan_encode differs from ktpu_ci_status", cl);
                continue;
            }
            if (op.kind == KTPU_CLOP_FILL) {
                int side = (int)op.side;
                unsigned n = op.gm * op.nk;
                CHECK(ktpu_ci_fill(w, op.side, op.fmt, op.off, op.base, op.stride, op.gm, op.nk) == 0,
                      "cluster %u: FILL fields out of range (off %u, %u x %u)", cl, op.off, op.gm, op.nk);
                CHECK(fast_encode_same(&op, w), "cluster %u: FILL: ktpu_plan_encode differs from ktpu_ci_fill", cl);
                CHECK(op.fmt == c->fmt, "FILL format %u", op.fmt);
                CHECK(op.side <= 1 && op.gm >= 1 && op.nk >= 1, "FILL shape %u x %u side %u", op.gm, op.nk, op.side);
                CHECK(op.off + n <= l1, "cluster %u: FILL %c at %u + %u past L1 depth %u", cl, side ? 'B' : 'A',
                      op.off, n, l1);
                CHECK(op.stride == (side ? c->ldb : c->lda), "FILL stride %u", op.stride);
                CHECK(op.base % 32 == 0 && op.stride % 32 == 0, "FILL alignment");
                if (have_gemm) {
                    unsigned roff = side ? last_gemm.boff : last_gemm.aoff;
                    unsigned rn = (side ? last_gemm.gn : last_gemm.gm) * last_gemm.nk;
                    CHECK(!overlaps(op.off, n, roff, rn),
                          "cluster %u: FILL %c [%u, %u) overwrites L1 the running sweep reads [%u, %u)", cl,
                          side ? 'B' : 'A', op.off, op.off + n, roff, roff + rn);
                }
                if (op.off + n > l1 || op.gm == 0 || op.side > 1) continue;
                uint32_t *mem = side ? l1b : l1a;
                for (unsigned g = 0; g < op.gm; g++)
                    for (unsigned kb = 0; kb < op.nk; kb++) {
                        uint32_t t = src_tag(p, side, op.base + 4 * g * op.stride + kb * p->bpb);
                        CHECK(t != NO_TAG, "cluster %u: FILL %c source 0x%x is not a block of the operand", cl,
                              side ? 'B' : 'A', op.base + 4 * g * op.stride + kb * p->bpb);
                        mem[op.off + g * op.nk + kb] = t;
                    }
                continue;
            }
            if (op.kind == KTPU_CLOP_SEND || op.kind == KTPU_CLOP_RECV || op.kind == KTPU_CLOP_DRAIN) {
                peer_op(p, cl, &op, acc, box, produced);
                continue;
            }
            CHECK(op.kind == KTPU_CLOP_GEMM, "cluster %u: unexpected opcode %u", cl, op.kind);
            if (op.kind != KTPU_CLOP_GEMM) continue;
            CHECK(ktpu_ci_gemm(w, op.aoff, op.boff, op.toff, op.gm, op.gn, op.nk, op.acc, op.emit, op.base,
                               op.stride) == 0, "cluster %u: GEMM fields out of range", cl);
            CHECK(fast_encode_same(&op, w), "cluster %u: GEMM: ktpu_plan_encode differs from ktpu_ci_gemm", cl);
            int ok = op.gm && op.gn && op.nk && op.aoff + op.gm * op.nk <= l1 && op.boff + op.gn * op.nk <= l1 &&
                     op.toff + op.gm * op.gn <= accd;
            CHECK(ok, "cluster %u: GEMM past capacity: A %u + %ux%u, B %u + %ux%u (L1 %u), tiles %u + %ux%u (acc %u)",
                  cl, op.aoff, op.gm, op.nk, op.boff, op.gn, op.nk, l1, op.toff, op.gm, op.gn, accd);
            if (!ok) continue;
            last_gemm = op;
            have_gemm = 1;
            for (unsigned kb = 0; kb < op.nk; kb++)
                for (unsigned g = 0; g < op.gm; g++)
                    for (unsigned h = 0; h < op.gn; h++) {
                        uint32_t ta = l1a[op.aoff + g * op.nk + kb], tb = l1b[op.boff + h * op.nk + kb];
                        struct acc_state *s = &acc[op.toff + g * op.gn + h];
                        if (ta == NO_TAG || tb == NO_TAG || (ta & 0xFFFF) != (tb & 0xFFFF)) {
                            CHECK(0, "cluster %u: sweep reads L1 A %u (tag 0x%x) with B %u (tag 0x%x)", cl,
                                  op.aoff + g * op.nk + kb, ta, op.boff + h * op.nk + kb, tb);
                            goto next_op;
                        }
                        unsigned rg = ta >> 16, cg = tb >> 16, k = ta & 0xFFFF;
                        if (kb == 0 && !op.acc) {
                            unsigned part = part_at(p, k);
                            CHECK(part < p->split, "cluster %u: C sub-tile (%u,%u) starts at K block %u", cl, rg,
                                  cg, k);
                            s->valid = 1;
                            s->rg = rg;
                            s->cg = cg;
                            s->next = k + 1;
                            s->plo = part;
                            s->phi = part + 1;
                        } else {
                            CHECK(s->valid && s->rg == rg && s->cg == cg && s->next == k,
                                  "cluster %u: ADD of (%u,%u) K block %u onto tile holding (%u,%u) next %u", cl, rg,
                                  cg, k, s->rg, s->cg, s->next);
                            s->next = k + 1;
                        }
                    }
            if (op.emit)
                for (unsigned g = 0; g < op.gm; g++)
                    for (unsigned h = 0; h < op.gn; h++) {
                        struct acc_state *s = &acc[op.toff + g * op.gn + h];
                        CHECK(s->next == p->nkb && s->plo == 0 && s->phi == p->split,
                              "cluster %u: (%u,%u) emitted after %u of %u K blocks (parts %u..%u of %u)", cl, s->rg,
                              s->cg, s->next, p->nkb, s->plo, s->phi, p->split);
                        uint32_t want = c->c + 4 * s->rg * c->ldc + 8 * s->cg;
                        uint32_t got = op.base + 4 * g * op.stride + 8 * h;
                        CHECK(got == want && op.stride == c->ldc,
                              "cluster %u: sub-tile (%u,%u) emitted to 0x%x, its C address is 0x%x", cl, s->rg, s->cg,
                              got, want);
                        if (s->rg < p->gmt && s->cg < p->gnt) produced[s->rg * p->gnt + s->cg]++;
                        s->valid = 0;
                    }
        next_op:;
        }
        CHECK(statuses == (my_tiles > 0), "cluster %u: %d STATUS at the end of its stream (%u tiles)", cl, statuses,
              my_tiles);
    }
    for (unsigned cl = 0; cl < MAX_CL; cl++) {
        CHECK(!box[cl].full, "cluster %u: SEND to cluster %u that no RECV takes", cl, box[cl].to);
        free(box[cl].s);
    }
    for (unsigned i = 0; i < p->gmt && fails - fail0 < 5; i++)
        for (unsigned j = 0; j < p->gnt; j++)
            CHECK(produced[i * p->gnt + j] == 1, "C sub-tile (%u,%u) produced %u times", i, j,
                  produced[i * p->gnt + j]);
    free(l1a);
    free(l1b);
    free(acc);
    free(produced);
    return n_ops;
}

/* A uniform plan: every cluster's own stream (checked above) must be
 * cluster 0's with each base word moved by ktpu_plan_shift, word for word,
 * and the shift's first tile must be the cluster's own. */
static long uniform_plans;
static void check_uniform(const struct ktpu_plan *p)
{
    if (!p->uniform) return;
    uniform_plans++;
    for (unsigned cl = 1; cl < p->cfg.clusters; cl++) {
        struct ktpu_plan_cursor lead, own;
        struct ktpu_plan_op lo, oo;
        struct ktpu_plan_shift sh;
        ktpu_plan_cursor_init(p, 0, &lead);
        ktpu_plan_cursor_init(p, cl, &own);
        ktpu_plan_shift(p, cl, &sh);
        CHECK(sh.bm == own.bm && sh.bn == own.bn, "cluster %u: shift starts at tile (%u,%u), the stream at (%u,%u)",
              cl, sh.bm, sh.bn, own.bm, own.bn);
        for (long i = 0;; i++) {
            int more = ktpu_plan_next(p, &lead, &lo), more_own = ktpu_plan_next(p, &own, &oo);
            CHECK(more == more_own, "cluster %u: its stream has %s instructions than cluster 0's", cl,
                  more_own ? "more" : "fewer");
            if (!more || !more_own) break;
            uint32_t wl[KTPU_CI_WORDS], wo[KTPU_CI_WORDS];
            ktpu_plan_encode(&lo, wl);
            ktpu_plan_encode(&oo, wo);
            wl[KTPU_CI_BASE_WORD] += sh.d[ktpu_plan_shift_sel(&lo)];
            if (memcmp(wl, wo, sizeof wl)) {
                CHECK(0, "cluster %u: instruction %ld (%s) is not cluster 0's shifted (base 0x%x, want 0x%x)", cl,
                      i, ktpu_clop_name(oo.kind), wl[KTPU_CI_BASE_WORD], wo[KTPU_CI_BASE_WORD]);
                break;
            }
            checks++;
        }
    }
}

/* Cluster 0's first three instructions of every plan that does not split
 * K are ktpu_plan_first_words'; a single plan's stream is exactly those and
 * a STATUS, every other cluster's is empty; and a plan whose cluster 0
 * stream is FILL, FILL, GEMM, STATUS with one tile must be marked single
 * (the service's short path is taken wherever it applies). */
static long single_plans, first_plans;
static long uploads;   /* plans quantised on upload, checked by check_upload */
static void check_first(const struct ktpu_plan *p)
{
    struct ktpu_plan_cursor cur;
    struct ktpu_plan_op op;
    uint32_t fw[3][KTPU_CI_WORDS], w[KTPU_CI_WORDS];
    unsigned kinds[5] = {0}, n = 0;
    int same = 1;
    ktpu_plan_cursor_init(p, 0, &cur);
    if (p->split == 1) ktpu_plan_first_words(p, fw);
    while (ktpu_plan_next(p, &cur, &op)) {
        if (n < 3 && p->split == 1) {
            ktpu_plan_encode(&op, w);
            if (memcmp(w, fw[n], sizeof w)) same = 0;
        }
        if (n < 5) kinds[n] = op.kind;
        n++;
    }
    int four = n == 4 && kinds[0] == KTPU_CLOP_FILL && kinds[1] == KTPU_CLOP_FILL && kinds[2] == KTPU_CLOP_GEMM &&
               kinds[3] == KTPU_CLOP_STATUS;
    CHECK(p->split > 1 || (n >= 3 && same), "cluster 0's first three instructions are not ktpu_plan_first_words'");
    CHECK(!p->single || four, "single plan: cluster 0's stream (%u instructions) is not FILL, FILL, GEMM, STATUS", n);
    CHECK(p->single || !(four && p->ntiles == 1), "a one-tile, one-chunk plan is not marked single");
    for (unsigned cl = 1; p->single && cl < p->cfg.clusters; cl++) {
        ktpu_plan_cursor_init(p, cl, &cur);
        CHECK(!ktpu_plan_next(p, &cur, &op), "single plan: cluster %u has instructions", cl);
    }
    single_plans += p->single;
    first_plans += p->split == 1;
}

/* A plan the regular rule made (plan_regular's shifts) is the plan the
 * general rules make of the same job (cfg.general), field by field. */
static long regular_plans;
static void check_regular(const struct ktpu_plan *p, const struct ktpu_plan_cfg *in)
{
    struct ktpu_plan_cfg c = *in;
    struct ktpu_plan g;
    if (!p->regular) return;
    c.general = 1;
    enum ktpu_plan_err e = ktpu_plan_init(&g, &c);
    CHECK(e == KTPU_PLAN_OK && !g.regular, "the general rules refuse a regular plan (%s)", ktpu_plan_err_name(e));
    if (e != KTPU_PLAN_OK) return;
#define SAME(f) CHECK(p->f == g.f, "regular plan: " #f " is %lu, the general rules' %lu", (unsigned long)p->f, \
                      (unsigned long)g.f)
    SAME(gm); SAME(gn); SAME(ntm); SAME(ntn); SAME(ntiles); SAME(tpc); SAME(tpc_rem); SAME(split); SAME(active);
    SAME(nk_max); SAME(b_resident); SAME(bpb); SAME(uniform); SAME(single); SAME(upload); SAME(cfg.a);
    SAME(cfg.lda); SAME(cfg.b); SAME(cfg.ldb); SAME(cfg.fmt);
    if (p->upload) { SAME(src_a); SAME(src_lda); SAME(src_b); SAME(src_ldb); }   /* set only then */
#undef SAME
    regular_plans++;
}

static void cfg_default(struct ktpu_plan_cfg *c, uint32_t m, uint32_t n, uint32_t k, unsigned fmt,
                        unsigned clusters)
{
    uint32_t bpe = fmt == KTPU_FMT_FP16 ? 2 : 1;   /* bytes per element in storage */
    memset(c, 0, sizeof *c);
    c->m = m;
    c->n = n;
    c->k = k;
    c->fmt = fmt;
    c->lda = k * bpe + 32 * (rnd() % 3);
    c->ldb = k * bpe + 32 * (rnd() % 3);
    c->ldc = 2 * n + 8 * (rnd() % 3);
    c->a = 0x100 + 32 * (rnd() % 64);
    c->b = c->a + m * c->lda + 32 * (rnd() % 64);
    c->c = c->b + n * c->ldb + 8 * (rnd() % 64);
    c->clusters = clusters;
    c->peer_xy = peer_xy;
    c->l1_depth = KTPU_L1_DEPTH;
    c->acc_depth = KTPU_ACC_DEPTH;
    /* FP16: a scratch region after C, exactly the copies' size; every
     * other FP16 plan quantised on upload whatever the cost model says (no
     * rnd() here: the configurations drawn after stay those they were) */
    if (fmt == KTPU_FMT_FP16) {
        c->scratch = (c->c + m * c->ldc + 31u) / 32u * 32u + 64u;
        c->scratch_bytes = (m + n) * k;
        c->force_upload = (m / 4 + n / 4 + k / 32) & 1;
        c->mem_ports = 1 + (clusters > 2);
    }
}

/* Quantise-on-upload: taken where forced and possible, and then the MXFP7
 * copies the plan reads are rows of K bytes, inside the scratch region,
 * clear of each other, of the FP16 sources and of C, and the sources kept
 * for the MEM_QJOBs (in: the configuration as asked). */
static void check_upload(const struct ktpu_plan *p, const struct ktpu_plan_cfg *in)
{
    const struct ktpu_plan_cfg *c = &p->cfg;
    int can = in->fmt == KTPU_FMT_FP16 && p->split == 1 && !p->single &&
              (uint64_t)(in->m + in->n) * in->k <= in->scratch_bytes;
    if (in->force_upload) CHECK(p->upload == can, "upload %d where forced and possible is %d", p->upload, can);
    if (!can) CHECK(!p->upload, "quantised on upload where it cannot be");
    if (!p->upload) return;
    /* byte extents: base and length */
    uint64_t a0 = c->a, na = (uint64_t)in->m * in->k, b0 = c->b, nb = (uint64_t)in->n * in->k;
    uint64_t s0 = in->scratch, c0 = in->c, nc = (uint64_t)in->m * in->ldc;
    uint64_t fa0 = in->a, nfa = (uint64_t)in->m * in->lda, fb0 = in->b, nfb = (uint64_t)in->n * in->ldb;
    CHECK(c->fmt == KTPU_FMT_MX && p->bpb == 32 && c->lda == in->k && c->ldb == in->k,
          "upload: the copies are not MXFP7 rows of K bytes (fmt %u, bpb %u, strides %u, %u)", c->fmt, p->bpb, c->lda,
          c->ldb);
    CHECK(a0 >= s0 && a0 + na <= s0 + in->scratch_bytes && b0 >= s0 && b0 + nb <= s0 + in->scratch_bytes,
          "upload: a copy outside the scratch region");
    CHECK(!overlaps(a0, na, b0, nb), "upload: A's and BT's copies overlap");
    CHECK(!overlaps(a0, na, fa0, nfa) && !overlaps(a0, na, fb0, nfb) && !overlaps(a0, na, c0, nc) &&
              !overlaps(b0, nb, fa0, nfa) && !overlaps(b0, nb, fb0, nfb) && !overlaps(b0, nb, c0, nc),
          "upload: a copy overlaps an FP16 operand or C");
    CHECK(p->src_a == in->a && p->src_lda == in->lda && p->src_b == in->b && p->src_ldb == in->ldb,
          "upload: the FP16 sources kept are not the job's");
    uploads++;
}

static void run(const struct ktpu_plan_cfg *cfg, int show)
{
    struct ktpu_plan p;
    char buf[160];
    snprintf(buf, sizeof buf, "%ux%ux%u %s cl%u l1 %u acc %u", cfg->m, cfg->k, cfg->n,
             cfg->fmt == KTPU_FMT_MX ? "mx" : "fp16", cfg->clusters, cfg->l1_depth, cfg->acc_depth);
    ctx = buf;
    enum ktpu_plan_err e = ktpu_plan_init(&p, cfg);
    CHECK(e == KTPU_PLAN_OK, "plan refused: %s", ktpu_plan_err_name(e));
    if (e != KTPU_PLAN_OK) return;
    long n = check_plan(&p);
    check_upload(&p, cfg);
    check_uniform(&p);
    check_first(&p);
    check_regular(&p, cfg);
    if (show && verbose)
        printf("  %-34s tile %3u x %3u groups, %u tiles, K chunks of %u of %u, B %s, %ld instructions%s\n", buf, p.gm,
               p.gn, p.ntiles, p.nk_max, p.nkb, p.b_resident ? "resident" : "streamed", n,
               p.split > 1 ? ", split-K" : p.upload ? ", quantised on upload" : "");
    if (show && verbose && p.uniform) printf("  %-34s uniform: one stream, shifted per cluster\n", "");
}

static void test_refusals(void)
{
    struct ktpu_plan_cfg c;
    struct ktpu_plan p;
    ctx = "refusals";
    cfg_default(&c, 8, 8, 64, KTPU_FMT_MX, 2);
    struct { const char *what; uint32_t m, n, k, fmt; unsigned cl; uint32_t lda; enum ktpu_plan_err e; } t[] = {
        {"M = 0", 0, 8, 64, KTPU_FMT_MX, 2, 64, KTPU_PLAN_SHAPE},
        {"M = 6", 6, 8, 64, KTPU_FMT_MX, 2, 64, KTPU_PLAN_SHAPE},
        {"N = 2", 8, 2, 64, KTPU_FMT_MX, 2, 64, KTPU_PLAN_SHAPE},
        {"K = 48", 8, 8, 48, KTPU_FMT_MX, 2, 64, KTPU_PLAN_SHAPE},
        {"format 2", 8, 8, 64, 2, 2, 64, KTPU_PLAN_FMT},
        {"0 clusters", 8, 8, 64, KTPU_FMT_MX, 0, 64, KTPU_PLAN_CLUSTERS},
        {"A past 4 GiB", 8, 8, 64, KTPU_FMT_MX, 1, 0x40000000u, KTPU_PLAN_RANGE},
        {"M too large", 1u << 25, 8, 64, KTPU_FMT_MX, 1, 64, KTPU_PLAN_RANGE},
        {"legal", 8, 8, 64, KTPU_FMT_MX, 1, 64, KTPU_PLAN_OK},
    };
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        c.m = t[i].m;
        c.n = t[i].n;
        c.k = t[i].k;
        c.fmt = t[i].fmt;
        c.clusters = t[i].cl;
        c.lda = t[i].lda;
        c.a = 0;
        c.b = 0x1000;
        c.c = 0x2000;
        enum ktpu_plan_err e = ktpu_plan_init(&p, &c);
        CHECK(e == t[i].e, "%s: planner says '%s', expected '%s'", t[i].what, ktpu_plan_err_name(e),
              ktpu_plan_err_name(t[i].e));
    }
}

/* Encoders: fields land where ktpu.def says, and values that do not fit
 * are refused, never truncated. */
/* the planner's division: exact wherever it does not divide */
static void test_udiv(void)
{
    ctx = "udiv";
    for (unsigned b = 1; b < 600; b++)
        for (unsigned a = 0; a < 0x10000u + 64u; a++)
            if (ktpu_plan_udiv(a, b) != a / b) CHECK(0, "%u / %u gives %u", a, b, ktpu_plan_udiv(a, b));
    checks++;
    for (int i = 0; i < 100000; i++) {
        unsigned a = rnd(), b = rnd() >> (rnd() & 31);
        if (b) CHECK(ktpu_plan_udiv(a, b) == a / b, "%u / %u gives %u", a, b, ktpu_plan_udiv(a, b));
    }
}

static void test_encoders(void)
{
    uint32_t w[KTPU_CI_WORDS];
    ctx = "encoders";
    for (int i = 0; i < 2000; i++) {
        unsigned side = rnd() & 1, fmt = rnd() & 1, off = rnd() & 0xFFFF, g = rnd() & 0xFFFF, nk = rnd() & 0xFFFF;
        uint32_t base = rnd(), stride = rnd();
        CHECK(ktpu_ci_fill(w, side, fmt, off, base, stride, g, nk) == 0, "fill encodes");
        CHECK(KTPU_FIELD_GET(CI_OP_CODE, w[KTPU_CI_OP_WORD]) == KTPU_CLOP_FILL &&
              KTPU_FIELD_GET(CI_OP_SIDE, w[KTPU_CI_OP_WORD]) == side &&
              KTPU_FIELD_GET(CI_OP_FMT, w[KTPU_CI_OP_WORD]) == fmt &&
              KTPU_FIELD_GET(CI_OFF_AOFF, w[KTPU_CI_OFF_WORD]) == off &&
              KTPU_FIELD_GET(CI_SHAPE_GM, w[KTPU_CI_SHAPE_WORD]) == g &&
              KTPU_FIELD_GET(CI_NK_NK, w[KTPU_CI_NK_WORD]) == nk && w[KTPU_CI_BASE_WORD] == base &&
              w[KTPU_CI_STRIDE_WORD] == stride && w[7] == 0,
              "fill fields round trip");
        unsigned ao = rnd() & 0xFFFF, bo = rnd() & 0xFFFF, to = rnd() & 0xFFFF, gm = rnd() & 0xFFFF,
                 gn = rnd() & 0xFFFF, acc = rnd() & 1, em = rnd() & 1;
        CHECK(ktpu_ci_gemm(w, ao, bo, to, gm, gn, nk, acc, em, base, stride) == 0, "gemm encodes");
        CHECK(w[KTPU_CI_OP_WORD] == (KTPU_CLOP_GEMM | acc << KTPU_CI_OP_ACC_LSB | em << KTPU_CI_OP_EMIT_LSB) &&
              w[KTPU_CI_OFF_WORD] == (ao | bo << 16) && w[KTPU_CI_TOFF_WORD] == to &&
              w[KTPU_CI_SHAPE_WORD] == (gm | gn << 16) && w[KTPU_CI_NK_WORD] == nk,
              "gemm fields (the node bench's layout)");
        unsigned px = rnd() & 15, py = rnd() & 15, n = rnd() & 0xFFFF;
        CHECK(ktpu_ci_peer(w, KTPU_CLOP_SEND, px, py, to, n) == 0 &&
              w[0] == (KTPU_CLOP_SEND | px << KTPU_CI_OP_PX_LSB | py << KTPU_CI_OP_PY_LSB) &&
              KTPU_FIELD_GET(CI_SHAPE_GN, w[KTPU_CI_SHAPE_WORD]) == n,
              "send fields");
    }
    CHECK(ktpu_ci_fill(w, 2, 0, 0, 0, 64, 1, 1) == -1, "side 2 refused");
    CHECK(ktpu_ci_fill(w, 0, 4, 0, 0, 64, 1, 1) == -1, "format 4 refused");
    CHECK(ktpu_ci_fill(w, 0, 0, 0x10000, 0, 64, 1, 1) == -1, "L1 offset 65536 refused");
    CHECK(ktpu_ci_fill(w, 0, 0, 0, 0, 64, 0x10000, 1) == -1, "65536 groups refused");
    CHECK(ktpu_ci_gemm(w, 0, 0x10000, 0, 1, 1, 1, 0, 0, 0, 0) == -1, "B offset 65536 refused");
    CHECK(ktpu_ci_gemm(w, 0, 0, 0, 1, 1, 1, 2, 0, 0, 0) == -1, "acc 2 refused");
    CHECK(ktpu_ci_gemm(w, 0, 0, 0, 1, 0x10000, 1, 0, 0, 0, 0) == -1, "gn 65536 refused");
    CHECK(ktpu_ci_drain(w, 0x10000, 1, 1, 0, 8) == -1, "drain toff 65536 refused");
    CHECK(ktpu_ci_peer(w, KTPU_CLOP_RECV, 16, 0, 0, 1) == -1, "peer x 16 refused");
    CHECK(ktpu_ci_peer(w, KTPU_CLOP_GEMM, 1, 0, 0, 1) == -1, "peer op GEMM refused");
    CHECK(ktpu_ci_status(w, 1) == 0 && w[0] == (KTPU_CLOP_STATUS | 1u << KTPU_CI_OP_CLEAR_LSB), "status clear");
    CHECK(ktpu_ci_drain(w, 3, 2, 5, 0x1008, 72) == 0 && w[0] == KTPU_CLOP_DRAIN && w[KTPU_CI_TOFF_WORD] == 3 &&
          w[KTPU_CI_SHAPE_WORD] == (2u | 5u << 16) && w[KTPU_CI_BASE_WORD] == 0x1008 && w[KTPU_CI_STRIDE_WORD] == 72,
          "drain fields");
    /* the names come from the generated table */
    ctx = "names";
    CHECK(!strcmp(ktpu_clerr_name(KTPU_CLERR_MEM), "CLERR_MEM"), "CLERR_MEM name");
    CHECK(!strcmp(ktpu_clerr_name(KTPU_CLERR_NONFINITE), "CLERR_NONFINITE"), "CLERR_NONFINITE name");
    CHECK(!strcmp(ktpu_clerr_name(200), "unknown CLERR code"), "unknown CLERR");
    CHECK(!strcmp(ktpu_memst_name(KTPU_MEMST_WINDOW), "MEMST_WINDOW"), "MEMST_WINDOW name");
    CHECK(!strcmp(ktpu_jobst_name(KTPU_JOBST_TIMEOUT), "JOBST_TIMEOUT"), "JOBST_TIMEOUT name");
    CHECK(!strcmp(ktpu_clop_name(KTPU_CLOP_FILL), "FILL"), "FILL name");
    CHECK(strstr(ktpu_clerr_doc(KTPU_CLERR_MEM), "refused") != NULL, "CLERR_MEM doc");
    char fb[64];
    CHECK(!strcmp(ktpu_flag_names(KTPU_FLAG_ACC_OVERFLOW | KTPU_FLAG_NONFINITE, fb, sizeof fb),
                  "ACC_OVERFLOW NONFINITE"), "flag names: %s", fb);
    CHECK(!strcmp(ktpu_flag_names(0, fb, sizeof fb), "none"), "no flags");
}

/* --show M K N mx|fp16 CLUSTERS: print the plan's instruction streams
 * (docs/gemm.md's worked example comes from here). */
static int show(char **v)
{
    struct ktpu_plan_cfg c;
    struct ktpu_plan p;
    cfg_default(&c, (uint32_t)atoi(v[0]), (uint32_t)atoi(v[2]), (uint32_t)atoi(v[1]),
                strcmp(v[3], "mx") ? KTPU_FMT_FP16 : KTPU_FMT_MX, (unsigned)atoi(v[4]));
    c.a = 0x10000;
    c.b = 0x100000;
    c.c = 0x200000;
    c.lda = c.ldb = c.k * (c.fmt == KTPU_FMT_MX ? 1 : 2);
    c.ldc = 2 * c.n;
    enum ktpu_plan_err e = ktpu_plan_init(&p, &c);
    if (e != KTPU_PLAN_OK) { printf("refused: %s\n", ktpu_plan_err_name(e)); return 1; }
    printf("tile %u x %u sub-tile groups, %u x %u tiles, K chunks of %u of %u blocks, BT %s\n", p.gm, p.gn,
           p.ntm, p.ntn, p.nk_max, p.nkb, p.b_resident ? "resident" : "streamed");
    for (unsigned cl = 0; cl < c.clusters; cl++) {
        struct ktpu_plan_cursor cur;
        struct ktpu_plan_op o;
        ktpu_plan_cursor_init(&p, cl, &cur);
        printf("cluster %u: tiles %u..%u\n", cl, cur.tile, cur.tile_end);
        while (ktpu_plan_next(&p, &cur, &o)) {
            if (o.kind == KTPU_CLOP_FILL)
                printf("  FILL %c  off %3u  %2u groups x %u blocks  from 0x%06lx\n", o.side ? 'B' : 'A', o.off, o.gm,
                       o.nk, (unsigned long)o.base);
            else if (o.kind == KTPU_CLOP_GEMM)
                printf("  GEMM    aoff %3u boff %3u  %ux%u x %u blocks (K %u..%u)  acc %u emit %u  C 0x%06lx\n", o.aoff,
                       o.boff, o.gm, o.gn, o.nk, o.kb0, o.kb0 + o.nk - 1, o.acc, o.emit, (unsigned long)o.base);
            else
                printf("  STATUS\n");
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quiet")) verbose = 0;
        else if (!strcmp(argv[i], "--show") && i + 5 < argc) return show(argv + i + 1);
        else { fprintf(stderr, "plan_test: unknown option %s (--quiet, --show M K N mx|fp16 CLUSTERS)\n", argv[i]); return 2; }
    }
    test_encoders();
    test_udiv();
    test_refusals();

    /* exhaustive over small shapes, clusters and capacities (small L1 and
     * accumulators force several tiles, short chunks, streamed BT) */
    static const unsigned caps[][2] = {{KTPU_L1_DEPTH, KTPU_ACC_DEPTH}, {16, 8}, {8, 4}, {32, 16}, {64, 3}, {2, 1}};
    long n_small = 0;
    for (unsigned ci = 0; ci < sizeof caps / sizeof caps[0]; ci++)
        for (uint32_t m = 4; m <= 40; m += 4)
            for (uint32_t n = 4; n <= 40; n += 4)
                for (uint32_t k = 32; k <= 320; k += 32)
                    for (unsigned cl = 1; cl <= 4; cl++) {
                        struct ktpu_plan_cfg c;
                        cfg_default(&c, m, n, k, (m + n + k) % 3 ? KTPU_FMT_MX : KTPU_FMT_FP16, cl);
                        c.l1_depth = caps[ci][0];
                        c.acc_depth = caps[ci][1];
                        run(&c, 0);
                        n_small++;
                    }
    if (verbose) printf("exhaustive small shapes: %ld plans\n", n_small);

    /* split-K: small C, long K, 2..16 clusters (the tree's uneven ends:
     * 3, 5, 6, 7 parts), K ranges from one block each to uneven ones,
     * also on capacities that cut C into a few tiles */
    static const unsigned sk_caps[][2] = {{KTPU_L1_DEPTH, KTPU_ACC_DEPTH}, {64, 16}, {256, 64}};
    static const uint32_t sk_mn[][2] = {{64, 64}, {36, 20}, {16, 64}, {64, 8}, {128, 64}};
    static const uint32_t sk_nkb[] = {3, 5, 7, 9, 17, 64, 100};
    long n_split = 0;
    for (unsigned ci = 0; ci < sizeof sk_caps / sizeof sk_caps[0]; ci++)
        for (unsigned s = 0; s < sizeof sk_mn / sizeof sk_mn[0]; s++)
            for (unsigned kk = 0; kk < sizeof sk_nkb / sizeof sk_nkb[0]; kk++)
                for (unsigned cl = 2; cl <= MAX_CL; cl++) {
                    struct ktpu_plan_cfg c;
                    struct ktpu_plan p;
                    cfg_default(&c, sk_mn[s][0], sk_mn[s][1], 32 * sk_nkb[kk], (s + kk) % 2 ? KTPU_FMT_MX : KTPU_FMT_FP16,
                                cl);
                    c.l1_depth = sk_caps[ci][0];
                    c.acc_depth = sk_caps[ci][1];
                    run(&c, 0);
                    if (ktpu_plan_init(&p, &c) == KTPU_PLAN_OK && p.split > 1) n_split++;
                }
    if (verbose) printf("split-K shapes: %ld plans split K\n", n_split);
    CHECK(n_split >= 300, "only %ld split-K plans", n_split);
    {   /* the shapes split-K is for, shown */
        struct ktpu_plan_cfg c;
        cfg_default(&c, 64, 64, 1024, KTPU_FMT_MX, 4);
        run(&c, 1);
        cfg_default(&c, 64, 64, 1024, KTPU_FMT_MX, 2);
        run(&c, 1);
        cfg_default(&c, 64, 64, 1024, KTPU_FMT_MX, 4);
        c.no_split = 1;
        run(&c, 1);
    }

    /* the benchmark grid (SPEC §15), shown */
    static const uint32_t grid[][3] = {{64, 128, 64}, {128, 128, 128}, {256, 256, 256}, {256, 256, 1024}};
    if (verbose) printf("benchmark grid (M x K x N):\n");
    for (unsigned g = 0; g < 4; g++)
        for (unsigned cl = 1; cl <= 4; cl *= 2)
            for (unsigned f = 0; f < 2; f++) {
                struct ktpu_plan_cfg c;
                cfg_default(&c, grid[g][0], grid[g][2], grid[g][1], f ? KTPU_FMT_MX : KTPU_FMT_FP16, cl);
                run(&c, 1);
            }

    /* random large shapes */
    for (int i = 0; i < 40; i++) {
        struct ktpu_plan_cfg c;
        cfg_default(&c, 4 * (1 + rnd() % 256), 4 * (1 + rnd() % 256), 32 * (1 + rnd() % 64),
                    rnd() & 1 ? KTPU_FMT_MX : KTPU_FMT_FP16, 1 + rnd() % 5);
        if (i % 4 == 0) c.l1_depth = 8u << (rnd() % 6);
        if (i % 5 == 0) c.acc_depth = 1 + rnd() % 64;
        run(&c, 0);
    }
    if (verbose) printf("random large shapes: 40 plans\n");

    if (verbose) printf("uniform plans checked against every cluster's own stream: %ld\n", uniform_plans);
    if (verbose) printf("single plans checked: %ld; first steps checked against their words: %ld\n", single_plans,
                        first_plans);
    CHECK(first_plans >= 10000, "only %ld first steps", first_plans);
    CHECK(single_plans >= 1000, "only %ld single plans", single_plans);
    if (verbose) printf("regular plans checked against the general rules: %ld\n", regular_plans);
    CHECK(regular_plans >= 1000, "only %ld regular plans", regular_plans);
    if (verbose) printf("plans quantised on upload checked: %ld\n", uploads);
    CHECK(uploads >= 1000, "only %ld plans quantised on upload", uploads);
    printf("plan test: %ld checks, %ld failed\n", checks, fails);
    return fails ? 1 : 0;
}
