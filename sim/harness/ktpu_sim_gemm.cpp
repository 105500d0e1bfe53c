// ktpu-sim's GEMM job around an RTL run (ktpu_sim_gemm.h).
#include "ktpu_sim_gemm.h"

#include <cinttypes>
#include <cstdio>

#include "ktpu_version.h"

namespace ktpu_sim {

GemmRun::GemmRun(const Options &opt) : opt_(opt)
{
    job_.corrupt_row = opt.corrupt_row;
    job_.corrupt_col = opt.corrupt_col;
    job_.port_half = KTPU_SIM_MEM_PORTS > 1 ? KTPU_DRAM_SIM_BYTES / 2 : 0;
    job_.no_split = opt.no_split;
    // a window narrowed around the operands (--mem-window) would leave the
    // scratch region, placed after them, outside it: none is lent then
    job_.no_qjob = opt.no_qjob || opt.win[0] != 0 || opt.win[1] != KTPU_DRAM_SIM_BYTES;
    if (!opt.gemm()) return;
    char err[KTPU_GEMM_ERR_LEN];
    int rc;
    if (opt.gemm_a) {
        rc = ktpu_gemm_job_load(&job_, opt.gemm_a, opt.gemm_b, opt.preq, KTPU_DRAM_SIM_BYTES, err);
    } else {
        ktpu_gemm_dist d;
        if (ktpu_gemm_dist_parse(opt.dist, &d))
            die("--dist: unknown distribution %s (normal, uniform, relu, lowrank, worst)", opt.dist);
        rc = ktpu_gemm_job_plan(&job_, opt.shape[0], opt.shape[1], opt.shape[2], opt.preq,
                                KTPU_DRAM_SIM_BYTES, err);
        if (!rc) rc = ktpu_gemm_job_generate(&job_, d, opt.seed, err);
    }
    if (rc) die("%s", err);
}

uint64_t GemmRun::cycle_limit() const
{
    return kGemmBaseCycles + kGemmCyclesPer512Macs * (((uint64_t)job_.mp * job_.np * job_.kp + 511) / 512);
}

void GemmRun::place(const ktpu_gemm_io &io, unsigned clusters)
{
    io_ = io;
    char err[KTPU_GEMM_ERR_LEN];
    if (ktpu_gemm_job_place(&job_, &io_, (unsigned)opt_.use_clusters, clusters, err)) die("%s", err);
}

void GemmRun::tile(uint32_t arg0, uint32_t arg1) { ktpu_gemm_job_tile(&job_, &io_, arg0, arg1, stderr); }

void GemmRun::progress(char *more, size_t len) const
{
    std::snprintf(more, len, ", %u tiles checked (%u failed)", job_.tiles, job_.tiles_failed);
}

int GemmRun::finish(const ktpu_gemm_traffic &t, int fw_status, double wall, double busy_rate, ktpu_out &out_c,
                    ktpu_out &out_csv)
{
    unsigned latency = (unsigned)opt_.dram_latency;
    std::snprintf(job_.run_info, sizeof job_.run_info,
                  "seed %" PRIu64 ", DRAM latency %u, cycle limit %" PRIu64 ", ktpu-sim %s%s", opt_.seed, latency,
                  opt_.max_cycles, KTPU_VERSION, KTPU_SIM_DP_MODEL ? ", datapath model" : "");
    char err[KTPU_GEMM_ERR_LEN] = "", oerr[KTPU_OUT_ERR_LEN];
    int rc = ktpu_gemm_job_finish(&job_, &io_, &t, stdout, err);
    ktpu_gemm_summary sum;
    ktpu_gemm_job_summary(&job_, &io_, &sum);
    if (rc == 0 && fw_status != 0) {
        std::printf("ktpu-sim: FAIL: the job is done but the firmware exited with status %d\n", fw_status);
        rc = 1;
    }
    if (opt_.csv) {
        // the file as it is now, then this run's row (ktpu_out: copy and replace)
        if (ktpu_out_copy_existing(&out_csv, oerr)) die("%s", oerr);
        std::FILE *f = out_csv.f;
        if (std::ftell(f) == 0)
            std::fprintf(f, "m,k,n,operands,clusters,job_cycles,macs_per_cycle,pct_peak,tiles,result,sim_cycles,agent_rd_beats,agent_wr_beats,host_seconds,sim_cycles_per_s,busy_cycles_per_s,datapath,seed,dram_latency,version\n");
        std::fprintf(f, "%zu,%zu,%zu,%s,%u,%llu,%.2f,%.2f,%u,%s,%llu,%llu,%llu,%.2f,%.0f,%.0f,%s,%" PRIu64 ",%u,%s\n",
                     job_.m, job_.k, job_.n, opt_.preq ? "mx" : "fp16", sum.clusters_used, sum.job_cycles,
                     sum.macs_per_cycle, sum.pct_peak, job_.tiles, rc == 0 ? "pass" : "FAIL", t.sim_cycles,
                     t.agent_rd[0] + t.agent_rd[1], t.agent_wr[0] + t.agent_wr[1], wall,
                     wall > 0 ? (double)t.sim_cycles / wall : 0.0, busy_rate, KTPU_SIM_DP_MODEL ? "model" : "rtl",
                     opt_.seed, latency, KTPU_VERSION);
        if (ktpu_out_commit(&out_csv, oerr)) die("%s", oerr);
    }
    // C is written when every check passed (a NUMERIC job's C is checked too).
    if ((rc == 0 || (rc == 2 && sum.status == KTPU_JOBST_NUMERIC)) && opt_.out_c) {
        char werr[KTPU_GEMM_ERR_LEN];
        if (ktpu_gemm_job_write_c(&job_, &io_, &out_c, werr)) die("%s", werr);
        std::printf("wrote %s (%zu x %zu FP16)\n", opt_.out_c, job_.m, job_.n);
    } else if (opt_.out_c) {
        ktpu_out_abort(&out_c);   // a failed run replaces no C.npy
    }
    std::fflush(stdout);
    if (rc == 2) {
        std::fprintf(stderr, "ktpu-sim: error: %s\n", err);
        return kExitJob;
    }
    if (rc) {
        std::fprintf(stderr, "ktpu-sim: GEMM check FAILED (see above)\n");
        return kExitCheck;
    }
    std::printf("ktpu-sim: GEMM passed: %u tiles checked, 0 failed\n", job_.tiles);
    return 0;
}

}  // namespace ktpu_sim
