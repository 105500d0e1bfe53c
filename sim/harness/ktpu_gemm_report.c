/* ktpu_gemm_report.c -- the GEMM report (SPEC §11) and the bench summary of
 * a finished job (ktpu_gemm_job.h): what the checks found, cycles and % of
 * peak, each cluster's counters, DRAM beats, the numeric flags, the error
 * against FP64 and the exact product, and a failed job named. The names come
 * from data/ktpu.def's generated lists (firmware/lib/ktpu_ci.c). */
#include "ktpu_ci.h"
#include "ktpu_err.h"
#include "ktpu_gemm_priv.h"

void ktpu_gemm_job_summary(const struct ktpu_gemm_job *j, const struct ktpu_gemm_io *io,
                           struct ktpu_gemm_summary *s)
{
    unsigned use = job_read(io, KTPU_JOB_CLUSTERS_WORD);
    s->status = job_read(io, KTPU_JOB_STATUS_WORD);
    s->clusters_used = use ? use : j->clusters_present;
    s->job_cycles = job_read(io, KTPU_JOB_CYCLES_WORD);
    s->macs = (unsigned long long)j->m * j->n * j->k;
    s->macs_per_cycle = s->job_cycles ? (double)s->macs / (double)s->job_cycles : 0.0;
    s->pct_peak = 100.0 * s->macs_per_cycle / (512.0 * s->clusters_used);
}

/* The first five clusters' counters (the job block holds 8 words each). */
static void report_clusters(const struct ktpu_gemm_io *io, unsigned clusters, FILE *out)
{
    char fb[96];
    for (unsigned c = 0; c < clusters && c < 5; c++) {
        unsigned b = KTPU_JOB_CL_WORD + 8u * c;
        fprintf(out, "cluster %u: fill %u, sweep %u, drain %u, idle %u cycles; starved %u, "
                     "back-pressured %u; flags %s\n",
                c, job_read(io, b + KTPU_CD_FILL_WORD), job_read(io, b + KTPU_CD_SWEEP_WORD),
                job_read(io, b + KTPU_CD_DRAIN_WORD), job_read(io, b + KTPU_CD_IDLE_WORD),
                job_read(io, b + KTPU_CD_STARVED_WORD), job_read(io, b + KTPU_CD_BP_WORD),
                ktpu_flag_names(job_read(io, b + KTPU_CD_FLAGS_WORD) & KTPU_CD_FLAGS_NUM_MASK, fb,
                                sizeof fb));
    }
}

static void report_traffic(const struct ktpu_gemm_traffic *t, FILE *out)
{
    if (t->mem_ports > 1)
        fprintf(out, "DRAM beats: memory agent 0's port %llu read, %llu written; agent 1's port "
                     "%llu read, %llu written; CPU window %llu read, %llu written\n",
                t->agent_rd[0], t->agent_wr[0], t->agent_rd[1], t->agent_wr[1], t->cpu_rd,
                t->cpu_wr);
    else
        fprintf(out, "DRAM beats: memory agent port %llu read, %llu written; CPU window %llu "
                     "read, %llu written\n", t->agent_rd[0], t->agent_wr[0], t->cpu_rd, t->cpu_wr);
    if (t->win_err || t->bad_req)
        fprintf(out, "memory agent: %u window refusals, %u bad requests\n", t->win_err,
                t->bad_req);
}

void ktpu_gemm_report(const struct ktpu_gemm_job *j, const struct ktpu_gemm_io *io,
                      const struct ktpu_gemm_traffic *t, const struct ktpu_gemm_checks *c,
                      FILE *out)
{
    size_t mp = j->mp, np = j->np;
    char fb[96], fb2[96];
    struct ktpu_gemm_summary s;
    ktpu_gemm_job_summary(j, io, &s);
    fprintf(out, "---- GEMM report ----\n");
    if (j->run_info[0]) fprintf(out, "run: %s\n", j->run_info);
    fprintf(out, "shape: M x K x N = %zu x %zu x %zu", j->m, j->k, j->n);
    if (mp != j->m || np != j->n || j->kp != j->k)
        fprintf(out, " (padded to %zu x %zu x %zu)", mp, j->kp, np);
    fprintf(out, ", operands %s, %u of %u clusters\n",
            j->preq ? "pre-quantised MXFP7" : "FP16 (quantised on the way)", s.clusters_used,
            j->clusters_present);
    fprintf(out, "tiles: %u checked, %u failed (%llu elements differ); C coverage %llu of %zu; "
                 "canaries %s; operands %s\n",
            j->tiles, j->tiles_failed, j->elems_failed, (unsigned long long)(mp * np - c->uncovered),
            mp * np, c->canary_hits ? "OVERWRITTEN" : "intact", c->op_hits ? "CHANGED" : "unchanged");
    if (j->split > 1)
        fprintf(out, "split-K: K in %u parts per tile, checked against the reference adding them in "
                     "the plan's order (ktpu-ref gemm --split-k %u)\n", j->split, j->split);
    unsigned up = job_read(io, KTPU_JOB_UPLOAD_CYCLES_WORD);
    if (up)
        fprintf(out, "quantise-on-upload: A and BT quantised once into the scratch region at 0x%x "
                     "(MEM_QJOB), %u cycles before the first FILL; the tiles read the copies\n",
                (unsigned)j->scratch, up);
    else if (j->scratch_bytes && s.status == KTPU_JOBST_DONE)
        fprintf(out, "quantise-on-upload: not taken (the cost model: the operands read online)\n");
    fprintf(out, "cycles: %llu in the job (firmware mcycle), %llu simulated in all\n",
            s.job_cycles, t->sim_cycles);
    fprintf(out, "MACs/cycle: %.2f of a peak of %u (512 x %u clusters): %.2f%% of peak\n",
            s.macs_per_cycle, 512u * s.clusters_used, s.clusters_used, s.pct_peak);
    report_clusters(io, s.clusters_used, out);
    report_traffic(t, out);
    fprintf(out, "numeric flags: %s (reference %s)\n", ktpu_flag_names(c->flags_out, fb, sizeof fb),
            ktpu_flag_names(j->ref_flags, fb2, sizeof fb2));
    if (c->finished && !c->bad) {
        /* error of the machine's C (what was checked equal to the reference) */
        if (ktpu_err_report(out, j->m, j->n, j->kp, j->a, j->kp, j->bt, j->kp, j->qa, j->sa, j->qb,
                            j->sb, j->cref, np, 0))
            fprintf(out, "error report: out of memory\n");
    }
    fprintf(out, "job status: %s\n", ktpu_jobst_name(s.status));
}

void ktpu_gemm_status_error(const struct ktpu_gemm_io *io, unsigned status, unsigned flags_out,
                            char err[KTPU_GEMM_ERR_LEN])
{
    char fb[96];
    unsigned detail = job_read(io, KTPU_JOB_DETAIL_WORD);
    unsigned code = detail & KTPU_JOB_DETAIL_CODE_MASK;
    unsigned cl = (detail & KTPU_JOB_DETAIL_CLUSTER_MASK) >> KTPU_JOB_DETAIL_CLUSTER_LSB;
    unsigned op = (detail & KTPU_JOB_DETAIL_OP_MASK) >> KTPU_JOB_DETAIL_OP_LSB;
    switch (status) {
    case KTPU_JOBST_NUMERIC:
        fail(err, "the job finished with numeric flags set: %s (C is written and checked)",
             ktpu_flag_names(flags_out, fb, sizeof fb));
        break;
    case KTPU_JOBST_HWERR:
        fail(err, "the job failed: JOBST_HWERR: cluster %u answered %s with %s (code %u), address 0x%x",
             cl, ktpu_clop_name(op), ktpu_clerr_name(code), code, (unsigned)job_read(io, KTPU_JOB_ADDR_WORD));
        break;
    case KTPU_JOBST_TIMEOUT:
        fail(err, "the job failed: JOBST_TIMEOUT: cluster %u did not answer in time", cl);
        break;
    case KTPU_JOBST_BADJOB:
        fail(err, "the job failed: JOBST_BADJOB: the firmware refused the job block");
        break;
    case KTPU_JOBST_PENDING:
        fail(err, "the job never finished: its status is still JOBST_PENDING");
        break;
    default:
        fail(err, "the job ended with unknown status %u", status);
        break;
    }
}
