// ktpu-sim --iss: the program on the instruction-set model alone, no RTL
// (ktpu_iss.c with the platform of ktpu_iss_platform.c), optionally under gdb.
#include <cinttypes>
#include <cstdio>
#include <unistd.h>

extern "C" {
#include "ktpu_gdb.h"
#include "ktpu_iss.h"
#include "ktpu_iss_platform.h"
}
#include "ktpu_sim_host.h"
#include "ktpu_sim_run.h"

namespace ktpu_sim {
namespace {

struct IssRun {
    ktpu_iss *iss;
    ktpu_iss_platform *plat;
};

IssRun *run_of(void *ctx) { return static_cast<IssRun *>(ctx); }

// One step for gdb: an instruction, a trap or an interrupt.
int gdb_step(void *ctx, int *status)
{
    IssRun *r = run_of(ctx);
    char err[256];
    if (ktpu_iss_step(r->iss, err, sizeof err)) {
        std::fflush(stdout);
        std::fprintf(stderr, "ktpu-sim: error: --iss: %s\n", err);
        return KTPU_GDB_FAILED;
    }
    if (!r->plat->exited) return KTPU_GDB_RAN;
    *status = r->plat->bad_exit_wmask ? kExitHarness : (int)r->plat->exit_status;
    return KTPU_GDB_EXITED;
}

// gdb drives the model until it detaches or the program exits: true if gdb
// killed the run (or the connection closed), status set if that failed.
bool under_gdb(const Options &opt, IssRun &r, int &status)
{
    char err[256];
    int fd = ktpu_gdb_accept((unsigned)opt.gdb_port, err, sizeof err);
    if (fd < 0) die("%s", err);
    ktpu_gdb_target t = {
        &r,
        [](void *c, unsigned i) { return ktpu_iss_reg(run_of(c)->iss, i); },
        [](void *c, unsigned i, uint32_t v) { return ktpu_iss_set_reg(run_of(c)->iss, i, v); },
        [](void *c, uint32_t a, uint8_t *b) { return ktpu_iss_read_byte(run_of(c)->iss, a, b); },
        [](void *c, uint32_t a, uint8_t b) {
            uint8_t old;
            if (ktpu_iss_read_byte(run_of(c)->iss, a, &old)) return -1;
            ktpu_iss_write_byte(run_of(c)->iss, a, b);
            return 0;
        },
        gdb_step,
    };
    int st = 0, detached = 0;
    int rc = ktpu_gdb_serve(fd, &t, opt.max_cycles, &st, &detached);
    close(fd);
    std::fflush(stdout);
    if (rc == KTPU_GDB_FAILED) {
        status = kExitHarness;
        return true;
    }
    if (rc == KTPU_GDB_RAN && !detached) {
        std::fprintf(stderr, "ktpu-sim: gdb: killed, or the connection closed, at pc 0x%08x\n",
                     ktpu_iss_reg(r.iss, 32));
        status = kExitCheck;
        return true;
    }
    return false;   // exited under gdb, or detached: the run goes on (it ends at once if it exited)
}

}  // namespace

int run_iss(const Options &opt)
{
    ktpu_iss *iss = ktpu_iss_new();
    if (!iss) die("%s", "out of memory for the instruction-set model");
    std::FILE *uin = nullptr;
    if (opt.uart_in && !(uin = std::fopen(opt.uart_in, "rb"))) die("cannot open %s", opt.uart_in);
    ktpu_iss_platform plat;
    ktpu_iss_platform_init(&plat, iss, uin, stdout);
    ktpu_iss_standalone(iss, opt.seed, &plat.io);
    uint32_t entry = 0;
    char err[256];
    if (ktpu_iss_load_elf(iss, opt.elf, &entry, err, sizeof err) != 0) {
        std::fprintf(stderr, "ktpu-sim: error: %s: %s\n", opt.elf, err);
        return kExitHarness;
    }
    IssRun r = {iss, &plat};
    int gdb_status = 0;
    if (opt.gdb_port >= 0 && under_gdb(opt, r, gdb_status)) return gdb_status;
    install_signals();
    auto wall0 = std::chrono::steady_clock::now();
    Progress progress(opt.progress_s);
    uint64_t cycles = ktpu_iss_cycles(iss);
    while (cycles < opt.max_cycles && !plat.exited && !g_signal) {
        if (ktpu_iss_step(iss, err, sizeof err)) {
            std::fflush(stdout);
            std::fprintf(stderr, "ktpu-sim: error: --iss: %s\n", err);
            return kExitHarness;
        }
        cycles = ktpu_iss_cycles(iss);
        if (progress.due(cycles)) progress.print(cycles, ktpu_iss_retired(iss), " (--iss)");
    }
    std::fflush(stdout);
    double wall = seconds_since(wall0);
    uint64_t retired = ktpu_iss_retired(iss);
    ktpu_iss_free(iss);
    if (uin) std::fclose(uin);
    if (opt.stats)
        std::fprintf(stderr, "ktpu-sim: --iss: %" PRIu64 " instructions in %.2f s of host time (%.1f M/s)\n",
                     retired, wall, wall > 0 ? retired / wall / 1e6 : 0.0);
    if (g_signal) return stopped(cycles, retired, nullptr);
    if (plat.bad_exit_wmask) return bad_exit(plat.bad_exit_wmask, cycles);
    if (!plat.exited) return timed_out(opt.max_cycles, "");
    return exit_status((int)plat.exit_status);
}

}  // namespace ktpu_sim
