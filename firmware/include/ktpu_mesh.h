/* Mesh port driver (docs/soc.md, MESH_* registers) and the cluster layer on
 * top of it: discovery from SOC_KINDS0/1 + SOC_MESH, instruction issue with
 * credits (at most NODE_IQ_DEPTH uncompleted instructions per cluster),
 * completion tracking by (cluster, txn), and time-outs on the platform
 * timer. No allocation: the caller owns struct ktpu_clset. */
#ifndef KTPU_FW_MESH_H
#define KTPU_FW_MESH_H

#include <stdint.h>

#include "ktpu_ci.h"
#include "ktpu_rt.h"

#define KTPU_MAX_CLUSTERS 16   /* SOC_KINDS0/1 describe 16 nodes */

/* ---- flits: a 32-bit header (flit bits 287:256) and 8 payload words ---- */
static inline uint32_t ktpu_mesh_hdr(unsigned dx, unsigned dy, unsigned sx, unsigned sy, unsigned type,
                                     unsigned txn, unsigned last)
{
    return KTPU_FIELD(FLIT_DST_X, dx) | KTPU_FIELD(FLIT_DST_Y, dy) | KTPU_FIELD(FLIT_SRC_X, sx) |
           KTPU_FIELD(FLIT_SRC_Y, sy) | KTPU_FIELD(FLIT_TYPE, type) | KTPU_FIELD(FLIT_TXN, txn) |
           KTPU_FIELD(FLIT_LAST, last);
}

/* Compose and send one flit: header and payload words 0..7 (the SoC holds
 * the store while the previous flit has not left). */
void ktpu_mesh_send(uint32_t hdr, const uint32_t w[KTPU_CI_WORDS]);
/* If a flit waits: read it into *hdr and w, free the receive register,
 * return 1. (Words are moved one by one, never through memcpy: picolibc's
 * size-optimised memcpy goes a byte at a time, and this is the hot path.) */
int ktpu_mesh_poll(uint32_t *hdr, uint32_t w[KTPU_CI_WORDS]);

static inline uint32_t ktpu_mtime(void) { return KTPU_REG(MTIME_LO); }

/* ---- clusters ---- */
struct ktpu_cl_slot {
    uint8_t busy, txn, op;
    uint32_t tag;                      /* the caller's, returned with the completion */
};

struct ktpu_cl {
    uint8_t x, y;
    uint8_t outstanding;
    struct ktpu_cl_slot slot[KTPU_NODE_IQ_DEPTH];
    uint32_t since;                    /* mtime of the last completion (or of the first issue) */
};

struct ktpu_clset {
    unsigned n;
    uint8_t cpu_x, cpu_y;
    uint8_t next_txn;
    struct ktpu_cl cl[KTPU_MAX_CLUSTERS];
    uint32_t stray;                    /* flits that matched no outstanding instruction */
};

/* A completion, decoded. */
struct ktpu_cl_done {
    unsigned cluster;
    unsigned op;                       /* the opcode issued (from our slot) */
    unsigned code, memst;              /* CLERR_*, MEMST_* */
    uint32_t addr;                     /* CD_ADDR_WORD */
    uint32_t tag;
    uint32_t w[KTPU_CI_WORDS];         /* the whole payload (STATUS counters) */
};

/* Reads the mesh description: fills cpu position and up to max clusters in
 * node order (y * W + x). Returns the number of clusters, or -1 when the
 * registers describe no CPU node (named on the UART by the caller). */
int ktpu_clset_discover(struct ktpu_clset *s, unsigned max);

static inline int ktpu_cl_credit(const struct ktpu_clset *s, unsigned c)
{
    return s->cl[c].outstanding < KTPU_NODE_IQ_DEPTH;
}

/* Sends instruction w to cluster c (caller checked ktpu_cl_credit). */
void ktpu_cl_issue(struct ktpu_clset *s, unsigned c, const uint32_t w[KTPU_CI_WORDS], uint32_t tag);

/* One completion if one arrived: 1 and *d filled; 0 nothing; -1 a flit that
 * is no completion of ours (counted in stray, dropped). */
int ktpu_cl_poll(struct ktpu_clset *s, struct ktpu_cl_done *d);

/* The first cluster with instructions outstanding and no completion for
 * limit cycles of mtime, or -1. */
int ktpu_cl_timed_out(const struct ktpu_clset *s, uint32_t limit);

#endif
