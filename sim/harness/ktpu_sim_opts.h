// ktpu-sim's command line: its options with their defaults, the exit
// statuses, and the parser that checks every value (ktpu_sim_opts.cpp).
// ktpu_sim_main.cpp runs what it returns (ktpu_sim_run.h).
#ifndef KTPU_SIM_OPTS_H
#define KTPU_SIM_OPTS_H

#include <cstdint>

#include "ktpu_defs.h"

#ifndef KTPU_SIM_MEM_PORTS
#define KTPU_SIM_MEM_PORTS 1   // memory agents (DRAM ports besides the CPU's); ktpu-sim-4 has 2
#endif
#ifndef KTPU_SIM_DP_MODEL
#define KTPU_SIM_DP_MODEL 0    // 1: the cluster datapath is its functional model (ktpu-sim*-dpm)
#endif

namespace ktpu_sim {

// ~15 min of host time at ~55k cycles/s: CoreMark-sized programs (16M) run
// to the end with the default, and --progress shows a runaway one running
inline constexpr uint64_t kDefaultMaxCycles = 50000000;
// A GEMM's own limit when none is given: start-up and report, plus 8 cycles
// per 512 MACs of the padded shape (8x one cluster's ideal sweep), so a hung
// small job ends in about a minute and a large one is not cut short.
inline constexpr uint64_t kGemmBaseCycles = 4000000, kGemmCyclesPer512Macs = 8;
// always handed to the DRAM model (+ktpu_dram_latency), so the report's figure is the model's
inline constexpr long kDefaultDramLatency = 64;
inline constexpr int kExitTimeout = 124, kExitHarness = 125, kExitLockstep = 126;
inline constexpr int kExitCheck = 1, kExitJob = 2;
inline constexpr uint64_t kMachines[] = {1, 2, 4};   // --clusters: the machines built (ktpu-sim-N)
inline constexpr uint64_t kMaxClusters = 4;

struct Options {
    const char *elf = nullptr, *trace = nullptr, *uart_in = nullptr, *uart_pty = nullptr;
    const char *timeline = nullptr;
    bool boot = false;
    uint64_t max_cycles = kDefaultMaxCycles;
    bool max_cycles_given = false;   // else a GEMM sizes its own (kGemmBaseCycles)
    uint64_t trace_from = 0, trace_to = UINT64_MAX, trace_depth = 99, progress_s = 10;
    uint64_t seed = 1;
    long dram_latency = kDefaultDramLatency;
    long dram_latency1 = 0;                        // --dram-latency1: memory agent 1's ports, 0: as the rest
    uint64_t win[2] = {0, KTPU_DRAM_SIM_BYTES};   // --mem-window
    unsigned hold_pct = 0;                         // --cluster-hold
    long hold_only = -1;                           // --hold-only
    bool lockstep = false, stats = false, version = false, iss = false;
    bool dp_model = false;   // --dp-model (a build with the model runs it whatever this says)
    long gdb_port = -1;   // --gdb PORT
    // GEMM mode
    const char *gemm_a = nullptr, *gemm_b = nullptr, *out_c = nullptr, *firmware = nullptr;
    const char *gen = nullptr, *dist = "normal", *csv = nullptr;
    uint64_t shape[3] = {0, 0, 0};   // --gemm-gen M, K, N
    bool preq = false, no_split = false, no_qjob = false;
    long clusters = -1, use_clusters = 0, corrupt_row = -1, corrupt_col = -1;
    bool gemm() const { return gemm_a || gen; }
};

// One line "ktpu-sim: error: " fmt (with arg) on stderr, exit kExitHarness.
[[noreturn]] void die(const char *fmt, const char *arg);

// argv checked and read (--help printed, exit 0); every conflict refused by die().
Options parse(int argc, char **argv);

}  // namespace ktpu_sim
#endif
