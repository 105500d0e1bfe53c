/* GEMM planner: tile choice, K partition, per-cluster instruction streams.
 * Portable C99 (host test: tests/fw/plan_test.c). The safety argument for
 * each choice is in docs/gemm.md; the host test checks it on every plan.
 *
 * KTPU_PLAN_MUTANT=n compiles a deliberately broken planner (tests/fw only):
 * each one must make the host test fail. */
#include "ktpu_plan.h"

#ifndef KTPU_PLAN_MUTANT
#define KTPU_PLAN_MUTANT 0
#endif
#define MUT(n) (KTPU_PLAN_MUTANT == (n))

static unsigned umin(unsigned a, unsigned b) { return a < b ? a : b; }
static unsigned umax(unsigned a, unsigned b) { return a > b ? a : b; }
/* a / b without the RV32 core's iterative divide (~35 cycles) where it can
 * be had: a shift when b is a power of two (most divisors here are), a
 * multiply by a reciprocal from a table for b < RECIP_N and a < 2^16.
 * With r = ceil(2^32 / b) = b * q + e (0 < e < b), (a * r) >> 32 is a / b
 * exactly while a * e < 2^32, which a < 2^16, b < 2^9 guarantee
 * (tests/fw checks every such pair). The tile search runs before the
 * first instruction goes out and divides by tile sizes. */
#define RECIP_N 512u
#define RECIP(b) ((b) > 1u ? (uint32_t)(0xFFFFFFFFu / (b) + 1u) : 0u)
#define RECIP4(b) RECIP(b), RECIP((b) + 1u), RECIP((b) + 2u), RECIP((b) + 3u)
#define RECIP16(b) RECIP4(b), RECIP4((b) + 4u), RECIP4((b) + 8u), RECIP4((b) + 12u)
#define RECIP64(b) RECIP16(b), RECIP16((b) + 16u), RECIP16((b) + 32u), RECIP16((b) + 48u)
#define RECIP256(b) RECIP64(b), RECIP64((b) + 64u), RECIP64((b) + 128u), RECIP64((b) + 192u)
static const uint32_t recip[RECIP_N] = {RECIP256(0u), RECIP256(256u)};

/* log2 of a power of two: a multiply and a table (de Bruijn), no loop */
static inline unsigned log2_pow2(unsigned b)
{
    static const unsigned char debruijn[32] = {0,  1,  28, 2,  29, 14, 24, 3,  30, 22, 20, 15, 25, 17, 4,  8,
                                               31, 27, 13, 23, 21, 19, 16, 7,  26, 12, 18, 6,  11, 5,  10, 9};
    return debruijn[(b * 0x077CB531u) >> 27];
}

static inline unsigned udiv(unsigned a, unsigned b)
{
    if (b && !(b & (b - 1))) return a >> log2_pow2(b);
    if (b < RECIP_N && a < 0x10000u) return (unsigned)(((uint64_t)a * recip[b]) >> 32);
    return a / b;
}
unsigned ktpu_plan_udiv(unsigned a, unsigned b) { return udiv(a, b); }
static unsigned cdiv(unsigned a, unsigned b) { return udiv(a + b - 1, b); }
/* floor(log2(v)) of v >= 1: v's highest bit alone, then log2_pow2 */
static unsigned ulog2(unsigned v)
{
    v |= v >> 1;
    v |= v >> 2;
    v |= v >> 4;
    v |= v >> 8;
    v |= v >> 16;
    return log2_pow2(v - (v >> 1));
}

const char *ktpu_plan_err_name(enum ktpu_plan_err e)
{
    switch (e) {
    case KTPU_PLAN_OK: return "ok";
    case KTPU_PLAN_SHAPE: return "M, N, K zero or not multiples of 4, 4, 32";
    case KTPU_PLAN_FMT: return "operand format is neither FP16 nor MXFP7";
    case KTPU_PLAN_CLUSTERS: return "no clusters";
    case KTPU_PLAN_CAPACITY: return "L1 or accumulator too small for one sub-tile";
    case KTPU_PLAN_RANGE: return "shape or stride overflows the 32-bit address space";
    }
    return "unknown planner error";
}

/* Cost of one tile size, in cycles of the busiest resource (a model, used
 * only to choose; correctness never depends on it). Per cluster: the sweep
 * (one sub-tile per cycle, padded to REUSE_MIN, plus a fixed start per GEMM)
 * plus the fused drain's slow last pass (about 3 cycles per sub-tile through
 * the memory agent's write front end, docs/node.md); the one memory port
 * carries every cluster's operand beats and drain bursts; the one CPU issues
 * every instruction (about CPU_PER_INSTR cycles each, compose + completion);
 * the first chunk's fill is not hidden. */
#define CPU_PER_INSTR 350u   /* measured (docs/gemm.md): plan + encode ~150, send ~80, completion ~110 */
#define GEMM_START 40u

/* Written once for two widths: 32-bit when the job is small enough that no
 * term can overflow (gmt * gnt * nkb < 2^19 sub-tile steps: every term is
 * below ~4200 times that), which is most jobs and several times cheaper on
 * the RV32; 64-bit otherwise. */
#define TILE_COST(NAME, T)                                                                         \
    static T NAME(const struct ktpu_plan *p, unsigned gm, unsigned gn, unsigned ntm, unsigned a_nk) \
    {                                                                                              \
        unsigned ncl = p->cfg.clusters, half = p->cfg.l1_depth / 2;                                \
        unsigned ntn = cdiv(p->gnt, gn);                                                           \
        unsigned tiles = ntm * ntn, tpc32 = cdiv(tiles, ncl);                                      \
        T tpc = tpc32;                                                                             \
        T bpe = p->bpb / 8; /* DRAM beats per L1 entry: 4 lanes x bpb / 32 */                      \
        T sub = (T)gm * gn;                                                                        \
        int bres = (uint64_t)gn * p->nkb <= half;                                                  \
        unsigned nk_max = umin(p->nkb, a_nk);                                                      \
        if (!bres) nk_max = umin(nk_max, udiv(half, gn));                                          \
        T chunks = cdiv(p->nkb, nk_max) + (!bres && p->nkb > nk_max); /* + the short first */      \
        T sweep = tpc * ((T)umax(gm * gn, KTPU_ACC_REUSE_MIN) * p->nkb + sub * 2 + chunks * GEMM_START); \
        T a_beats = tpc * gm * p->nkb * bpe;                                                       \
        T b_tiles = bres ? (T)cdiv(tpc32, ntm) + 1 : tpc;                                          \
        T b_beats = b_tiles * gn * p->nkb * bpe;                                                   \
        T mem = ncl * (a_beats + b_beats + tpc * sub * 3);                                         \
        T cpu = (T)tiles * chunks * (bres ? 2 : 3) * CPU_PER_INSTR;                                \
        T prologue = (T)(gm + gn) * bpe * ncl * 2;                                                 \
        T worst = sweep > mem ? sweep : mem;                                                       \
        return (worst > cpu ? worst : cpu) + prologue;                                             \
    }
TILE_COST(tile_cost32, uint32_t)
TILE_COST(tile_cost64, uint64_t)

/* Candidate tile heights (row groups, at most lim): powers of two, all of
 * t, and t split in 2, 3 or ncl equal parts (edge tiles as large as the
 * rest). Few on purpose: the search runs on the RV32 CPU before the first
 * instruction, where every division costs ~35 cycles. */
static unsigned gm_candidates(unsigned t, unsigned lim, unsigned ncl, unsigned *out)
{
    unsigned n = 0, m = umin(t, lim), extra[3];
    for (unsigned v = 1; v < m; v <<= 1) out[n++] = v;
    out[n++] = m;
    extra[0] = cdiv(t, 2);
    extra[1] = cdiv(t, 3);
    extra[2] = cdiv(t, ncl);
    for (unsigned i = 0; i < 3; i++) {
        unsigned k = 0;
        while (k < n && out[k] != extra[i]) k++;
        if (k == n && extra[i] < m) out[n++] = extra[i];
    }
    return n;
}

#define TINY_SWEEP 2048u   /* sub-tile x K-block steps: ~6 instructions of CPU time */

/* The cost of C in one tile split-K over s parts, in tile_cost's model:
 * each part sweeps its K range, then the tree's levels move the tile one
 * after the other (two flits per sub-tile); the port carries A and BT once
 * and C; the CPU issues every part's chunks and its reduction. In 32 or
 * 64 bits, as tile_cost. */
#define SPLIT_COST(NAME, T)                                                                        \
    static T NAME(const struct ktpu_plan *p, unsigned half, unsigned s)                            \
    {                                                                                              \
        T sub = (T)p->gmt * p->gnt, bpe = p->bpb / 8;                                              \
        unsigned kpart = cdiv(p->nkb, s), nk = umin(kpart, udiv(half, p->gmt)), levels = 0;        \
        int bres = p->gnt * kpart <= half;                                                         \
        if (!bres) nk = umin(nk, udiv(half, p->gnt));                                              \
        while ((1u << levels) < s) levels++;                                                       \
        T chunks = cdiv(kpart, nk);                                                                \
        T sweep = (T)umax(p->gmt * p->gnt, KTPU_ACC_REUSE_MIN) * kpart + sub * 2 + chunks * GEMM_START + \
                  levels * 2 * sub;                                                                \
        T mem = (T)(p->gmt + p->gnt) * p->nkb * bpe + sub * 3;                                     \
        T cpu = s * (chunks * (bres ? 2 : 3) + 2) * CPU_PER_INSTR;                                 \
        T worst = sweep > mem ? sweep : mem;                                                       \
        return (worst > cpu ? worst : cpu) + (T)(p->gmt + p->gnt) * bpe * 2;                       \
    }
SPLIT_COST(split_cost32, uint32_t)
SPLIT_COST(split_cost64, uint64_t)

/* The tile without a search, for the shapes the machine is built for: the
 * whole accumulator as a gm x gn tile of powers of two, gn = gm or 2 gm
 * (16 x 32 groups for ACC_DEPTH 512), when it tiles C exactly and every
 * cluster gets the same number of tiles, or at most one. Measured against the search's
 * choice on the SPEC §15 grid (docs/gemm.md): as fast or faster, and the
 * search costs ~1k-3k CPU cycles before the first instruction. Sets
 * p->gm, p->gn, or leaves them 0 (search); returns log2 of the tile's size. */
static unsigned regular_tile(struct ktpu_plan *p, unsigned half, unsigned acc)
{
    unsigned ncl = p->cfg.clusters, lg = ulog2(acc);   /* 2^lg: the largest power of two <= acc */
    unsigned gm = 1u << (lg / 2), gn = 1u << (lg - lg / 2);
    if (gm > half || gn > half || (p->gmt & (gm - 1)) || (p->gnt & (gn - 1))) return lg;
    unsigned tiles = (p->gmt >> (lg / 2)) * (p->gnt >> (lg - lg / 2));
    /* fewer tiles than clusters: one each (ktpu_plan_init may then split K for the idle ones) */
    if (tiles >= ncl && ((ncl & (ncl - 1)) || (tiles & (ncl - 1)))) return lg;
    p->gm = gm;
    p->gn = gn;
    return lg;
}

/* The tile search: a few candidate heights (gm_candidates), for each the
 * widest tile the accumulator takes and the balanced width with as many
 * column blocks, costed by tile_cost; at most 2 x 40 costings, ~1k-3k CPU
 * cycles. Sets p->gm, p->gn (0 if nothing fits). */
static void search_tile(struct ktpu_plan *p, unsigned half, unsigned acc)
{
    const struct ktpu_plan_cfg *cfg = &p->cfg;
    uint64_t best = ~0ull;
    int small = (uint64_t)p->gmt * p->gnt * p->nkb < (1u << 19) && cfg->clusters <= 16;
    unsigned cand[40];
    unsigned nc = gm_candidates(p->gmt, umin(half, acc), cfg->clusters, cand);
    /* tiles under a quarter of what each cluster could hold are never the
     * cheapest (more instructions, more operand traffic): not costed */
    unsigned share = p->gmt < 0x8000u && p->gnt < 0x8000u ? cdiv(p->gmt * p->gnt, cfg->clusters) : ~0u;
    unsigned floor_sub = umin(share, acc) / 4u;
    /* pass 0 skips the small tiles; pass 1 (only if nothing passed) takes all */
    for (unsigned pass = 0; pass < 2 && !p->gm; pass++)
        for (unsigned i = 0; i < nc; i++) {
            /* for each height: the widest tile the accumulator takes, and
             * the same number of column blocks with equal widths */
            unsigned gm = cand[i], gn_max = umin(p->gnt, umin(half, udiv(acc, gm)));
            if (!gn_max || (!pass && gm * gn_max < floor_sub)) continue;
            unsigned gn_bal = cdiv(p->gnt, cdiv(p->gnt, gn_max)), ntm = cdiv(p->gmt, gm), a_nk = udiv(half, gm);
            for (unsigned j = 0; j < 2; j++) {
                unsigned gn = j ? gn_bal : gn_max;
                if (j && gn == gn_max) break;
                uint64_t c = small ? tile_cost32(p, gm, gn, ntm, a_nk) : tile_cost64(p, gm, gn, ntm, a_nk);
                /* ties: the larger tile (fewer instructions) */
                if (c < best || (c == best && gm * gn > p->gm * p->gn)) {
                    best = c;
                    p->gm = gm;
                    p->gn = gn;
                }
            }
        }
}

/* The configuration's own limits; the shape, format and address ranges
 * only when no job check made them (cfg->checked). */
static enum ktpu_plan_err plan_check(const struct ktpu_plan_cfg *cfg, uint32_t bpb)
{
    const unsigned max_dim = 1u << 24;
    if (!cfg->clusters) return KTPU_PLAN_CLUSTERS;
    if (cfg->l1_depth < 2 || cfg->acc_depth < 1) return KTPU_PLAN_CAPACITY;
    /* every instruction field the plan fills then fits (ktpu_plan_encode
     * does not check): L1 offsets and groups below l1_depth, tile sizes at
     * most acc_depth, K blocks at most k / 32, all 16-bit fields */
    if (cfg->l1_depth > 0x10000u || cfg->acc_depth > 0x10000u) return KTPU_PLAN_RANGE;
    if (cfg->checked) return KTPU_PLAN_OK;   /* on the service's path to its first instruction */
    if (!cfg->m || !cfg->n || !cfg->k || cfg->m % 4 || cfg->n % 4 || cfg->k % 32) return KTPU_PLAN_SHAPE;
    if (cfg->fmt != KTPU_FMT_FP16 && cfg->fmt != KTPU_FMT_MX) return KTPU_PLAN_FMT;
    if (cfg->m > max_dim || cfg->n > max_dim || cfg->k > max_dim || cfg->k / 32 > 0xFFFFu) return KTPU_PLAN_RANGE;
    /* Each operand's bytes, [base, base + (rows-1) * stride + row bytes),
     * end within 4 GiB: every address the plan forms is the start of a
     * block or a C row group inside them, so below the end (an operand
     * may end at 2^32 exactly, as the job check allows). */
    if ((uint64_t)cfg->a + (uint64_t)(cfg->m - 1) * cfg->lda + (uint64_t)(cfg->k / 32) * bpb > 0x100000000ull ||
        (uint64_t)cfg->b + (uint64_t)(cfg->n - 1) * cfg->ldb + (uint64_t)(cfg->k / 32) * bpb > 0x100000000ull ||
        (uint64_t)cfg->c + (uint64_t)(cfg->m - 1) * cfg->ldc + 2ull * cfg->n > 0x100000000ull)
        return KTPU_PLAN_RANGE;
    return KTPU_PLAN_OK;
}

static unsigned acc_limit(const struct ktpu_plan_cfg *cfg) { return MUT(7) ? cfg->acc_depth * 2 : cfg->acc_depth; }
static unsigned tiny_limit(const struct ktpu_plan_cfg *cfg) { return cfg->tiny_sweep ? cfg->tiny_sweep : TINY_SWEEP; }

/* C fits one tile: the accumulator and an L1 half take it. */
static int c_fits_one_tile(const struct ktpu_plan *p)
{
    unsigned half = p->cfg.l1_depth / 2;
    return p->gmt <= half && p->gnt <= half && p->gmt * p->gnt <= acc_limit(&p->cfg);
}

/* ... and its sweep is short: the one-tile rule (plan_tiles) puts it on
 * one cluster, in one tile. */
static int c_one_short_tile(const struct ktpu_plan *p)
{
    return c_fits_one_tile(p) && p->gmt * p->gnt * p->nkb <= tiny_limit(&p->cfg);
}

/* The single plan (ktpu_plan.h): C one tile by the one-tile rule below
 * (fits the accumulator, a short sweep), K one chunk with BT resident.
 * Sets each field as plan_tiles would, without its divisions: the short
 * job's path to its first instruction. Returns 0 if the plan is not. */
static int plan_single(struct ktpu_plan *p)
{
    const struct ktpu_plan_cfg *cfg = &p->cfg;
    unsigned half = cfg->l1_depth / 2, gmt = p->gmt, gnt = p->gnt, nkb = p->nkb;
    if (cfg->tile_gm || !c_one_short_tile(p) || nkb * gmt > half || nkb * gnt > half) return 0;
    p->gm = gmt;
    p->gn = gnt;
    p->ntm = p->ntn = p->ntiles = p->split = p->active = p->single = 1;
    p->b_resident = 1;
    p->nk_max = nkb;
    p->tpc = cfg->clusters == 1;
    p->tpc_rem = 1 - p->tpc;
    p->uniform = cfg->clusters == 1;
    return 1;
}

/* The regular plan: regular_tile's tile, as many tiles on every cluster,
 * every field as plan_tiles sets it, by shifts (a multiply is 4 cycles
 * and a division 35 on the RV32 core) and without its other rules' tests:
 * the SPEC §15 shapes' path to their first instruction. fw_plan compares
 * the two on every plan this one makes. Returns 0 if the plan is not
 * regular (clusters not a power of two, fewer tiles than clusters, or not
 * a multiple of them: plan_tiles' rules; the caller leaves out C in one
 * tile). */
static void plan_upload(struct ktpu_plan *p);
static int __attribute__((noinline)) plan_regular(struct ktpu_plan *p)
{
    const struct ktpu_plan_cfg *cfg = &p->cfg;
    unsigned ncl = cfg->clusters, half = cfg->l1_depth / 2, lgc = 0;
    if (cfg->tile_gm || cfg->general || ncl > 16 || (ncl & (ncl - 1))) return 0;
    p->gm = 0;
    unsigned lg = regular_tile(p, half, acc_limit(cfg)), lgm = lg / 2, lgn = lg - lgm;
    if (!p->gm) return 0;
    p->ntm = p->gmt >> lgm;
    p->ntn = p->gnt >> lgn;
    /* below 2^13 each: tile indices and their products stay in 32 bits, as
     * plan_tiles checks (larger: plan_tiles) */
    if ((p->ntm | p->ntn) >> 13) return 0;
    p->ntiles = p->ntm * p->ntn;
    if (p->ntiles < ncl) return 0;   /* plan_tiles may split K for the idle clusters */
    while ((1u << lgc) < ncl) lgc++;
    p->split = 1;
    p->b_resident = MUT(16) ? p->nkb < half >> lgn : p->nkb <= half >> lgn;   /* gn * nkb <= half */
    p->nk_max = umin(p->nkb, half >> lgm);
    if (!p->b_resident) p->nk_max = umin(p->nk_max, half >> lgn);
    if (MUT(6)) p->nk_max++;
    p->tpc = p->ntiles >> lgc;
    p->tpc_rem = 0;
    p->active = ncl;
    /* plan_tiles' test, ntm % tpc == 0 or tpc % ntm == 0, without dividing:
     * with ncl = 2^c dividing ntm * ntn, tpc is a multiple of ntm when ncl
     * divides ntn; otherwise ntn = 2^a * o (o odd, a < c) and
     * ntm / tpc = 2^(c - a) / o, whole only when o = 1 */
    p->uniform = !(p->ntn & (ncl - 1)) || !(p->ntn & (p->ntn - 1)) || MUT(15);
    p->single = 0;   /* one tile is C in one tile */
    p->regular = 1;
    if (cfg->fmt == KTPU_FMT_FP16) plan_upload(p);
    return 1;
}

static enum ktpu_plan_err plan_tiles(struct ktpu_plan *p);

enum ktpu_plan_err ktpu_plan_init(struct ktpu_plan *p, const struct ktpu_plan_cfg *cfg)
{
    if (cfg != &p->cfg) p->cfg = *cfg;   /* the service builds it in place: no copy on its path */
    p->bpb = cfg->fmt == KTPU_FMT_FP16 ? 64u : 32u;
    p->upload = p->regular = 0;
    enum ktpu_plan_err e = plan_check(cfg, p->bpb);
    if (e != KTPU_PLAN_OK) return e;
    p->gmt = cfg->m / 4;
    p->gnt = cfg->n / 4;
    p->nkb = cfg->k / 32;
    /* C in one tile is never regular: tested here, without plan_regular's call */
    return plan_single(p) || (!c_fits_one_tile(p) && plan_regular(p)) ? KTPU_PLAN_OK : plan_tiles(p);
}

/* Quantise-on-upload's cost model (plan_upload): the job's time with the
 * upload, against reading the operands online, in cycles times ports (no
 * division). Written for two widths as TILE_COST: 32 bits when every term
 * is below 2^31 (gmt * gnt * nkb < 2^19 sub-tile steps; ports <= 16), which
 * keeps the model to a few dozen cycles on every FP16 job's path to its
 * first instruction. Returns 1 if the upload wins by 1/16. */
#define UPLOAD_PAYS(NAME, T)                                                                       \
    static int NAME(const struct ktpu_plan *p, unsigned ports)                                     \
    {                                                                                              \
        T tpc = p->tpc + (p->tpc_rem != 0);                                                        \
        T sweep = tpc * umax(p->gm * p->gn, KTPU_ACC_REUSE_MIN) * p->nkb * ports;                  \
        T b_tiles = p->b_resident ? cdiv((unsigned)tpc, p->ntm) + 1u : tpc;                        \
        T entries = (T)p->active * (tpc * p->gm + b_tiles * p->gn) * p->nkb;                       \
        T drain = (T)p->gmt * p->gnt; /* C: one beat per sub-tile */                               \
        T online = entries * 8u + drain, up = entries * 4u + drain;                                \
        if (online < sweep) online = sweep;                                                        \
        if (up < sweep) up = sweep;                                                                \
        up += (T)(p->gmt + p->gnt) * p->nkb * 12u; /* 4 rows a group, 3 beats a row block */       \
        return 16u * up < 15u * online;                                                            \
    }
UPLOAD_PAYS(upload_pays32, uint32_t)
UPLOAD_PAYS(upload_pays64, uint64_t)

/* Quantise-on-upload (docs/gemm.md): taken for a tiled FP16 plan when the
 * scratch region holds both MXFP7 copies and the model says the job ends
 * sooner with the upload first. Per port: the sweeps (one sub-tile step
 * per cycle, per cluster), the operand reads (tile_cost's counts of L1
 * entries, over the clusters with a tile: 8 beats each FP16, 4 MXFP7) and
 * the drains' writes overlap; the upload (each row's K block: 2 beats
 * read, 1 written, the agents sharing the rows) comes first and overlaps
 * nothing. A margin of 1/16 for what the model leaves out (the upload's
 * start, the first fills it delays). Split-K and single plans read each
 * block once: never. */
static void __attribute__((noinline)) plan_upload(struct ktpu_plan *p)   /* FP16 plans only */
{
    struct ktpu_plan_cfg *cfg = &p->cfg;
    /* an operand read fewer than 3 times costs more to upload (3 beats a
     * block) than it saves (1 a read): A is read once per column block of
     * tiles, BT at most once per tile */
    if (p->split > 1 || p->single || (!cfg->force_upload && p->ntn < 3 && p->ntiles < 3) ||
        (uint64_t)(cfg->m + cfg->n) * cfg->k > cfg->scratch_bytes)
        return;
    unsigned ports = cfg->mem_ports ? cfg->mem_ports : 1u;
    int small = (uint64_t)p->gmt * p->gnt * p->nkb < (1u << 19) && ports <= 16;   /* as search_tile */
    if (!cfg->force_upload && !(small ? upload_pays32(p, ports) : upload_pays64(p, ports))) return;
    p->upload = 1;
    p->src_a = cfg->a;
    p->src_lda = cfg->lda;
    p->src_b = cfg->b;
    p->src_ldb = cfg->ldb;
    cfg->fmt = KTPU_FMT_MX;
    p->bpb = 32u;
    cfg->a = cfg->scratch;
    cfg->lda = cfg->ldb = cfg->k;   /* a row's MXFP7 storage: 32 bytes per K block */
    cfg->b = cfg->scratch + (MUT(14) ? cfg->m - 4u : cfg->m) * cfg->k;
}

/* Every other plan: the tile size, the M/N split or split-K, the K chunks
 * and L1 layout (docs/gemm.md). Not inlined: its frame is large, and the
 * single plan's path does without it. */
static enum ktpu_plan_err __attribute__((noinline)) plan_tiles(struct ktpu_plan *p)
{
    const struct ktpu_plan_cfg *cfg = &p->cfg;
    unsigned half = cfg->l1_depth / 2, acc = acc_limit(cfg), tiny = tiny_limit(cfg);
    p->gm = p->gn = 0;
    p->split = 1;
    if (cfg->tile_gm) {
        /* the caller's tile, if the accumulator and L1 take it */
        if (cfg->tile_gm * cfg->tile_gn > acc || cfg->tile_gm > half || cfg->tile_gn > half || !cfg->tile_gn)
            return KTPU_PLAN_CAPACITY;
        p->gm = umin(cfg->tile_gm, p->gmt);
        p->gn = umin(cfg->tile_gn, p->gnt);
    } else if (c_one_short_tile(p)) {
        /* C in one tile, on one cluster: splitting a sweep this short
         * saves less than the CPU spends on a second cluster's stream */
        p->gm = p->gmt;
        p->gn = p->gnt;
    } else if (c_fits_one_tile(p) && cfg->clusters > 1 && !cfg->no_split) {
        /* C in one tile and K long: split-K over every cluster (A and BT
         * read once in all, a reduction after the sweeps), if the cost
         * model finds it cheaper than C split by M into one tile per
         * cluster (each reading all of BT); else the usual rules.
         * Measured, MXFP7 on 2 clusters: 64x1024x64 split-K 8,754 cycles,
         * M split 10,428; 128x2048x64 22,515 and 21,359 (the model picks
         * the faster of each) */
        unsigned s = umin(cfg->clusters, p->nkb), gm = cdiv(p->gmt, cfg->clusters), ntm = cdiv(p->gmt, gm);
        int small = p->gmt * p->gnt * p->nkb < (1u << 19) && cfg->clusters <= 16;   /* as search_tile */
        if (cfg->tiny_sweep ||   /* tests: split-K whatever the model says */
            (small ? split_cost32(p, half, s) < tile_cost32(p, gm, p->gnt, ntm, udiv(half, gm))
                   : split_cost64(p, half, s) < tile_cost64(p, gm, p->gnt, ntm, udiv(half, gm)))) {
            p->gm = p->gmt;
            p->gn = p->gnt;
            p->split = s;
        }
    }
    if (!p->gm && !cfg->tile_gm) regular_tile(p, half, acc);
    if (!p->gm) search_tile(p, half, acc);
    if (!p->gm) return KTPU_PLAN_CAPACITY;
    p->ntm = cdiv(p->gmt, p->gm);
    p->ntn = cdiv(p->gnt, p->gn);
    /* ntiles * (clusters + 1) < 2^31: tile indices, range ends and the
     * products formed from them stay in 32 bits */
    if ((uint64_t)p->ntm * p->ntn * (cfg->clusters + 1u) > 0x7FFFFFFFull) return KTPU_PLAN_RANGE;
    p->ntiles = p->ntm * p->ntn;
    /* fewer tiles than clusters, each sweep long: split-K for the idle ones */
    if (p->split == 1 && !cfg->tile_gm && !cfg->no_split && p->ntiles < cfg->clusters &&
        (uint64_t)p->gm * p->gn * p->nkb > tiny)
        p->split = umin(udiv(cfg->clusters, p->ntiles), p->nkb);
    /* BT of one column block resident for the whole of K, chunk-major, in
     * one half of L1 B (the other half takes the next column block's). */
    p->b_resident = (uint64_t)p->gn * (p->split > 1 ? cdiv(p->nkb, p->split) : p->nkb) <= half;   /* a part's K */
    p->nk_max = umin(p->nkb, udiv(half, p->gm));
    /* K chunks of nk_max blocks (the last takes the rest), as long as the L1
     * halves allow, also a cluster's first: a GEMM streams its K passes as
     * the FILLs land (docs/node.md), so a long first chunk does not delay
     * the first sweep, and fewer chunks are fewer instructions (256x256x256
     * MXFP7 on 1 cluster: 36.7k cycles with chunks of 2 blocks, 35.9k with
     * one of 8; 128x2048x128 on 2 clusters, streamed BT with a first chunk
     * of a quarter: 37.8k, of a whole: 36.7k). */
    if (!p->b_resident) p->nk_max = umin(p->nk_max, udiv(half, p->gn));
    if (MUT(6)) p->nk_max++;
    unsigned tpc = udiv(p->ntiles, cfg->clusters);
    p->tpc = tpc;
    p->tpc_rem = p->ntiles - tpc * cfg->clusters;
    p->active = umin(cfg->clusters, p->ntiles * p->split);
    p->uniform = p->split == 1 && !p->tpc_rem && p->gm * p->ntm == p->gmt && p->gn * p->ntn == p->gnt &&
                 (udiv(p->ntm, tpc) * tpc == p->ntm || udiv(tpc, p->ntm) * p->ntm == tpc);
    if (MUT(10)) p->uniform = tpc * cfg->clusters == p->ntiles;
    p->single = p->ntiles == 1 && p->split == 1 && p->nk_max >= p->nkb;
    if (cfg->fmt == KTPU_FMT_FP16) plan_upload(p);
    return KTPU_PLAN_OK;
}

void ktpu_plan_shift(const struct ktpu_plan *p, unsigned cl, struct ktpu_plan_shift *s)
{
    const struct ktpu_plan_cfg *cfg = &p->cfg;
    s->d[0] = 0;
    if (!cl) {   /* the stream itself: nothing moves (on the path to the first instruction) */
        s->bm = s->bn = 0;
        s->d[1] = s->d[2] = s->d[3] = 0;
        return;
    }
    /* the first tile of cl's range, as ktpu_plan_cursor_init finds it */
    unsigned t = p->tpc * cl + umin(cl, p->tpc_rem), bn = udiv(t, p->ntm), bm = t - bn * p->ntm;
    unsigned g0 = bm * p->gm, h0 = bn * p->gn;
    s->bm = bm;
    s->bn = bn;
    s->d[1] = 4 * g0 * cfg->lda;                  /* tile_enter's a_row */
    s->d[2] = 4 * h0 * cfg->ldb;                  /* ... b_row */
    s->d[3] = 4 * g0 * cfg->ldc + (MUT(11) ? 4 : 8) * h0;   /* ... c_at */
}

/* The current tile's values the instructions use, once per tile (not per
 * instruction: the issue path). */
static void tile_enter(const struct ktpu_plan *p, struct ktpu_plan_cursor *cur)
{
    const struct ktpu_plan_cfg *cfg = &p->cfg;
    cur->g0 = cur->bm * p->gm;
    cur->h0 = cur->bn * p->gn;
    cur->gm = umin(p->gm, p->gmt - cur->g0);
    cur->gn = umin(p->gn, p->gnt - cur->h0);
    cur->a_row = cfg->a + 4 * cur->g0 * cfg->lda;
    cur->b_row = cfg->b + 4 * cur->h0 * cfg->ldb;
    cur->c_at = cfg->c + 4 * cur->g0 * cfg->ldc + (MUT(8) ? 4 : 8) * cur->h0;
}

void ktpu_plan_cursor_init(const struct ktpu_plan *p, unsigned cl, struct ktpu_plan_cursor *cur)
{
    /* contiguous ranges of the column-block-major tile order (a cluster's
     * consecutive tiles share their BT column block), the first tpc_rem one
     * tile longer: no division per cluster, and the clusters left without
     * a tile are the last, so the service's loops stop short of them */
    cur->part = 0;
    cur->kb_lo = 0;
    cur->kb_hi = p->nkb;
    if (p->split > 1) {
        /* split-K: cluster cl is part cl mod split of tile cl / split, its
         * K blocks ktpu_ref_split_range's (the first nkb mod split parts
         * one block longer) */
        unsigned t = udiv(cl, p->split), q = udiv(p->nkb, p->split), r = p->nkb - q * p->split;
        cur->part = cl - t * p->split;
        cur->tile = umin(t, p->ntiles);
        cur->tile_end = umin(t + 1, p->ntiles);
        cur->kb_lo = cur->part * q + umin(cur->part, r);
        cur->kb_hi = cur->kb_lo + q + (cur->part < r);
        if (MUT(13) && cur->part == p->split - 1 && cur->kb_hi - cur->kb_lo > 1) cur->kb_hi--;
    } else {
        cur->tile = p->tpc * cl + umin(cl, p->tpc_rem);
        cur->tile_end = cur->tile + p->tpc + (cl < p->tpc_rem);
    }
    if (MUT(5) && cl == 0 && cur->tile_end > cur->tile) cur->tile_end--;
    cur->bn = udiv(cur->tile, p->ntm);
    cur->bm = cur->tile - cur->bn * p->ntm;
    cur->kb0 = cur->kb_lo;
    cur->nk = umin(p->nk_max, cur->kb_hi - cur->kb_lo);
    cur->red = 1;
    cur->step = 0;
    cur->a_half = 0;
    cur->b_half = 1;
    cur->b_col = ~0u;
    cur->b_fill = 0;
    /* a cluster without tiles gets nothing, not even the STATUS barrier */
    cur->status_sent = cur->tile >= cur->tile_end;
    if (!cur->status_sent) tile_enter(p, cur);
}

/* A split-K part's reduction after its last GEMM (ktpu_ref_gemm_mx_split's
 * tree): for d = red, 2 red, ... < split, a part with bit d set SENDs its
 * tile to part - d and is done; otherwise it RECVs (ADD_PEER) part + d's,
 * if there is one; part 0 then DRAINs the sum. Returns 0 when the part has
 * nothing left to do. */
static int reduce_next(const struct ktpu_plan *p, struct ktpu_plan_cursor *cur, struct ktpu_plan_op *o)
{
    unsigned first = cur->tile * p->split;   /* the tile's part 0 */
    o->toff = 0;
    o->gm = cur->gm;
    o->gn = cur->gn;
    if (cur->step == 3) {
        for (unsigned d = cur->red; d < p->split; d <<= 1) {
            unsigned peer = 0;
            if (MUT(12) ? cur->part != 0 : (cur->part & d) != 0) {   /* MUT(12): a chain into part 0 */
                o->kind = KTPU_CLOP_SEND;
                peer = MUT(12) ? first : first + cur->part - d;
                cur->step = 5;
            } else if (cur->part + d < p->split) {
                o->kind = KTPU_CLOP_RECV;
                peer = first + cur->part + d;
                cur->red = MUT(12) ? d + 1 : d << 1;
            } else {
                continue;
            }
            o->px = p->cfg.peer_xy ? p->cfg.peer_xy[2 * peer] : 0;
            o->py = p->cfg.peer_xy ? p->cfg.peer_xy[2 * peer + 1] : 0;
            return 1;
        }
        cur->step = cur->part == 0 ? 4 : 5;
    }
    if (cur->step == 4) {
        o->kind = KTPU_CLOP_DRAIN;
        o->base = cur->c_at;
        o->stride = p->cfg.ldc;
        cur->step = 5;
        return 1;
    }
    return 0;
}

int ktpu_plan_next(const struct ktpu_plan *p, struct ktpu_plan_cursor *cur, struct ktpu_plan_op *op)
{
    const struct ktpu_plan_cfg *cfg = &p->cfg;
    unsigned half = cfg->l1_depth / 2;
    /* fields written in place, no struct copy (on the RV32 a struct copy
     * is a call to picolibc's byte-wise memcpy) and only those of the
     * instruction's kind: this is the service's hot path */
    struct ktpu_plan_op *o = op;

    if (cur->step >= 3 && cur->tile < cur->tile_end) {
        o->tile = cur->tile;
        if (reduce_next(p, cur, o)) return 1;
        cur->tile = cur->tile_end;   /* a split-K part has one tile */
    }
    if (cur->tile >= cur->tile_end) {
        if (cur->status_sent) return 0;
        cur->status_sent = 1;
        o->kind = KTPU_CLOP_STATUS;
        o->fmt = 0;
        return 1;
    }
    unsigned bn = cur->bn, gm = cur->gm, gn = cur->gn;
    o->tile = cur->tile;
    o->g0 = cur->g0;
    o->h0 = cur->h0;
    o->kb0 = cur->kb0;
    o->nk = cur->nk;
    o->fmt = cfg->fmt;
    unsigned a_off = (MUT(3) ? 0 : cur->a_half) * half;

    /* BT first: it is the larger fill of a tile (gn >= gm) and the one the
     * clusters share the most, so its stream starts first */
    if (cur->step == 0) {
        cur->step = 1;
        if (p->b_resident && cur->kb0 == cur->kb_lo) {
            cur->b_fill = bn != cur->b_col;
            if (cur->b_fill) {
                cur->b_col = bn;
                if (!MUT(4)) cur->b_half ^= 1;
            }
        }
        if (!p->b_resident || cur->b_fill) {
            o->kind = KTPU_CLOP_FILL;
            o->side = 1;
            o->off = p->b_resident ? cur->b_half * half + gn * (cur->kb0 - cur->kb_lo) : a_off;
            o->gm = gn;
            o->base = cur->b_row + (MUT(9) ? 0 : cur->kb0 * p->bpb);
            o->stride = cfg->ldb;
            return 1;
        }
    }
    if (cur->step == 1) {
        o->kind = KTPU_CLOP_FILL;
        o->side = 0;
        o->off = a_off;
        o->gm = gm;
        o->base = cur->a_row + cur->kb0 * p->bpb;
        o->stride = cfg->lda;
        cur->step = 2;
        return 1;
    }
    /* step 2: the sweep */
    o->kind = KTPU_CLOP_GEMM;
    o->aoff = a_off;
    o->boff = p->b_resident ? cur->b_half * half + gn * (cur->kb0 - cur->kb_lo) : a_off;
    o->toff = 0;
    o->gm = gm;
    o->gn = gn;
    o->acc = MUT(2) ? 0 : cur->kb0 > cur->kb_lo;
    o->emit = p->split == 1 && (MUT(1) ? cur->kb0 == 0 : cur->kb0 + cur->nk == p->nkb);
    o->base = cur->c_at;
    o->stride = cfg->ldc;
    cur->a_half ^= 1;
    cur->step = 0;
    if (cur->kb0 + cur->nk < cur->kb_hi) {   /* the next chunk: nk_max blocks, or the rest */
        cur->kb0 += cur->nk;
        cur->nk = umin(p->nk_max, cur->kb_hi - cur->kb0);
    } else if (p->split > 1) {
        cur->step = 3;   /* the part's partial is complete: its reduction */
    } else {
        cur->tile++;
        if (++cur->bm == p->ntm) {   /* column-block major, no division on the hot path */
            cur->bm = 0;
            cur->bn++;
        }
        cur->kb0 = 0;
        cur->nk = umin(p->nk_max, p->nkb);
        if (cur->tile < cur->tile_end) tile_enter(p, cur);
    }
    return 1;
}

/* The words of a FILL and of a GEMM, shared by ktpu_plan_encode and
 * ktpu_plan_first_words. */
static inline void encode_fill(uint32_t w[KTPU_CI_WORDS], unsigned side, unsigned fmt, unsigned off, unsigned gm,
                               unsigned nk, uint32_t base, uint32_t stride)
{
    w[KTPU_CI_OP_WORD] =
        KTPU_FIELD(CI_OP_CODE, KTPU_CLOP_FILL) | KTPU_FIELD(CI_OP_SIDE, side) | KTPU_FIELD(CI_OP_FMT, fmt);
    w[KTPU_CI_OFF_WORD] = KTPU_FIELD(CI_OFF_AOFF, off);
    w[KTPU_CI_TOFF_WORD] = 0;
    w[KTPU_CI_SHAPE_WORD] = KTPU_FIELD(CI_SHAPE_GM, gm);
    w[KTPU_CI_NK_WORD] = KTPU_FIELD(CI_NK_NK, nk);
    w[KTPU_CI_BASE_WORD] = base;
    w[KTPU_CI_STRIDE_WORD] = stride;
    w[7] = 0;
}

static inline void encode_gemm(uint32_t w[KTPU_CI_WORDS], unsigned acc, unsigned emit, unsigned aoff, unsigned boff,
                               unsigned toff, unsigned gm, unsigned gn, unsigned nk, uint32_t base, uint32_t stride)
{
    w[KTPU_CI_OP_WORD] =
        KTPU_FIELD(CI_OP_CODE, KTPU_CLOP_GEMM) | KTPU_FIELD(CI_OP_ACC, acc) | KTPU_FIELD(CI_OP_EMIT, emit);
    w[KTPU_CI_OFF_WORD] = KTPU_FIELD(CI_OFF_AOFF, aoff) | KTPU_FIELD(CI_OFF_BOFF, boff);
    w[KTPU_CI_TOFF_WORD] = KTPU_FIELD(CI_TOFF_TOFF, toff);
    w[KTPU_CI_SHAPE_WORD] = KTPU_FIELD(CI_SHAPE_GM, gm) | KTPU_FIELD(CI_SHAPE_GN, gn);
    w[KTPU_CI_NK_WORD] = KTPU_FIELD(CI_NK_NK, nk);
    w[KTPU_CI_BASE_WORD] = base;
    w[KTPU_CI_STRIDE_WORD] = stride;
    w[7] = 0;
}

void ktpu_plan_encode(const struct ktpu_plan_op *o, uint32_t w[KTPU_CI_WORDS])
{
    switch (o->kind) {
    case KTPU_CLOP_FILL:
        encode_fill(w, o->side, o->fmt, o->off, o->gm, o->nk, o->base, o->stride);
        return;
    case KTPU_CLOP_GEMM:
        encode_gemm(w, o->acc, o->emit, o->aoff, o->boff, o->toff, o->gm, o->gn, o->nk, o->base, o->stride);
        return;
    case KTPU_CLOP_SEND:
    case KTPU_CLOP_RECV:   /* ktpu_ci_peer's words: GM 1, GN the sub-tile count */
        w[KTPU_CI_OP_WORD] = KTPU_FIELD(CI_OP_CODE, o->kind) | KTPU_FIELD(CI_OP_PX, o->px) | KTPU_FIELD(CI_OP_PY, o->py);
        w[KTPU_CI_OFF_WORD] = 0;
        w[KTPU_CI_TOFF_WORD] = KTPU_FIELD(CI_TOFF_TOFF, o->toff);
        w[KTPU_CI_SHAPE_WORD] = KTPU_FIELD(CI_SHAPE_GM, 1u) | KTPU_FIELD(CI_SHAPE_GN, o->gm * o->gn);
        w[KTPU_CI_NK_WORD] = w[KTPU_CI_BASE_WORD] = w[KTPU_CI_STRIDE_WORD] = w[7] = 0;
        return;
    case KTPU_CLOP_DRAIN:
        w[KTPU_CI_OP_WORD] = KTPU_FIELD(CI_OP_CODE, KTPU_CLOP_DRAIN);
        w[KTPU_CI_OFF_WORD] = 0;
        w[KTPU_CI_TOFF_WORD] = KTPU_FIELD(CI_TOFF_TOFF, o->toff);
        w[KTPU_CI_SHAPE_WORD] = KTPU_FIELD(CI_SHAPE_GM, o->gm) | KTPU_FIELD(CI_SHAPE_GN, o->gn);
        w[KTPU_CI_NK_WORD] = w[7] = 0;
        w[KTPU_CI_BASE_WORD] = o->base;
        w[KTPU_CI_STRIDE_WORD] = o->stride;
        return;
    default:   /* STATUS, read and clear: the next job starts clean */
        ktpu_ci_status(w, 1);
        return;
    }
}

void ktpu_plan_first_words(const struct ktpu_plan *p, uint32_t w[3][KTPU_CI_WORDS])
{
    const struct ktpu_plan_cfg *cfg = &p->cfg;
    /* ktpu_plan_next's first tile (tile 0, whole) and its first chunk from
     * a new cursor: BT and A in the first halves of L1 (a resident BT's
     * first column block flips b_half from 1 to 0), everything at offset 0 */
    unsigned nk = p->nk_max;   /* the cursor's umin(nk_max, nkb): nk_max <= nkb */
    encode_fill(w[0], 1, cfg->fmt, 0, MUT(17) ? p->gm : p->gn, nk, cfg->b, cfg->ldb);
    encode_fill(w[1], 0, cfg->fmt, 0, p->gm, nk, cfg->a, cfg->lda);
    encode_gemm(w[2], 0, MUT(1) ? 1 : nk == p->nkb, 0, 0, 0, p->gm, p->gn, nk, cfg->c, cfg->ldc);
}
