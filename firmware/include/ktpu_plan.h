/* GEMM planner (SPEC §10): portable C99, no allocation. Compiled into the
 * GEMM firmware and, unchanged, into the host test tests/fw/plan_test.c.
 *
 * The plan is a function, not a list: ktpu_plan_next() yields one cluster's
 * next instruction from a small cursor, so a shape of any size plans in
 * constant memory. Every cluster's stream is
 *
 *   for each C tile given to it (column-block major):
 *     for each K chunk [kb0, kb1) (nk_max blocks, the last the rest):
 *       FILL B chunk -> L1 B (resident: once per column block; else a half)
 *       FILL A chunk -> L1 A half (alternating per chunk)
 *       GEMM  acc = (chunk > 0), emit = (last chunk)      tile at TOFF 0
 *   STATUS                                            (the barrier)
 *
 * Split-K (fewer C tiles than clusters): `split` clusters per tile, each
 * over its range of K blocks (ktpu_ref_split_range's) without EMIT, then
 * the binomial tree of ktpu_ref_gemm_mx_split: RECV from part + d (ADD_PEER)
 * for d = 1, 2, ... while part % 2d == 0, else one SEND to part - d; part 0
 * DRAINs the tile to C.
 *
 * See docs/gemm.md for why each part is safe (the double-buffer argument)
 * and for a worked example.
 *
 * A uniform plan (every cluster the same number of whole tiles, its range
 * one translate of cluster 0's) lets the service compute one stream:
 * cluster c's instruction i is cluster 0's with the base word moved by
 * ktpu_plan_shift (tests/fw checks it against c's own stream, word for
 * word, on every uniform plan). */
#ifndef KTPU_FW_PLAN_H
#define KTPU_FW_PLAN_H

#include <stdint.h>

#include "ktpu_ci.h"
#include "ktpu_defs.h"

/* What a job asks for (addresses are DRAM byte offsets). */
struct ktpu_plan_cfg {
    uint32_t m, n, k;        /* C is m x n; A m x k, BT n x k (m, n % 4, k % 32 == 0) */
    uint32_t fmt;            /* KTPU_FMT_FP16 or KTPU_FMT_MX, both operands */
    uint32_t a, lda;         /* A base and row stride (bytes) */
    uint32_t b, ldb;         /* BT base and row stride */
    uint32_t c, ldc;         /* C base and row stride (row-major FP16) */
    unsigned clusters;       /* >= 1 */
    unsigned l1_depth;       /* entries per L1 side (KTPU_L1_DEPTH; smaller in tests) */
    unsigned acc_depth;      /* accumulator sub-tiles (KTPU_ACC_DEPTH) */
    unsigned tile_gm, tile_gn;   /* tile in sub-tile groups, or 0: the planner chooses */
    int no_split;            /* never split K across clusters (comparisons) */
    unsigned tiny_sweep;     /* tests: a one-tile C of more than this many sub-tile x K-block steps
                                is split-K, whatever the cost model says (0: the planner's
                                TINY_SWEEP and its model) */
    const uint8_t *peer_xy;  /* cluster c's mesh position: peer_xy[2c], peer_xy[2c + 1] (SEND/RECV) */
    uint32_t scratch, scratch_bytes;   /* quantise-on-upload's region (JOB_FLAGS QJOB), 0 bytes: none */
    unsigned mem_ports;      /* memory agents the upload is shared over (the cost model's), >= 1 */
    int force_upload;        /* tests: quantise-on-upload wherever the scratch region allows it,
                                whatever the cost model says */
    int general;             /* tests: the general rules (plan_tiles) also where the regular plan's
                                shifts apply (fw_plan compares the two) */
    int checked;             /* built by ktpu_job_plan_cfg from a job ktpu_job_check accepted, whose
                                rules imply ktpu_plan_init's own on the shape, format and address
                                ranges (tests/fw/job_test.c checks it on every job it accepts):
                                those are not checked again */
};

struct ktpu_plan {
    struct ktpu_plan_cfg cfg;
    unsigned gmt, gnt, nkb;  /* C in 4x4 sub-tile groups, K in 32-blocks */
    unsigned gm, gn;         /* tile size in sub-tile groups (edge tiles smaller) */
    unsigned ntm, ntn;       /* tiles down M, across N */
    unsigned ntiles;
    unsigned tpc, tpc_rem;   /* tiles per cluster: cluster c < tpc_rem takes one more (clusters
                                without a tile are the last ones) */
    unsigned split;          /* clusters per tile (split-K parts), 1: none */
    unsigned active;         /* clusters with a tile, the first ones */
    unsigned nk_max;         /* the other K chunks (L1 half capacity; the last may be shorter) */
    int b_resident;          /* BT of one column block stays in L1 B for all its tiles */
    uint32_t bpb;            /* source bytes per 32-element block: 64 FP16, 32 MXFP7 */
    int uniform;             /* see above: ntiles a multiple of the clusters, no edge
                                tiles, and a cluster's tiles per column block dividing
                                (or a multiple of) the column block's */
    int single;              /* C is one tile, K one chunk: cluster 0's stream is FILL BT, FILL A,
                                GEMM (emit), STATUS, the others' empty (ktpu_plan_first_words) */
    int regular;             /* made by the regular rule's shifts, not the general rules (the same
                                plan: tests/fw compares them) */
    /* Quantise-on-upload (docs/gemm.md; plan_upload decides it): the FP16 operands are first
     * quantised into the scratch region (A's MXFP7 storage at cfg.scratch,
     * BT's after it, rows of k bytes) by MEM_QJOBs, and the plan reads them
     * there: cfg's a, lda, b, ldb and fmt are then the MXFP7 copies', and
     * these the FP16 sources. */
    int upload;
    uint32_t src_a, src_lda, src_b, src_ldb;
};

/* One instruction of the plan. kind is KTPU_CLOP_FILL, _GEMM, _SEND, _RECV, _DRAIN or _STATUS;
 * the fields are those of the instruction (docs/node.md). The rest says
 * what it is for (the service announces tiles, the test checks). */
struct ktpu_plan_op {
    unsigned kind;
    unsigned side, fmt;                   /* FILL: 0 = A, 1 = B */
    unsigned off;                         /* FILL: L1 offset */
    unsigned aoff, boff, toff;            /* GEMM */
    unsigned gm, gn, nk;                  /* FILL: groups = gm, per group = nk */
    unsigned acc, emit;                   /* GEMM */
    uint32_t base, stride;                /* FILL source, GEMM (emit) and DRAIN C */
    unsigned px, py;                      /* SEND, RECV: the peer (n = gm x gn sub-tiles) */
    /* bookkeeping */
    unsigned tile;                        /* plan tile index */
    unsigned g0, h0;                      /* tile origin in sub-tile groups */
    unsigned kb0;                         /* chunk's first K block */
};

/* One cluster's position in its stream. */
struct ktpu_plan_cursor {
    unsigned tile, tile_end;              /* this cluster's tiles [tile, tile_end) */
    unsigned bm, bn;                      /* the tile's row block and column block */
    unsigned g0, h0, gm, gn;              /* ... its origin and size in groups (edge tiles smaller) */
    uint32_t a_row, b_row, c_at;          /* ... its first A row, BT row and C element (bytes) */
    unsigned kb0, nk;                     /* current chunk */
    unsigned kb_lo, kb_hi;                /* this cluster's K blocks of the tile (split-K: its part's) */
    unsigned part, red;                   /* split-K: its part; the next reduction distance d */
    unsigned step;                        /* 0 FILL B, 1 FILL A, 2 GEMM, 3 reduction, 4 DRAIN */
    unsigned a_half;                      /* parity of the next A (and streamed B) chunk */
    unsigned b_half;                      /* resident B buffer in use */
    unsigned b_col;                       /* column block whose BT is resident, or ~0 */
    int b_fill;                           /* this tile fills the resident BT (first of its column block) */
    int status_sent;
};

/* Why a plan was refused (the service validates jobs first; these are the
 * planner's own limits). */
enum ktpu_plan_err {
    KTPU_PLAN_OK = 0,
    KTPU_PLAN_SHAPE,      /* m, n, k zero or not multiples of 4, 4, 32 */
    KTPU_PLAN_FMT,        /* format not FP16 / MX */
    KTPU_PLAN_CLUSTERS,   /* zero clusters */
    KTPU_PLAN_CAPACITY,   /* L1 half or accumulator smaller than one sub-tile's needs */
    KTPU_PLAN_RANGE       /* a stride or address that overflows 32 bits */
};

/* Plan a job: tile size, K partition, B residency. cfg may be &p->cfg. */
enum ktpu_plan_err ktpu_plan_init(struct ktpu_plan *p, const struct ktpu_plan_cfg *cfg);
const char *ktpu_plan_err_name(enum ktpu_plan_err e);

/* Start cluster cl's stream (cl < cfg.clusters). */
void ktpu_plan_cursor_init(const struct ktpu_plan *p, unsigned cl, struct ktpu_plan_cursor *cur);

/* The cluster's next instruction: 1 and *op filled, or 0 after its STATUS. */
int ktpu_plan_next(const struct ktpu_plan *p, struct ktpu_plan_cursor *cur, struct ktpu_plan_op *op);

/* Where cluster cl's stream lies against cluster 0's in a uniform plan:
 * its first tile (row block bm, column block bn) and the byte offset d[sel]
 * added to the base word (CI_BASE_WORD) of each instruction, sel from
 * ktpu_plan_shift_sel: 0 none (STATUS), 1 a FILL of A, 2 a FILL of BT,
 * 3 a GEMM's C. */
struct ktpu_plan_shift {
    uint32_t d[4];
    unsigned bm, bn;
};
void ktpu_plan_shift(const struct ktpu_plan *p, unsigned cl, struct ktpu_plan_shift *s);
static inline unsigned ktpu_plan_shift_sel(const struct ktpu_plan_op *o)
{
    if (o->kind == KTPU_CLOP_FILL) return 1u + o->side;
    return o->kind == KTPU_CLOP_GEMM ? 3u : 0u;
}

/* a / b (b > 0), exactly, without a hardware divide where a table of
 * reciprocals or a shift does it (exported for the host test). */
unsigned ktpu_plan_udiv(unsigned a, unsigned b);

/* The instruction words of an op of a plan ktpu_plan_init accepted, the
 * same as the ktpu_ci_* encoders give (tests/fw checks every op of every
 * plan), without their per-field range checks: plan_init refused any
 * configuration that could make a field overflow. STATUS is sent with
 * CLEAR. The hot path of the GEMM service. */
void ktpu_plan_encode(const struct ktpu_plan_op *o, uint32_t w[KTPU_CI_WORDS]);

/* Cluster 0's first three instructions of a plan that does not split K
 * (p->split == 1), encoded without a cursor: the words ktpu_plan_encode
 * gives for its first FILL BT, FILL A and GEMM (tests/fw checks every such
 * plan). The service's path to its first instruction; a single plan's
 * whole stream but its STATUS. */
void ktpu_plan_first_words(const struct ktpu_plan *p, uint32_t w[3][KTPU_CI_WORDS]);

#endif
