/* Mesh port and cluster driver (see ktpu_mesh.h). */
#include "ktpu_mesh.h"

void ktpu_mesh_send(uint32_t hdr, const uint32_t w[KTPU_CI_WORDS])
{
    KTPU_REG_AT(MESH_TX0, 0) = hdr;
    for (unsigned i = 0; i < KTPU_CI_WORDS; i++) KTPU_REG_AT(MESH_TX0, 1 + i) = w[i];
    KTPU_REG(MESH_TX_SEND) = 1;
}

int ktpu_mesh_poll(uint32_t *hdr, uint32_t w[KTPU_CI_WORDS])
{
    if (!(KTPU_REG(MESH_STATUS) & KTPU_MESH_STATUS_RX_VALID_MASK)) return 0;
    *hdr = KTPU_REG_AT(MESH_RX0, 0);
    for (unsigned i = 0; i < KTPU_CI_WORDS; i++) w[i] = KTPU_REG_AT(MESH_RX0, 1 + i);
    KTPU_REG(MESH_RX_POP) = 1;
    return 1;
}

int ktpu_clset_discover(struct ktpu_clset *s, unsigned max)
{
    uint32_t mesh = KTPU_REG(SOC_MESH);
    unsigned w = KTPU_FIELD_GET(SOC_MESH_W, mesh), h = KTPU_FIELD_GET(SOC_MESH_H, mesh);
    uint32_t kinds[2] = {KTPU_REG(SOC_KINDS0), KTPU_REG(SOC_KINDS1)};
    int cpu = 0;
    s->n = 0;
    s->next_txn = 0;
    s->stray = 0;
    for (unsigned i = 0; i < w * h && i < 16; i++) {
        unsigned kind = (kinds[i / 8] >> (4 * (i % 8))) & 15u;
        if (kind == KTPU_NODE_CPU && !cpu) {
            s->cpu_x = (uint8_t)(i % w);
            s->cpu_y = (uint8_t)(i / w);
            cpu = 1;
        } else if (kind == KTPU_NODE_CLUSTER && s->n < max && s->n < KTPU_MAX_CLUSTERS) {
            struct ktpu_cl *c = &s->cl[s->n++];
            c->x = (uint8_t)(i % w);
            c->y = (uint8_t)(i / w);
            c->outstanding = 0;
            for (unsigned k = 0; k < KTPU_NODE_IQ_DEPTH; k++) c->slot[k].busy = 0;
        }
    }
    return cpu ? (int)s->n : -1;
}

void ktpu_cl_issue(struct ktpu_clset *s, unsigned c, const uint32_t w[KTPU_CI_WORDS], uint32_t tag)
{
    struct ktpu_cl *cl = &s->cl[c];
    unsigned k, txn;
    /* a txn none of this cluster's outstanding instructions holds */
    for (;;) {
        txn = s->next_txn++;
        for (k = 0; k < KTPU_NODE_IQ_DEPTH; k++)
            if (cl->slot[k].busy && cl->slot[k].txn == txn) break;
        if (k == KTPU_NODE_IQ_DEPTH) break;
    }
    for (k = 0; cl->slot[k].busy; k++)
        ;
    cl->slot[k].busy = 1;
    cl->slot[k].txn = (uint8_t)txn;
    cl->slot[k].op = (uint8_t)KTPU_FIELD_GET(CI_OP_CODE, w[KTPU_CI_OP_WORD]);
    cl->slot[k].tag = tag;
    if (!cl->outstanding) cl->since = ktpu_mtime();
    cl->outstanding++;
    ktpu_mesh_send(ktpu_mesh_hdr(cl->x, cl->y, s->cpu_x, s->cpu_y, KTPU_MSG_CL_INSTR, txn, 1), w);
}

int ktpu_cl_poll(struct ktpu_clset *s, struct ktpu_cl_done *d)
{
    uint32_t hdr;
    if (!ktpu_mesh_poll(&hdr, d->w)) return 0;
    unsigned sx = KTPU_FIELD_GET(FLIT_SRC_X, hdr), sy = KTPU_FIELD_GET(FLIT_SRC_Y, hdr);
    unsigned txn = KTPU_FIELD_GET(FLIT_TXN, hdr);
    if (KTPU_FIELD_GET(FLIT_TYPE, hdr) != KTPU_MSG_CL_DONE) {
        s->stray++;
        return -1;
    }
    for (unsigned c = 0; c < s->n; c++) {
        struct ktpu_cl *cl = &s->cl[c];
        if (cl->x != sx || cl->y != sy) continue;
        for (unsigned k = 0; k < KTPU_NODE_IQ_DEPTH; k++) {
            if (!cl->slot[k].busy || cl->slot[k].txn != txn) continue;
            cl->slot[k].busy = 0;
            cl->outstanding--;
            cl->since = ktpu_mtime();
            d->cluster = c;
            d->op = cl->slot[k].op;
            d->tag = cl->slot[k].tag;
            d->code = ktpu_cd_code(d->w[KTPU_CD_STATUS_WORD]);
            d->memst = ktpu_cd_memst(d->w[KTPU_CD_STATUS_WORD]);
            d->addr = d->w[KTPU_CD_ADDR_WORD];
            return 1;
        }
    }
    s->stray++;
    return -1;
}

int ktpu_cl_timed_out(const struct ktpu_clset *s, uint32_t limit)
{
    uint32_t now = ktpu_mtime();
    for (unsigned c = 0; c < s->n; c++)
        if (s->cl[c].outstanding && now - s->cl[c].since > limit) return (int)c;
    return -1;
}
