/* ktpu_gemm_priv.h -- what the GEMM job's three files share (operands,
 * DRAM and checks, report): the message helper, the canary, and the DRAM
 * backdoor's 16-bit and job-block reads. Not part of ktpu_gemm_job.h. */
#ifndef KTPU_GEMM_PRIV_H
#define KTPU_GEMM_PRIV_H

#include <stdarg.h>
#include <stdio.h>

#include "ktpu_defs.h"
#include "ktpu_gemm_job.h"

/* C canary: an FP16 NaN, which the machine never writes (R16 saturates). */
#define CANARY16 0x7E57u
#define CANARY32 0x7E577E57u
#define GUARD_BYTES 256u

/* The message into err (KTPU_GEMM_ERR_LEN bytes); returns -1. */
static inline int fail(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, KTPU_GEMM_ERR_LEN, fmt, ap);
    va_end(ap);
    return -1;
}

static inline uint16_t rd16(const struct ktpu_gemm_io *io, uint32_t off)
{
    uint32_t w = io->read32(io->ctx, off & ~3u);
    return (uint16_t)(w >> (8 * (off & 2u)));
}

static inline uint32_t job_read(const struct ktpu_gemm_io *io, unsigned word)
{
    return io->read32(io->ctx, KTPU_JOB_OFFSET + 4u * word);
}

/* What the end-of-run checks found (ktpu_gemm_job_finish), for the report. */
struct ktpu_gemm_checks {
    int finished;                    /* the job says DONE or NUMERIC */
    int bad;                         /* some check failed */
    unsigned long long uncovered;    /* C elements never announced */
    unsigned long long canary_hits;  /* canaries around C overwritten */
    unsigned long long op_hits;      /* operand words changed */
    unsigned flags_out;              /* the job's numeric flags */
};

/* The report (SPEC §11) to out. */
void ktpu_gemm_report(const struct ktpu_gemm_job *j, const struct ktpu_gemm_io *io,
                      const struct ktpu_gemm_traffic *t, const struct ktpu_gemm_checks *c,
                      FILE *out);
/* A job that did not end DONE, named with its detail word into err. */
void ktpu_gemm_status_error(const struct ktpu_gemm_io *io, unsigned status, unsigned flags_out,
                            char err[KTPU_GEMM_ERR_LEN]);

#endif
