// --lockstep and --gdb on the RTL: the C instruction-set model beside the
// core, fed the core's retirement trace (ktpu_rvfi.c) and compared record by
// record; under --gdb it is also the debugger's view of the core.
#ifndef KTPU_SIM_LOCKSTEP_H
#define KTPU_SIM_LOCKSTEP_H

#include <cstdint>
#include <functional>
#include <vector>

#include "svdpi.h"
extern "C" {
#include "ktpu_iss.h"
}
#include "ktpu_sim_opts.h"

namespace ktpu_sim {

class Lockstep {
public:
    Lockstep() = default;
    Lockstep(const Lockstep &) = delete;
    Lockstep &operator=(const Lockstep &) = delete;
    ~Lockstep() { ktpu_iss_free(iss_); }

    // The model loaded with the ELFs the core runs; its DRAM loads read the
    // DRAM model (DPI scope dram). False, with the message printed, if an
    // ELF does not load.
    bool start(const std::vector<const char *> &progs, svScope dram);
    bool on() const { return iss_ != nullptr; }
    // One record of the core's trace against the model; the first mismatch
    // is printed and ends the checking.
    void check(const ktpu_rvfi *r);
    bool mismatch() const { return mismatch_; }
    // "lockstep: N records checked, 0 mismatches" when none was found.
    void report() const;

    // --gdb: the model is the debugger's view (its registers and memory equal
    // the core's at every retirement, read only); a step runs `cycle` (true
    // when the run ends) to the core's next retirement; `status` is the
    // process's status once the run ended. True if gdb killed the run.
    bool serve_gdb(const Options &opt, const std::function<bool()> &cycle, const uint64_t &cycles,
                   const std::function<int()> &status);

private:
    static uint32_t dram_read(void *ctx, uint32_t off);
    ktpu_iss *iss_ = nullptr;
    svScope dram_ = nullptr;
    bool mismatch_ = false;
    uint64_t checked_ = 0;
};

}  // namespace ktpu_sim
#endif
