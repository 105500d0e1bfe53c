/* Quantise-on-upload's MEM_QJOBs (see ktpu_upload.h). */
#include "ktpu_upload.h"

#include <stdio.h>

#include "ktpu_ci.h"

/* One MEM_QJOB to agent a: rows x K of FP16 at src (row stride ld) into
 * MXFP7 storage at dst (rows of K bytes, the plan's copies' stride). */
static void qjob(const struct ktpu_plan *p, const struct ktpu_clset *cs, unsigned a, uint32_t src, uint32_t ld,
                 uint32_t dst, unsigned rows)
{
    uint32_t w[KTPU_CI_WORDS];
    w[KTPU_QJ_SRC_WORD] = src;
    w[KTPU_QJ_SSTRIDE_WORD] = ld;
    w[KTPU_QJ_DST_WORD] = dst;
    w[KTPU_QJ_DSTRIDE_WORD] = p->cfg.k;
    w[KTPU_QJ_SHAPE_WORD] = KTPU_FIELD(QJ_SHAPE_ROWS, rows) | KTPU_FIELD(QJ_SHAPE_BLOCKS, p->nkb);
    w[5] = w[6] = w[7] = 0;
    ktpu_mesh_send(ktpu_flit_pack(cs->mem_x[a], cs->mem_y[a], cs->cpu_x, cs->cpu_y, KTPU_MSG_MEM_QJOB, 0, 1) |
                       cs->txn_hdr,
                   w);
}

/* Every job of p: per operand, per agent a half of its rows (all of them
 * with one agent), in jobs of at most 32,768 rows (QJ_SHAPE ROWS is 16
 * bits). Returns the number sent. */
static unsigned send_jobs(const struct ktpu_plan *p, const struct ktpu_clset *cs)
{
    const struct ktpu_plan_cfg *cfg = &p->cfg;
    unsigned nmem = cs->nmem, jobs = 0;
    for (unsigned side = 0; side < 2; side++) {
        unsigned rows = side ? cfg->n : cfg->m;
        uint32_t src = side ? p->src_b : p->src_a, ld = side ? p->src_ldb : p->src_lda, dst = side ? cfg->b : cfg->a;
        for (unsigned a = 0; a < nmem; a++) {
            unsigned r = nmem == 1 || !a ? 0 : rows >> 1, r1 = nmem == 1 || a ? rows : rows >> 1;
            for (unsigned n; r < r1; r += n, jobs++) {
                n = r1 - r < 0x8000u ? r1 - r : 0x8000u;
                qjob(p, cs, a, src + r * ld, ld, dst + r * cfg->k, n);
            }
        }
    }
    return jobs;
}

void ktpu_upload(const struct ktpu_plan *p, struct ktpu_clset *cs, uint32_t limit, struct ktpu_upload *u)
{
    uint32_t t = ktpu_read_mcycle(), t_ans = ktpu_mtime();
    /* an agent answers when its whole job is done: 3 port beats per block */
    uint64_t lim64 = limit + 4ull * (p->cfg.m + p->cfg.n) * p->nkb;
    uint32_t lim = lim64 < 0xF0000000u ? (uint32_t)lim64 : 0xF0000000u;
    u->jobst = KTPU_JOBST_DONE;
    u->code = 0;
    u->addr = 0;
    u->nonfinite = 0;
    unsigned jobs = send_jobs(p, cs);
    /* after a refusal the other answers are still awaited: none is left
     * over for the next job */
    for (unsigned acked = 0; acked < jobs;) {
        uint32_t hdr, w[KTPU_CI_WORDS];
        if (!ktpu_mesh_poll(&hdr, w)) {
            if (ktpu_mtime() - t_ans < lim) continue;
            u->jobst = KTPU_JOBST_TIMEOUT;
            u->code = 0;
            u->addr = 0;
            printf("gemm: TIMEOUT: quantise-on-upload: %u of %u MEM_QJOBs unanswered for %lu cycles\n",
                   jobs - acked, jobs, (unsigned long)lim);
            break;
        }
        uint32_t st = w[KTPU_ACK_STATUS_WORD], addr = w[KTPU_ACK_ADDR_WORD], n = w[KTPU_ACK_COUNT_WORD];
        if (KTPU_FIELD_GET(FLIT_TYPE, hdr) != KTPU_MSG_MEM_ACK || (hdr & KTPU_FLIT_TXN_MASK) != cs->txn_hdr ||
            KTPU_FIELD_GET(ACK_STATUS_OP, st) != KTPU_MSG_MEM_QJOB) {
            cs->stray++;   /* an earlier job's (a cluster that timed out answering late) */
            continue;
        }
        acked++;
        t_ans = ktpu_mtime();
        unsigned code = KTPU_FIELD_GET(ACK_STATUS_CODE, st);
        if (code == KTPU_MEMST_NONFINITE) {
            if (!u->nonfinite && u->jobst == KTPU_JOBST_DONE) u->addr = addr;
            u->nonfinite += n;
            printf("gemm: quantise-on-upload: %lu operand block(s) hold Inf/NaN (MEMST_NONFINITE), one at 0x%08lx:"
                   " quantised to zero\n", (unsigned long)n, (unsigned long)addr);
        } else if (code != KTPU_MEMST_OK && u->jobst == KTPU_JOBST_DONE) {
            u->jobst = KTPU_JOBST_HWERR;
            u->code = code;
            u->addr = addr;
            printf("gemm: HWERR: quantise-on-upload: agent (%lu,%lu) refused a MEM_QJOB: %s (%s) at 0x%08lx\n",
                   (unsigned long)KTPU_FIELD_GET(FLIT_SRC_X, hdr), (unsigned long)KTPU_FIELD_GET(FLIT_SRC_Y, hdr),
                   ktpu_memst_name(code), ktpu_memst_doc(code), (unsigned long)addr);
        }
    }
    u->cycles = ktpu_read_mcycle() - t;
}
