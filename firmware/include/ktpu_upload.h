/* Quantise-on-upload (docs/gemm.md): a plan's FP16 operands quantised once
 * into their MXFP7 copies in the job's scratch region by the memory agents
 * (MEM_QJOB, docs/mem.md), before the plan's first FILL reads them. */
#ifndef KTPU_FW_UPLOAD_H
#define KTPU_FW_UPLOAD_H

#include <stdint.h>

#include "ktpu_mesh.h"
#include "ktpu_plan.h"

/* JOB_DETAIL CLUSTER of a job the upload stopped: no cluster's */
#define KTPU_UPLOAD_DETAIL_CLUSTER 255u

struct ktpu_upload {
    unsigned jobst;        /* KTPU_JOBST_DONE, HWERR (an agent refused a job) or TIMEOUT */
    unsigned code;         /* HWERR: the refusal's MEMST_* */
    uint32_t addr;         /* HWERR: the refused address; else, with nonfinite, a non-finite block's
                              source address (the first the service was told of) */
    uint32_t nonfinite;    /* blocks found Inf/NaN (quantised to zeros, MEMST_NONFINITE) */
    uint32_t cycles;       /* mcycle from the first MEM_QJOB to the last answer */
};

/* Sends p's MEM_QJOBs (p->upload set: A's rows into p->cfg.a, BT's into
 * p->cfg.b, from p->src_*), each agent of cs a share of every operand's
 * rows, and waits for every answer: an agent answers a job once its blocks
 * are written, so a later read through either agent sees them. Nothing
 * else may be outstanding on cs (any other flit is counted in cs->stray).
 * Names every non-finite block report and any refusal or time-out on the
 * UART; limit is the run's time-out, in MTIME cycles without an answer. */
void ktpu_upload(const struct ktpu_plan *p, struct ktpu_clset *cs, uint32_t limit, struct ktpu_upload *u);

#endif
