/* Mesh port and cluster driver (see ktpu_mesh.h). */
#include "ktpu_mesh.h"

int ktpu_mesh_poll(uint32_t *hdr, uint32_t w[KTPU_CI_WORDS])
{
    if (!(KTPU_REG(MESH_STATUS) & KTPU_MESH_STATUS_RX_VALID_MASK)) return 0;
    *hdr = KTPU_REG_AT(MESH_RX0, 0);
    for (unsigned i = 0; i < KTPU_CI_WORDS; i++) w[i] = KTPU_REG_AT(MESH_RX0, 1 + i);
    KTPU_REG(MESH_RX_POP) = 1;
    return 1;
}

/* The epoch e (modulo the TXN bits above the slot) and its header bits. */
static void set_epoch(struct ktpu_clset *s, unsigned e)
{
    s->epoch = (uint8_t)(e & (KTPU_FLIT_TXN_MASK >> (KTPU_FLIT_TXN_LSB + KTPU_CL_SLOT_BITS)));
    s->txn_hdr = KTPU_FIELD(FLIT_TXN, (unsigned)s->epoch << KTPU_CL_SLOT_BITS);
    s->done_hdr = s->txn_hdr | KTPU_FIELD(FLIT_TYPE, KTPU_MSG_CL_DONE);
}

int ktpu_clset_discover(struct ktpu_clset *s, unsigned max)
{
    uint32_t mesh = KTPU_REG(SOC_MESH);
    unsigned w = KTPU_FIELD_GET(SOC_MESH_W, mesh), h = KTPU_FIELD_GET(SOC_MESH_H, mesh);
    uint32_t kinds = KTPU_REG(SOC_KINDS0);
    int cpu = 0;
    s->n = 0;
    s->nmem = 0;
    s->stray = 0;
    set_epoch(s, s->epoch);   /* the header bits of whatever epoch the set holds */
    for (unsigned i = 0; i < 256; i++) s->src_cl[i] = 0;
    /* node i at (x, y) = (i mod W, i div W), walked without a division */
    for (unsigned i = 0, x = 0, y = 0; i < w * h && i < 16; i++) {
        if (i == 8) kinds = KTPU_REG(SOC_KINDS1);
        unsigned kind = (kinds >> (4 * (i & 7))) & 15u;
        if (kind == KTPU_NODE_CPU && !cpu) {
            s->cpu_x = (uint8_t)x;
            s->cpu_y = (uint8_t)y;
            cpu = 1;
        } else if (kind == KTPU_NODE_MEM && s->nmem < KTPU_MAX_MEM) {
            s->mem_x[s->nmem] = (uint8_t)x;
            s->mem_y[s->nmem++] = (uint8_t)y;
        } else if (kind == KTPU_NODE_CLUSTER && s->n < max && s->n < KTPU_MAX_CLUSTERS) {
            struct ktpu_cl *c = &s->cl[s->n++];
            c->x = (uint8_t)x;
            c->y = (uint8_t)y;
            c->outstanding = 0;
            c->busy = 0;
            s->src_cl[x << 4 | y] = (uint8_t)s->n;
        }
        if (++x == w) {
            x = 0;
            y++;
        }
    }
    for (unsigned c = 0; c < s->n; c++)
        s->cl[c].hdr = ktpu_flit_pack(s->cl[c].x, s->cl[c].y, s->cpu_x, s->cpu_y, KTPU_MSG_CL_INSTR, 0, 1);
    return cpu ? (int)s->n : -1;
}

void ktpu_clset_new_epoch(struct ktpu_clset *s) { set_epoch(s, s->epoch + 1u); }

/* the lowest free slot of a 4-bit busy mask */
static const uint8_t first_free[16] = {0, 1, 0, 2, 0, 1, 0, 3, 0, 1, 0, 2, 0, 1, 0, 0};

void ktpu_cl_issue_moved(struct ktpu_clset *s, unsigned c, const uint32_t w[KTPU_CI_WORDS], uint32_t delta,
                         uint32_t tag)
{
    struct ktpu_cl *cl = &s->cl[c];
    unsigned busy = cl->busy, k = first_free[busy & 15u];
    uint32_t hdr = cl->hdr | s->txn_hdr | k << KTPU_FLIT_TXN_LSB;
    cl->busy = (uint8_t)(busy | 1u << k);
    /* the SILENT slots outstanding in the record's high bits: a STATUS's
     * answer completes them (kept for every op: no test on this path) */
    cl->op[k] = (uint8_t)(KTPU_FIELD_GET(CI_OP_CODE, w[KTPU_CI_OP_WORD]) | (busy & 0xF0u));
    cl->tag[k] = tag;
    if (!cl->outstanding++) cl->since = ktpu_mtime();
    ktpu_mesh_send_moved(hdr, w, delta);
}

void ktpu_cl_issue_idle(struct ktpu_clset *s, unsigned c, uint32_t (*w)[KTPU_CI_WORDS], unsigned n, unsigned silent)
{
    struct ktpu_cl *cl = &s->cl[c];
    uint32_t hdr = cl->hdr | s->txn_hdr;
    cl->since = ktpu_mtime();
    for (unsigned k = 0; k < n; k++) {
        uint32_t w0 = w[k][KTPU_CI_OP_WORD] | (silent >> k & 1u) << KTPU_CI_OP_SILENT_LSB;
        w[k][KTPU_CI_OP_WORD] = w0;
        /* as ktpu_cl_issue_moved records it: the SILENT slots before it */
        cl->op[k] = (uint8_t)(KTPU_FIELD_GET(CI_OP_CODE, w0) | (silent & ((1u << k) - 1u)) << 4);
        cl->tag[k] = 0;
        ktpu_mesh_send_moved(hdr | k << KTPU_FLIT_TXN_LSB, w[k], 0);
    }
    cl->busy = (uint8_t)(((1u << n) - 1u) | silent << 4);
    cl->outstanding = (uint8_t)n;
}

/* SILENT slots sil of cluster cl are done: no STATUS still outstanding
 * answers for them (each STATUS record holds the SILENT slots sent before
 * it). Needed only while another STATUS is outstanding, or when a SILENT
 * instruction fails; inlined all the same: a call would make ktpu_cl_poll,
 * a leaf on the completion path, save and restore registers on every call
 * (64x128x64: about 100 cycles a job). */
static inline __attribute__((always_inline)) void silent_forget(struct ktpu_cl *cl, unsigned sil)
{
    for (unsigned j = 0; j < KTPU_NODE_IQ_DEPTH; j++) cl->op[j] &= (uint8_t)~(sil << 4);
}

int ktpu_cl_poll(struct ktpu_clset *s, struct ktpu_cl_done *d)
{
    if (!(KTPU_REG(MESH_STATUS) & KTPU_MESH_STATUS_RX_VALID_MASK)) return 0;
    uint32_t hdr = KTPU_REG_AT(MESH_RX0, 0);
    unsigned c = s->src_cl[(hdr >> KTPU_FLIT_SRC_Y_LSB) & 255u];
    unsigned k = (hdr >> KTPU_FLIT_TXN_LSB) & (KTPU_NODE_IQ_DEPTH - 1u);
    struct ktpu_cl *cl = &s->cl[c - 1u];   /* used only when c != 0 */
    /* a CL_DONE of this epoch: type and the TXN bits above the slot */
    const uint32_t epoch_type = KTPU_FLIT_TYPE_MASK | (KTPU_FLIT_TXN_MASK & ~((uint32_t)(KTPU_NODE_IQ_DEPTH - 1u) << KTPU_FLIT_TXN_LSB));
    unsigned op, written = 0;
    if (!c || (hdr & epoch_type) != s->done_hdr || !(cl->busy & (1u << k))) {
        /* a GEMM's tile written: its slot may be in use again, no credit */
        if (c && (hdr & epoch_type) == (s->txn_hdr | KTPU_FIELD(FLIT_TYPE, KTPU_MSG_CL_WRITTEN))) {
            written = 1;
            op = KTPU_CLOP_GEMM;
            d->tag = 0;
        } else {
            KTPU_REG(MESH_RX_POP) = 1;
            s->stray++;
            return -1;
        }
    } else {
        unsigned rec = cl->op[k], busy = cl->busy & ~(1u << k);
        op = rec & 15u;
        cl->outstanding--;
        if (busy >> 4) {   /* SILENT ones outstanding: one test on the common path */
            static const uint8_t ones[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
            /* done: slot k itself (a SILENT one answers only when it
             * fails), and the SILENT ones sent before a STATUS */
            unsigned sil = (busy >> 4) & ((op == KTPU_CLOP_STATUS ? rec >> 4 : 0u) | 1u << k);
            unsigned others = sil & ~(1u << k);
            busy &= ~(sil << 4 | others);
            cl->outstanding = (uint8_t)(cl->outstanding - ones[others]);
            if (sil != others || cl->outstanding) silent_forget(cl, sil);
        }
        cl->busy = (uint8_t)busy;
        cl->since = ktpu_mtime();
        d->tag = cl->tag[k];
    }
    uint32_t w0 = KTPU_REG_AT(MESH_RX0, 1 + KTPU_CD_STATUS_WORD);
    d->cluster = c - 1u;
    d->op = op;
    d->written = written;
    d->w[KTPU_CD_STATUS_WORD] = w0;
    d->code = ktpu_cd_code(w0);
    d->memst = ktpu_cd_memst(w0);
    d->addr = 0;
    if (op == KTPU_CLOP_STATUS) {
        /* the counters; written out, as the send is, and every word loaded
         * before the first store (d might alias the registers as far as
         * the compiler knows: ktpu_mesh_send_moved) */
        uint32_t w1 = KTPU_REG_AT(MESH_RX0, 2), w2 = KTPU_REG_AT(MESH_RX0, 3), w3 = KTPU_REG_AT(MESH_RX0, 4),
                 w4 = KTPU_REG_AT(MESH_RX0, 5), w5 = KTPU_REG_AT(MESH_RX0, 6), w6 = KTPU_REG_AT(MESH_RX0, 7),
                 w7 = KTPU_REG_AT(MESH_RX0, 8);
        d->w[1] = w1;
        d->w[2] = w2;
        d->w[3] = w3;
        d->w[4] = w4;
        d->w[5] = w5;
        d->w[6] = w6;
        d->w[7] = w7;
    }
    if (d->code == KTPU_CLERR_MEM) d->addr = d->w[KTPU_CD_ADDR_WORD] = KTPU_REG_AT(MESH_RX0, 1 + KTPU_CD_ADDR_WORD);
    KTPU_REG(MESH_RX_POP) = 1;
    return 1;
}

int ktpu_cl_timed_out(const struct ktpu_clset *s, uint32_t limit)
{
    uint32_t now = ktpu_mtime();
    for (unsigned c = 0; c < s->n; c++)
        if (s->cl[c].outstanding && now - s->cl[c].since > limit) return (int)c;
    return -1;
}
