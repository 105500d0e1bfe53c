// The GEMM job around an RTL run (--gemm, --gemm-gen; SPEC §2, §11): the
// operands before the model exists, the job's DRAM image once it does, each
// tile the firmware announces, and the report, CSV row and C at the end.
// The checks themselves are C (ktpu_gemm_job.h); this is their C++ driver.
#ifndef KTPU_SIM_GEMM_H
#define KTPU_SIM_GEMM_H

#include <cstddef>
#include <cstdint>

extern "C" {
#include "ktpu_gemm_job.h"
#include "ktpu_out.h"
}
#include "ktpu_sim_opts.h"

namespace ktpu_sim {

class GemmRun {
public:
    // Operands read or generated, shape and DRAM fit checked (die() on a bad
    // input); nothing at all without --gemm / --gemm-gen.
    explicit GemmRun(const Options &opt);
    ~GemmRun() { ktpu_gemm_job_free(&job_); }
    GemmRun(const GemmRun &) = delete;
    GemmRun &operator=(const GemmRun &) = delete;

    // The cycle limit when none is given: start-up and report, plus
    // kGemmCyclesPer512Macs per 512 MACs of the padded shape.
    uint64_t cycle_limit() const;
    // Operands, canaries and the job block written into DRAM through io.
    void place(const ktpu_gemm_io &io, unsigned clusters);
    // One MBOX CMD_TILE: the announced tile checked against the reference.
    void tile(uint32_t arg0, uint32_t arg1);
    // ", N tiles checked (F failed)" for the progress line.
    void progress(char *more, size_t len) const;
    // The end: checks, report, CSV row (out_csv open) and C (out_c open,
    // written only if the run passed). Returns the process's status.
    // wall: host seconds of the run; busy_rate: cycles a second while a
    // cluster was busy (BusyClock).
    int finish(const ktpu_gemm_traffic &t, int fw_status, double wall, double busy_rate, ktpu_out &out_c,
               ktpu_out &out_csv);

private:
    const Options &opt_;
    ktpu_gemm_job job_{};
    ktpu_gemm_io io_{};
};

}  // namespace ktpu_sim
#endif
