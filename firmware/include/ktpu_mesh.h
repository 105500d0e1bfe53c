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

/* ---- flits: a 32-bit header (flit bits 287:256, ktpu_flit_pack in the
 * generated ktpu_defs.h) and 8 payload words ---- */

/* Compose and send one flit: header and payload words 0..7, word
 * CI_BASE_WORD plus delta (a uniform plan's instruction moved to another
 * cluster's tile, ktpu_plan.h; 0 sends w as it is). The SoC holds the store
 * while the previous flit has not left. Stores written out, no loop: this is
 * the issue path. */
static inline void ktpu_mesh_send_moved(uint32_t hdr, const uint32_t w[KTPU_CI_WORDS], uint32_t delta)
{
    volatile uint32_t *tx = &KTPU_REG_AT(MESH_TX0, 0);
#if KTPU_CI_BASE_WORD != 5
#error "ktpu_mesh_send_moved adds delta to payload word 5"
#endif
    /* every word loaded before the first store: w might alias the
     * registers as far as the compiler knows, so a load between two
     * volatile stores stays there, and each would wait a cycle for its
     * store (the CPU's load-use bubble, docs/cpu.md) */
    uint32_t w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5] + delta, w6 = w[6], w7 = w[7];
    tx[0] = hdr;
    tx[1] = w0;
    tx[2] = w1;
    tx[3] = w2;
    tx[4] = w3;
    tx[5] = w4;
    tx[6] = w5;
    tx[7] = w6;
    tx[8] = w7;
    KTPU_REG(MESH_TX_SEND) = 1;
}
static inline void ktpu_mesh_send(uint32_t hdr, const uint32_t w[KTPU_CI_WORDS]) { ktpu_mesh_send_moved(hdr, w, 0); }
/* If a flit waits: read it into *hdr and w, free the receive register,
 * return 1. (Words are moved one by one, never through memcpy: picolibc's
 * size-optimised memcpy goes a byte at a time, and this is the hot path.) */
int ktpu_mesh_poll(uint32_t *hdr, uint32_t w[KTPU_CI_WORDS]);

static inline uint32_t ktpu_mtime(void) { return KTPU_REG(MTIME_LO); }

/* ---- clusters ---- */
#if KTPU_FLIT_SRC_X_LSB != KTPU_FLIT_SRC_Y_LSB + 4 || KTPU_FLIT_SRC_Y_MASK >> KTPU_FLIT_SRC_Y_LSB != 15
#error "the completion lookup takes SRC_X:SRC_Y as one byte"
#endif
/* An instruction's transaction id is its slot (0..NODE_IQ_DEPTH-1) in the
 * low bits and the set's epoch above them: a completion finds its slot
 * without a search, and one left over from an earlier job (a cluster that
 * timed out and answered later) matches no slot of this one. */
#define KTPU_CL_SLOT_BITS 2
#if (1 << KTPU_CL_SLOT_BITS) != KTPU_NODE_IQ_DEPTH
#error "KTPU_CL_SLOT_BITS must be log2(NODE_IQ_DEPTH)"
#endif

/* Laid out for the issue and completion paths: a cluster's record is 32
 * bytes (indexed by a shift, not a multiply), a completion finds its cluster
 * from the flit's source byte in one table load. */
struct ktpu_cl {
    uint32_t hdr;                      /* flit header to this cluster, TXN zero */
    uint32_t since;                    /* mtime of the last completion (or of the first issue) */
    uint8_t x, y;
    uint8_t outstanding;
    uint8_t busy;                      /* bit k: slot k awaits its CL_DONE; bit 4 + k: its instruction
                                          is SILENT (CI_OP): no CL_DONE unless it fails, done at the
                                          cluster's next STATUS answer */
    uint8_t op[KTPU_NODE_IQ_DEPTH];    /* slot k: the opcode issued; high bits: the SILENT slots
                                          outstanding then (a STATUS's answer completes them) */
    uint32_t tag[KTPU_NODE_IQ_DEPTH];  /* slot k: the caller's, returned with the completion */
};
typedef char ktpu_cl_is_32_bytes[sizeof(struct ktpu_cl) == 32 ? 1 : -1];

#define KTPU_MAX_MEM 2   /* memory agents a machine has (ktpu_soc MemPorts) */

struct ktpu_clset {
    unsigned n;
    uint8_t cpu_x, cpu_y;
    uint8_t nmem, mem_x[KTPU_MAX_MEM], mem_y[KTPU_MAX_MEM];   /* the memory agents, in node order */
    uint8_t epoch;                     /* TXN bits above the slot; ktpu_clset_new_epoch() */
    uint32_t stray;                    /* flits that matched no outstanding instruction */
    uint32_t txn_hdr;                  /* the epoch as header bits (FLIT_TXN, slot 0) */
    uint32_t done_hdr;                 /* ... and FLIT_TYPE CL_DONE: a completion of this epoch */
    struct ktpu_cl cl[KTPU_MAX_CLUSTERS];
    uint8_t src_cl[256];               /* flit source byte (SRC_X:SRC_Y) -> cluster + 1, 0: none */
};

/* A completion, decoded. w[] holds the whole payload for a STATUS (the
 * counters); for any other instruction only the words a completion carries
 * (CD_STATUS, and CD_ADDR for CLERR_MEM) are read from the port. */
struct ktpu_cl_done {
    unsigned cluster;
    unsigned op;                       /* the opcode issued (from our slot) */
    unsigned code, memst;              /* CLERR_*, MEMST_* */
    uint32_t addr;                     /* CD_ADDR_WORD (CLERR_MEM), else 0 */
    uint32_t tag;
    unsigned written;                  /* a CL_WRITTEN: a GEMM's (EMIT) tile is in DRAM; no credit, tag 0 */
    uint32_t w[KTPU_CI_WORDS];
};

/* Reads the mesh description: fills cpu position, the memory agents and up
 * to max clusters in node order (y * W + x). Returns the number of clusters, or -1 when the
 * registers describe no CPU node (named on the UART by the caller). */
int ktpu_clset_discover(struct ktpu_clset *s, unsigned max);

/* A new epoch for the next job's transaction ids (nothing outstanding). */
void ktpu_clset_new_epoch(struct ktpu_clset *s);

static inline int ktpu_cl_credit(const struct ktpu_clset *s, unsigned c)
{
    return s->cl[c].outstanding < KTPU_NODE_IQ_DEPTH;
}

/* Sends instruction w to cluster c (caller checked ktpu_cl_credit), its
 * base word plus delta (ktpu_mesh_send_moved). */
void ktpu_cl_issue_moved(struct ktpu_clset *s, unsigned c, const uint32_t w[KTPU_CI_WORDS], uint32_t delta,
                         uint32_t tag);
/* Sends w[0 .. n) to cluster c, which has nothing outstanding (n <=
 * NODE_IQ_DEPTH; slots 0 .. n-1, completion tags 0), the bookkeeping made
 * once: a short job's way to its first sweep. Bit i of silent: w[i] is
 * sent SILENT (CI_OP SILENT set in w[i]; never on a STATUS, which would
 * answer anyway: docs/node.md). A SILENT instruction holds its credit
 * until it fails (its CL_DONE, with an error) or the cluster answers a
 * STATUS sent after it, which waited for it; so at most NODE_IQ_DEPTH - 1
 * of them before a STATUS, or none could be sent. */
void ktpu_cl_issue_idle(struct ktpu_clset *s, unsigned c, uint32_t (*w)[KTPU_CI_WORDS], unsigned n, unsigned silent);
static inline void ktpu_cl_issue(struct ktpu_clset *s, unsigned c, const uint32_t w[KTPU_CI_WORDS], uint32_t tag)
{
    ktpu_cl_issue_moved(s, c, w, 0, tag);
}

/* One completion if one arrived: 1 and *d filled (a CL_DONE, which frees
 * its credit, and a STATUS's those of the SILENT instructions before it; or
 * a CL_WRITTEN of this epoch: d->written); 0 nothing; -1 a flit that is no
 * completion of ours (counted in stray, dropped). */
int ktpu_cl_poll(struct ktpu_clset *s, struct ktpu_cl_done *d);

/* The first cluster with instructions outstanding and no completion for
 * limit cycles of mtime, or -1. */
int ktpu_cl_timed_out(const struct ktpu_clset *s, uint32_t limit);

#endif
