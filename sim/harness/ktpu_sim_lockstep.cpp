// --lockstep and --gdb on the RTL (ktpu_sim_lockstep.h).
#include "ktpu_sim_lockstep.h"

#include <cinttypes>
#include <cstdio>
#include <unistd.h>

#include "Vktpu_sim_top__Dpi.h"
extern "C" {
#include "ktpu_gdb.h"
}
#include "ktpu_sim_host.h"

namespace ktpu_sim {

bool Lockstep::start(const std::vector<const char *> &progs, svScope dram)
{
    if (!(iss_ = ktpu_iss_new())) die("%s", "out of memory for the lockstep model");
    dram_ = dram;
    uint32_t entry;
    char err[256];
    for (const char *p : progs)
        if (ktpu_iss_load_elf(iss_, p, &entry, err, sizeof err) != 0) {
            std::fprintf(stderr, "ktpu-sim: error: %s: %s\n", p, err);
            return false;
        }
    ktpu_iss_set_dram(iss_, dram_read, this);
    return true;
}

// The call comes from inside the core's retirement import: the DRAM model's
// DPI scope is set for it.
uint32_t Lockstep::dram_read(void *ctx, uint32_t off)
{
    svSetScope(static_cast<Lockstep *>(ctx)->dram_);
    return ktpu_dram_bd_read32(off);
}

void Lockstep::check(const ktpu_rvfi *r)
{
    if (mismatch_) return;
    char msg[256];
    checked_++;
    if (ktpu_iss_check(iss_, r, msg, sizeof msg) != 0) {
        std::fprintf(stderr, "ktpu-sim: lockstep mismatch at record %" PRIu64 ": %s\n", checked_, msg);
        mismatch_ = true;
    }
}

void Lockstep::report() const
{
    if (!mismatch_)
        std::fprintf(stderr, "ktpu-sim: lockstep: %" PRIu64 " records checked, 0 mismatches\n", checked_);
}

bool Lockstep::serve_gdb(const Options &opt, const std::function<bool()> &cycle, const uint64_t &cycles,
                         const std::function<int()> &status)
{
    char err[256];
    int fd = ktpu_gdb_accept((unsigned)opt.gdb_port, err, sizeof err);
    if (fd < 0) die("%s", err);
    struct Ctx {
        Lockstep *ls;
        const std::function<bool()> *cycle;
        const uint64_t *cycles;
        uint64_t max_cycles;
        const std::function<int()> *status;
    } c = {this, &cycle, &cycles, opt.max_cycles, &status};
    ktpu_gdb_target t = {
        &c,
        [](void *p, unsigned i) { return ktpu_iss_reg(static_cast<Ctx *>(p)->ls->iss_, i); },
        [](void *, unsigned, uint32_t) { return -1; },   // the core's registers are not the harness's to write
        [](void *p, uint32_t a, uint8_t *b) { return ktpu_iss_read_byte(static_cast<Ctx *>(p)->ls->iss_, a, b); },
        [](void *, uint32_t, uint8_t) { return -1; },
        [](void *p, int *st) {
            Ctx *x = static_cast<Ctx *>(p);
            for (uint64_t before = x->ls->checked_; *x->cycles < x->max_cycles && !g_signal;) {
                bool end = (*x->cycle)();   // counts the cycle
                if (x->ls->mismatch_) return (int)KTPU_GDB_FAILED;
                if (end) {
                    *st = (*x->status)();
                    return (int)KTPU_GDB_EXITED;
                }
                if (x->ls->checked_ != before) return (int)KTPU_GDB_RAN;
            }
            return (int)KTPU_GDB_FAILED;   // the cycle limit or a signal: reported after the run
        },
    };
    int st = 0, detached = 0;
    int r = ktpu_gdb_serve(fd, &t, UINT64_MAX, &st, &detached);
    close(fd);
    if (r == KTPU_GDB_RAN && !detached) {
        std::fflush(stdout);
        std::fprintf(stderr, "ktpu-sim: gdb: killed, or the connection closed, at pc 0x%08x\n", ktpu_iss_reg(iss_, 32));
        return true;
    }
    return false;
}

}  // namespace ktpu_sim
