// build/ktpu-sim: the SoC co-simulator (SPEC §2, fixed contract; §11).
// Thin on purpose: option parsing, ELF placement, the clock loop, UART and
// mailbox plumbing, and the lockstep hook. The ELF loader and the
// instruction-set model are C (ktpu_elf.c, ktpu_iss.c).
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <memory>
#include <poll.h>
#include <csignal>
#include <string>
#include <unistd.h>
#include <vector>

#include "Vktpu_sim_top.h"
#include "Vktpu_sim_top__Dpi.h"
#include "svdpi.h"
#include "verilated.h"
#include "verilated_fst_c.h"

extern "C" {
#include "ktpu_arg.h"
#include "ktpu_defs.h"
#include "ktpu_elf.h"
#include "ktpu_gdb.h"
#include "ktpu_gemm_job.h"
#include "ktpu_iss.h"
#include "ktpu_iss_platform.h"
#include "ktpu_out.h"
#include "ktpu_rng.h"
#include "ktpu_rvfi.h"
}
#include "ktpu_serial.h"
#include "ktpu_sim_opts.h"
#include "ktpu_timeline.h"
#include "ktpu_version.h"

#ifndef KTPU_SIM_MEM_PORTS
#define KTPU_SIM_MEM_PORTS 1   // memory agents (DRAM ports besides the CPU's); ktpu-sim-4 has 2
#endif

using namespace ktpu_sim;

namespace {

// The waveform's clock: the FPGA build's default (fpga/block.mk
// FPGA_CLK_HZ, 100 MHz), so a viewer's time axis reads as on the board.
const uint64_t kClockPeriodPs = 10000;

// ---- --cluster-hold: per cluster, stretches of 1..256 cycles, each held
// with probability pct/100 (the host tools' random stream, from the seed) ----
class ClusterHold {
public:
    ClusterHold(unsigned pct, uint64_t seed, uint32_t mask) : pct_(pct), mask_(mask) { ktpu_rng_seed(&rng_, seed); }
    uint32_t next()
    {
        for (unsigned c = 0; c < KTPU_SIM_CLUSTERS; c++) {   // this machine's clusters
            if (!left_[c]) {
                left_[c] = 1 + ktpu_rng_next(&rng_) % 256;
                held_ = (held_ & ~(1u << c)) | (uint32_t)(ktpu_rng_next(&rng_) % 100 < pct_) << c;
            }
            left_[c]--;
        }
        return held_ & mask_;
    }
private:
    unsigned pct_;
    uint32_t mask_;
    ktpu_rng rng_;
    unsigned left_[KTPU_SIM_CLUSTERS] = {};
    uint32_t held_ = 0;
};

// ---- the UART's far end: nothing, a file (--uart-in) or a pseudo-terminal
// (--uart-pty) ----
class UartLink {
public:
    ~UartLink()
    {
        if (in_) std::fclose(in_);
        if (pty_ >= 0) close(pty_);
    }
    void open_file(const char *path)
    {
        in_ = std::fopen(path, "rb");
        if (!in_) die("cannot open %s", path);
    }
    void open_pty(const char *name_file)
    {
        pty_ = posix_openpt(O_RDWR | O_NOCTTY);
        if (pty_ < 0 || grantpt(pty_) || unlockpt(pty_) || !ptsname(pty_)) die("%s", "--uart-pty: cannot create a pseudo-terminal");
        fcntl(pty_, F_SETFL, fcntl(pty_, F_GETFL) | O_NONBLOCK);
        ktpu_out o{};
        char oerr[KTPU_OUT_ERR_LEN];
        if (ktpu_out_open(&o, name_file, oerr)) die("%s", oerr);
        std::fprintf(o.f, "%s\n", ptsname(pty_));
        if (ktpu_out_commit(&o, oerr)) die("%s", oerr);
    }
    // The clock waits for the host's first byte (a real board's UART would
    // not, but a simulation a thousand times slower than one must).
    void wait_first(int seconds)
    {
        pollfd p = {pty_, POLLIN, 0};
        if (poll(&p, 1, seconds * 1000) <= 0 || !(p.revents & POLLIN))
            std::fprintf(stderr, "ktpu-sim: --uart-pty: nothing arrived in %d s; running\n", seconds);
    }
    // The next byte for the receiver, or EOF (none now).
    int next()
    {
        if (in_) return std::fgetc(in_);
        if (pty_ < 0) return EOF;
        unsigned char b;
        return read(pty_, &b, 1) == 1 ? b : EOF;
    }
    void tx(uint8_t b)
    {
        if (pty_ >= 0 && write(pty_, &b, 1) != 1) { /* nobody is listening: dropped, as on a wire */ }
    }

private:
    std::FILE *in_ = nullptr;
    int pty_ = -1;
};

// SIGINT / SIGTERM end the run at the next cycle, as a time-out does: the
// waveform is closed (readable) and the cycles are printed; a second one
// kills at once (SA_RESETHAND).
volatile std::sig_atomic_t g_signal = 0;
void on_signal(int sig) { g_signal = sig; }
void install_signals()
{
    struct sigaction sa = {};
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

// The --progress line, on the RTL and on --iss alike: at most every
// `seconds` of host time, the clock looked at once per 65,536 cycles.
class Progress {
public:
    explicit Progress(uint64_t seconds) : seconds_(seconds) {}
    bool due(uint64_t cycles)
    {
        if (!seconds_ || (cycles & 0xFFFF)) return false;
        std::time_t now = std::time(nullptr);
        if (now - last_ < (std::time_t)seconds_) return false;
        last_ = now;
        return true;
    }
    void print(uint64_t cycles, uint64_t retired, const char *more)
    {
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        std::fprintf(stderr, "ktpu-sim: progress: %" PRIu64 " cycles (%.0f/s), %" PRIu64 " instructions retired%s\n",
                     cycles, s > 0 ? (double)cycles / s : 0.0, retired, more);
    }

private:
    uint64_t seconds_;
    std::time_t last_ = std::time(nullptr);
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// "stopped by SIGINT at cycle N (...)": status 130 or 143
int stopped(uint64_t cycles, uint64_t retired, const char *trace)
{
    std::fprintf(stderr, "ktpu-sim: stopped by %s at cycle %" PRIu64 " (%" PRIu64 " instructions retired)%s%s\n",
                 g_signal == SIGINT ? "SIGINT" : "SIGTERM", cycles, retired, trace ? "; waveform kept in " : "",
                 trace ? trace : "");
    return 128 + g_signal;
}

// A SIM_EXIT store that was not a sw (byte lanes be): status 125.
int bad_exit(unsigned be, uint64_t cycles)
{
    unsigned lanes = (be & 1u) + (be >> 1 & 1u) + (be >> 2 & 1u) + (be >> 3 & 1u);
    std::fprintf(stderr, "ktpu-sim: error: SIM_EXIT: a %u-byte store (%s, byte lanes 0x%x) at "
                         "cycle %" PRIu64 ": SPEC 2 defines SIM_EXIT as a 32-bit store (sw); "
                         "not taken as an exit status\n",
                 lanes, lanes == 1 ? "sb" : lanes == 2 ? "sh" : "?", be, cycles);
    return kExitHarness;
}

// The program's SIM_EXIT status as the process's.
int exit_status(int status)
{
    if (status > 255) {
        std::fprintf(stderr, "ktpu-sim: program exit status %d does not fit a process status; exiting 255\n",
                     status);
        return 255;
    }
    return status;
}

// ---- --iss: the program on the instruction-set model alone (no RTL) ----
struct IssRun {
    ktpu_iss *iss;
    ktpu_iss_platform *plat;
};

// One step for gdb: an instruction, a trap or an interrupt.
int gdb_step(void *ctx, int *status)
{
    IssRun *r = static_cast<IssRun *>(ctx);
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

int run_iss(const Options &opt)
{
    ktpu_iss *iss = ktpu_iss_new();
    if (!iss) die("%s", "out of memory for the instruction-set model");
    std::FILE *uin = nullptr;
    if (opt.uart_in && !(uin = std::fopen(opt.uart_in, "rb"))) die("cannot open %s", opt.uart_in);
    ktpu_iss_platform plat;
    ktpu_iss_platform_init(&plat, iss, uin, stdout);
    ktpu_iss_standalone(iss, opt.seed, &plat.io);
    ktpu_elf_region regions[2] = {
        {"RAM", KTPU_RAM_BASE, KTPU_RAM_BYTES, ktpu_iss_write_byte, iss},
        {"DRAM", KTPU_DRAM_BASE, KTPU_DRAM_SIM_BYTES, ktpu_iss_write_byte, iss},
    };
    uint32_t entry = 0;
    char err[256];
    if (ktpu_elf_load(opt.elf, regions, 2, &entry, err, sizeof err) != 0) {
        std::fprintf(stderr, "ktpu-sim: error: %s: %s\n", opt.elf, err);
        return kExitHarness;
    }
    if (opt.gdb_port >= 0) {
        int fd = ktpu_gdb_accept((unsigned)opt.gdb_port, err, sizeof err);
        if (fd < 0) die("%s", err);
        IssRun r = {iss, &plat};
        ktpu_gdb_target t = {
            &r,
            [](void *c, unsigned i) { return ktpu_iss_reg(static_cast<IssRun *>(c)->iss, i); },
            [](void *c, unsigned i, uint32_t v) { return ktpu_iss_set_reg(static_cast<IssRun *>(c)->iss, i, v); },
            [](void *c, uint32_t a, uint8_t *b) { return ktpu_iss_read_byte(static_cast<IssRun *>(c)->iss, a, b); },
            [](void *c, uint32_t a, uint8_t b) {
                uint8_t old;
                if (ktpu_iss_read_byte(static_cast<IssRun *>(c)->iss, a, &old)) return -1;
                ktpu_iss_write_byte(static_cast<IssRun *>(c)->iss, a, b);
                return 0;
            },
            gdb_step,
        };
        int status = 0, detached = 0;
        int r_ = ktpu_gdb_serve(fd, &t, opt.max_cycles, &status, &detached);
        close(fd);
        std::fflush(stdout);
        if (r_ == KTPU_GDB_FAILED) return kExitHarness;
        if (r_ == KTPU_GDB_RAN && !detached) {
            std::fprintf(stderr, "ktpu-sim: gdb: killed, or the connection closed, at pc 0x%08x\n",
                         ktpu_iss_reg(iss, 32));
            return kExitCheck;
        }
        // exited under gdb, or detached: the run goes on below (it ends at once if it exited)
    }
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
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    uint64_t retired = ktpu_iss_retired(iss);
    ktpu_iss_free(iss);
    if (uin) std::fclose(uin);
    if (opt.stats)
        std::fprintf(stderr, "ktpu-sim: --iss: %" PRIu64 " instructions in %.2f s of host time (%.1f M/s)\n",
                     retired, wall, wall > 0 ? retired / wall / 1e6 : 0.0);
    if (g_signal) return stopped(cycles, retired, nullptr);
    if (plat.bad_exit_wmask) return bad_exit(plat.bad_exit_wmask, cycles);
    if (!plat.exited) {
        std::fprintf(stderr, "ktpu-sim: time-out: no SIM_EXIT within %" PRIu64 " cycles (--max-cycles)\n",
                     opt.max_cycles);
        return kExitTimeout;
    }
    return exit_status((int)plat.exit_status);
}

// ---- lockstep: the core's trace (ktpu_rvfi.c) is fed to the C model ----
ktpu_iss *g_iss = nullptr;
bool g_mismatch = false;
uint64_t g_checked = 0;

// --timeline: the run's cycle count, for the retirements it records
ktpu_timeline *g_timeline = nullptr;
const uint64_t *g_timeline_cycle = nullptr;

void lockstep_check(const ktpu_rvfi *r)
{
    if (g_mismatch) return;
    char msg[256];
    g_checked++;
    if (ktpu_iss_check(g_iss, r, msg, sizeof msg) != 0) {
        std::fprintf(stderr, "ktpu-sim: lockstep mismatch at record %" PRIu64 ": %s\n", g_checked,
                     msg);
        g_mismatch = true;
    }
}

void retire_sink(void *, const ktpu_rvfi *r)
{
    if (g_iss) lockstep_check(r);
    if (g_timeline && g_timeline_cycle) ktpu_timeline_pc(g_timeline, *g_timeline_cycle, r->pc);
}

// The model's DRAM loads read the DRAM model (its DPI scope set here: the
// call comes from inside the core's retirement import).
svScope g_dram_scope = nullptr;
uint32_t lockstep_dram_read(void *, uint32_t off)
{
    svSetScope(g_dram_scope);
    return ktpu_dram_bd_read32(off);
}

// Loader sinks: local RAM through the SoC's loader port (queued, clocked in
// during reset), DRAM through the model's DPI backdoor.
struct RamImage {
    uint8_t bytes[KTPU_RAM_BYTES];
    bool set[KTPU_RAM_BYTES];
};

void ram_sink(void *ctx, uint32_t addr, uint8_t byte)
{
    RamImage *r = static_cast<RamImage *>(ctx);
    r->bytes[addr - KTPU_RAM_BASE] = byte;
    r->set[addr - KTPU_RAM_BASE] = true;
}

std::string exe_dir()
{
    char buf[4096];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) return ".";
    buf[n] = 0;
    std::string p(buf);
    size_t slash = p.rfind('/');
    return slash == std::string::npos ? "." : p.substr(0, slash);
}

void bd_write(void *, uint32_t off, uint32_t v) { ktpu_dram_bd_write32(off, v); }
uint32_t bd_read(void *, uint32_t off) { return ktpu_dram_bd_read32(off); }

void dram_sink(void *, uint32_t addr, uint8_t byte)
{
    uint32_t off = addr - KTPU_DRAM_BASE;
    uint32_t w = ktpu_dram_bd_read32(off & ~3u);
    int sh = 8 * (off & 3);
    w = (w & ~(0xFFu << sh)) | (uint32_t)byte << sh;
    ktpu_dram_bd_write32(off & ~3u, w);
}

// --gdb on the RTL: the lockstep model beside the core is the debugger's
// view (its registers and memory equal the core's at every retirement); a
// step runs the clock to the core's next retirement. Registers and memory
// are read only. Returns true if gdb killed the run.
template <class Cycle>
bool gdb_rtl(const Options &opt, Cycle &cycle, uint64_t &cycles, int &status, unsigned &bad_exit_be)
{
    char err[256];
    int fd = ktpu_gdb_accept((unsigned)opt.gdb_port, err, sizeof err);
    if (fd < 0) die("%s", err);
    struct Ctx {
        Cycle *cycle;
        const Options *opt;
        uint64_t *cycles;
        int *status;
        unsigned *bad_exit_be;
    } c = {&cycle, &opt, &cycles, &status, &bad_exit_be};
    ktpu_gdb_target t = {
        &c,
        [](void *, unsigned i) { return ktpu_iss_reg(g_iss, i); },
        [](void *, unsigned, uint32_t) { return -1; },   // the core's registers are not the harness's to write
        [](void *, uint32_t a, uint8_t *b) { return ktpu_iss_read_byte(g_iss, a, b); },
        [](void *, uint32_t, uint8_t) { return -1; },
        [](void *p, int *st) {
            Ctx *x = static_cast<Ctx *>(p);
            for (uint64_t before = g_checked; *x->cycles < x->opt->max_cycles && !g_signal;) {
                bool end = (*x->cycle)();   // counts the cycle
                if (g_mismatch) return (int)KTPU_GDB_FAILED;
                if (end) {
                    *st = *x->bad_exit_be ? kExitHarness : *x->status;
                    return (int)KTPU_GDB_EXITED;
                }
                if (g_checked != before) return (int)KTPU_GDB_RAN;
            }
            return (int)KTPU_GDB_FAILED;   // the cycle limit or a signal: reported after the run
        },
    };
    int st = 0, detached = 0;
    int r = ktpu_gdb_serve(fd, &t, UINT64_MAX, &st, &detached);
    close(fd);
    if (r == KTPU_GDB_RAN && !detached) {
        std::fflush(stdout);
        std::fprintf(stderr, "ktpu-sim: gdb: killed, or the connection closed, at pc 0x%08x\n", ktpu_iss_reg(g_iss, 32));
        return true;
    }
    return false;
}

}  // namespace

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);
    const unsigned kClusters = KTPU_SIM_CLUSTERS;
    if (opt.clusters >= 0 && (unsigned long)opt.clusters != kClusters) {
        std::string sib = exe_dir() + (opt.clusters == 2 ? "/ktpu-sim" : "/ktpu-sim-" + std::to_string(opt.clusters));
        if (access(sib.c_str(), X_OK) != 0)
            die("--clusters: no build of that machine beside this program (looked for %s); built: 1, 2, 4",
                sib.c_str());
        execv(sib.c_str(), argv);
        die("--clusters: cannot run %s", sib.c_str());
    }
    if (opt.version) {
        std::printf("ktpu-sim %s (%u cluster%s, %u memory agent%s)\n", KTPU_VERSION, kClusters, kClusters > 1 ? "s" : "",
                    (unsigned)KTPU_SIM_MEM_PORTS, KTPU_SIM_MEM_PORTS > 1 ? "s" : "");
        return 0;
    }
    if (opt.use_clusters > (long)kClusters)
        die("%s", ("--use-clusters " + std::to_string(opt.use_clusters) + ": this machine has " +
                   std::to_string(kClusters) + " clusters (see --clusters)").c_str());
    // What is loaded: the program, the GEMM firmware, or the boot image's two ELFs.
    std::string fw_default, boot_elf, resident_elf;
    std::vector<const char *> progs;
    if (opt.boot) {
        boot_elf = exe_dir() + "/fw/ktpu_boot.elf";
        resident_elf = exe_dir() + "/fw/ktpu_gemm_resident.elf";
        for (const std::string *f : {&boot_elf, &resident_elf})
            if (access(f->c_str(), R_OK) != 0)
                die("boot image part %s not found (make build/fw/ktpu_boot.elf build/fw/ktpu_gemm_resident.elf)",
                    f->c_str());
        progs = {boot_elf.c_str(), resident_elf.c_str()};
    } else {
        if (opt.gemm() && !opt.firmware) {
            fw_default = exe_dir() + "/fw/ktpu_gemm.elf";
            opt.firmware = fw_default.c_str();
        }
        if (opt.gemm()) opt.elf = opt.firmware;
        if (opt.gemm() && access(opt.firmware, R_OK) != 0)
            die("GEMM firmware %s not found (make build/fw/ktpu_gemm.elf, or give --firmware FILE)",
                opt.firmware);
        progs = {opt.elf};
    }

    if (opt.iss) return run_iss(opt);

    // ---- every output opened before anything is generated or simulated ----
    // (ktpu_out: a temporary file beside each, committed at the end; one
    // still open at exit, e.g. after die(), is removed)
    ktpu_out out_c{}, out_csv{}, out_trace{}, out_timeline{};
    char oerr[KTPU_OUT_ERR_LEN];
    if (opt.out_c && ktpu_out_open(&out_c, opt.out_c, oerr)) die("%s", oerr);
    if (opt.csv && ktpu_out_open(&out_csv, opt.csv, oerr)) die("%s", oerr);
    if (opt.trace && (ktpu_out_open(&out_trace, opt.trace, oerr) || ktpu_out_release(&out_trace, oerr)))
        die("%s", oerr);
    if (opt.timeline && ktpu_out_open(&out_timeline, opt.timeline, oerr)) die("%s", oerr);

    // ---- the GEMM's operands: shape and DRAM fit first, then generated or read ----
    ktpu_gemm_job job;
    std::memset(&job, 0, sizeof job);
    job.corrupt_row = opt.corrupt_row;
    job.corrupt_col = opt.corrupt_col;
    job.port_half = KTPU_SIM_MEM_PORTS > 1 ? KTPU_DRAM_SIM_BYTES / 2 : 0;
    if (opt.gemm()) {
        char gerr[KTPU_GEMM_ERR_LEN];
        int rc;
        if (opt.gemm_a) {
            rc = ktpu_gemm_job_load(&job, opt.gemm_a, opt.gemm_b, opt.preq, KTPU_DRAM_SIM_BYTES, gerr);
        } else {
            ktpu_gemm_dist d;
            if (ktpu_gemm_dist_parse(opt.dist, &d))
                die("--dist: unknown distribution %s (normal, uniform, relu, lowrank, worst)", opt.dist);
            rc = ktpu_gemm_job_plan(&job, opt.shape[0], opt.shape[1], opt.shape[2], opt.preq,
                                    KTPU_DRAM_SIM_BYTES, gerr);
            if (!rc) rc = ktpu_gemm_job_generate(&job, d, opt.seed, gerr);
        }
        if (rc) die("%s", gerr);
        if (!opt.max_cycles_given)
            opt.max_cycles = kGemmBaseCycles + kGemmCyclesPer512Macs * (((uint64_t)job.mp * job.np * job.kp + 511) / 512);
    }

    auto ctx = std::make_unique<VerilatedContext>();
    ctx->randReset(2);
    ctx->randSeed((int)(opt.seed & 0x7FFFFFFF));
    // Plusargs reach the models ($value$plusargs), e.g. the DRAM latency.
    char lat_arg[64];
    const char *vargs[2] = {argv[0], nullptr};
    int nargs = 1;
    if (opt.dram_latency > 0) {
        std::snprintf(lat_arg, sizeof lat_arg, "+ktpu_dram_latency=%ld", opt.dram_latency);
        vargs[nargs++] = lat_arg;
    }
    ctx->commandArgs(nargs, vargs);
    if (opt.trace) ctx->traceEverOn(true);
    auto top = std::make_unique<Vktpu_sim_top>(ctx.get(), "TOP");

    std::unique_ptr<VerilatedFstC> tfp;
    if (opt.trace) {
        // The FST writer opens files by name: the temporary one (unpredictable,
        // so its PATH.XXXXXX.hier beside it is too).
        tfp = std::make_unique<VerilatedFstC>();
        // depth 1: ktpu_sim_top's own signals ("TOP ktpu_sim_top NAME"), each
        // level one more scope below it (Verilator's $dumpvars filter)
        if (opt.trace_depth < 99) tfp->dumpvars((int)opt.trace_depth + 1, "TOP");
        top->trace(tfp.get(), 99);
        tfp->set_time_unit("1ps");
        tfp->set_time_resolution("1ps");
        tfp->open(out_trace.tmp);
        if (!tfp->isOpen()) die("%s: cannot create the trace", opt.trace);
    }

    // ---- load the program ----
    g_dram_scope = svGetScopeFromName("TOP.ktpu_sim_top.u_dram");
    svSetScope(g_dram_scope);
    ktpu_gemm_io gio = {bd_write, bd_read, nullptr, ktpu_dram_bd_bytes()};
    if (opt.gemm()) {
        char gerr[KTPU_GEMM_ERR_LEN];
        job.no_split = opt.no_split;
        if (ktpu_gemm_job_place(&job, &gio, (unsigned)opt.use_clusters, kClusters, gerr))
            die("%s", gerr);
    }
    auto ram = std::make_unique<RamImage>();
    std::memset(ram->set, 0, sizeof ram->set);
    ktpu_elf_region regions[2] = {
        {"RAM", KTPU_RAM_BASE, KTPU_RAM_BYTES, ram_sink, ram.get()},
        {"DRAM", KTPU_DRAM_BASE, ktpu_dram_bd_bytes(), dram_sink, nullptr},
    };
    uint32_t entry = 0;
    char err[256];
    for (const char *p : progs) {
        if (ktpu_elf_load(p, regions, 2, &entry, err, sizeof err) != 0) {
            std::fprintf(stderr, "ktpu-sim: error: %s: %s\n", p, err);
            return kExitHarness;
        }
        if (entry != KTPU_RAM_BASE && !opt.boot)
            std::fprintf(stderr, "ktpu-sim: warning: %s: entry 0x%08x, but the CPU starts at 0x%08x\n",
                         p, (unsigned)entry, (unsigned)KTPU_RAM_BASE);
    }
    if (opt.timeline) {
        if (!(g_timeline = ktpu_timeline_new(out_timeline.f, kClusters))) die("%s", "out of memory");
        for (const char *p : progs)
            if (ktpu_timeline_add_elf(g_timeline, p, err, sizeof err)) {
                std::fprintf(stderr, "ktpu-sim: error: --timeline: %s: %s\n", p, err);
                return kExitHarness;
            }
    }
    if (!opt.elf) opt.elf = "the boot image";
    bool ram_loaded = false;
    for (uint32_t b = 0; b < KTPU_RAM_BYTES && !ram_loaded; b++) ram_loaded = ram->set[b];
    if (!ram_loaded)
        std::fprintf(stderr, "ktpu-sim: warning: %s: no segment in local RAM (0x%08x..0x%08x): the "
                             "CPU starts at 0x%08x in RAM this program never wrote\n",
                     opt.elf, (unsigned)KTPU_RAM_BASE, (unsigned)(KTPU_RAM_BASE + KTPU_RAM_BYTES - 1),
                     (unsigned)KTPU_RAM_BASE);
    if (opt.lockstep) {
        g_iss = ktpu_iss_new();
        if (!g_iss) die("%s", "out of memory for the lockstep model");
        ktpu_elf_region iregions[2] = {
            {"RAM", KTPU_RAM_BASE, KTPU_RAM_BYTES, ktpu_iss_write_byte, g_iss},
            {"DRAM", KTPU_DRAM_BASE, KTPU_DRAM_SIM_BYTES, ktpu_iss_write_byte, g_iss},
        };
        for (const char *p : progs)
            if (ktpu_elf_load(p, iregions, 2, &entry, err, sizeof err) != 0) {
                std::fprintf(stderr, "ktpu-sim: error: %s: %s\n", p, err);
                return kExitHarness;
            }
        ktpu_iss_set_dram(g_iss, lockstep_dram_read, nullptr);
    }
    if (g_iss || g_timeline) ktpu_rvfi_set_sink(retire_sink, nullptr);

    UartLink uart;
    if (opt.uart_in) uart.open_file(opt.uart_in);
    if (opt.uart_pty) uart.open_pty(opt.uart_pty);

    // ticks: clock periods from the first reset cycle; the waveform keeps
    // the run's cycles [trace_from, trace_to] (cycles counted from the end of reset)
    uint64_t ticks = 0, reset_ticks = UINT64_MAX;
    auto step = [&]() {
        bool dump = tfp && ticks - (reset_ticks == UINT64_MAX ? 0 : reset_ticks) >= opt.trace_from &&
                    (reset_ticks == UINT64_MAX ? opt.trace_from == 0 : ticks - reset_ticks <= opt.trace_to);
        top->clk_i = 0;
        top->eval();
        if (dump) tfp->dump(ticks * kClockPeriodPs);
        top->clk_i = 1;
        top->eval();
        if (dump) tfp->dump(ticks * kClockPeriodPs + kClockPeriodPs / 2);
        ctx->timeInc(1);
        ticks++;
    };

    // ---- reset: hold it while the RAM image is clocked in, word by word ----
    top->rst_i = 1;
    top->ld_valid_i = 0;
    top->uart_rxd_i = 1;
    top->mbox_resp_i = 0;
    top->mem_win_base_i = (uint32_t)opt.win[0];
    top->mem_win_limit_i = (uint32_t)opt.win[1];
    top->cl_hold_i = 0;
    for (int i = 0; i < 4; i++) step();
    for (uint32_t w = 0; w < KTPU_RAM_BYTES / 4; w++) {
        uint32_t be = 0, data = 0;
        for (int b = 0; b < 4; b++)
            if (ram->set[w * 4 + b]) { be |= 1u << b; data |= (uint32_t)ram->bytes[w * 4 + b] << (8 * b); }
        if (!be) continue;
        top->ld_valid_i = 1;
        top->ld_addr_i = KTPU_RAM_BASE + 4 * w;
        top->ld_be_i = be;
        top->ld_data_i = data;
        step();
    }
    top->ld_valid_i = 0;
    for (int i = 0; i < 4; i++) step();
    top->rst_i = 0;
    reset_ticks = ticks;

    // ---- run ----
    uint64_t cycles = 0;
    g_timeline_cycle = &cycles;
    int status = -1;
    unsigned bad_exit_be = 0;   // lanes of a SIM_EXIT store that was not a sw
    if (opt.uart_pty) uart.wait_first(60);
    int pending_rx = uart.next();
    SerialLine line;
    // one UART bit time: the serial port is clocked once per cycle
    auto serial = [&]() {
        top->uart_rxd_i = line.rxd(top->uart_rts_o, [&] {
            if (pending_rx == EOF && !(cycles & 63)) pending_rx = uart.next();
            return pending_rx != EOF;
        }, [&] { int b = pending_rx; pending_rx = uart.next(); return b; });
        step();
        int b = line.txd(top->uart_txd_o);
        if (b >= 0) {
            std::fputc(b, stdout);
            uart.tx((uint8_t)b);
        }
    };
    Progress progress(opt.progress_s);
    auto wall0 = std::chrono::steady_clock::now();
    ClusterHold hold(opt.hold_pct, opt.seed, opt.hold_only < 0 ? ~0u : 1u << opt.hold_only);
    install_signals();
    // One clock cycle of the run: true when the run ends (SIM_EXIT, a
    // lockstep mismatch).
    auto cycle = [&]() -> bool {
        if (opt.hold_pct) top->cl_hold_i = hold.next();
        serial();
        cycles++;
        if (g_timeline) ktpu_timeline_cycle(g_timeline, cycles, top->cl_act_o.data());
        if (top->mbox_valid_o) {
            if (top->mbox_cmd_o == KTPU_MBOX_CMD_PRINT_WORD) {
                std::fflush(stdout);
                std::fprintf(stderr, "ktpu-sim: mailbox: 0x%08x\n", top->mbox_arg0_o);
            } else if (top->mbox_cmd_o == KTPU_MBOX_CMD_ECHO) {
                top->mbox_resp_i = top->mbox_arg0_o + top->mbox_arg1_o;
            } else if (top->mbox_cmd_o == KTPU_MBOX_CMD_TILE && opt.gemm()) {
                std::fflush(stdout);
                ktpu_gemm_job_tile(&job, &gio, top->mbox_arg0_o, top->mbox_arg1_o, stderr);
            } else {
                std::fflush(stdout);
                std::fprintf(stderr, "ktpu-sim: mailbox: unknown command %u\n", top->mbox_cmd_o);
            }
        }
        if (g_mismatch) return true;
        if (top->sim_exit_valid_o) {
            if (top->sim_exit_be_o != 0xFu) bad_exit_be = top->sim_exit_be_o;
            else status = (int)top->sim_exit_code_o;
            return true;
        }
        if (progress.due(cycles)) {
            char more[64] = "";
            if (opt.gemm()) std::snprintf(more, sizeof more, ", %u tiles checked (%u failed)", job.tiles, job.tiles_failed);
            progress.print(cycles, ktpu_rvfi_retired(), more);
        }
        return false;
    };
    bool gdb_killed = false;
    if (opt.gdb_port >= 0) gdb_killed = gdb_rtl(opt, cycle, cycles, status, bad_exit_be);
    while (status < 0 && !bad_exit_be && !g_mismatch && !gdb_killed && cycles < opt.max_cycles && !g_signal)
        if (cycle()) break;
    // The bytes stored before SIM_EXIT are still on the line: let them out
    // (the program runs on meanwhile, as on a board; cycles stays at the exit).
    if (status >= 0 || bad_exit_be)
        for (unsigned i = 0; i < SerialLine::kDrainCycles; i++) serial();
    std::fflush(stdout);
    if (tfp) {
        // the waveform is kept whatever the run's outcome: it is how a failure is read
        tfp->close();
        if (ktpu_out_commit(&out_trace, oerr)) std::fprintf(stderr, "ktpu-sim: error: %s\n", oerr);
    }
    if (g_timeline) {   // kept whatever the outcome, as the waveform
        long events = ktpu_timeline_end(g_timeline, cycles);
        g_timeline = nullptr;
        if (events < 0) {
            std::fprintf(stderr, "ktpu-sim: error: writing %s failed\n", opt.timeline);
            ktpu_out_abort(&out_timeline);
        } else if (ktpu_out_commit(&out_timeline, oerr)) std::fprintf(stderr, "ktpu-sim: error: %s\n", oerr);
        else std::fprintf(stderr, "ktpu-sim: timeline: %ld events in %s\n", events, opt.timeline);
    }
    top->final();
    if (g_signal) return stopped(cycles, ktpu_rvfi_retired(), opt.trace);
    if (gdb_killed) return kExitCheck;
    if (opt.stats)
        std::fprintf(stderr, "ktpu-sim: %" PRIu64 " cycles, %" PRIu64 " instructions retired, CPI %.3f\n",
                     cycles, ktpu_rvfi_retired(),
                     ktpu_rvfi_retired() ? (double)cycles / (double)ktpu_rvfi_retired() : 0.0);
    if (g_iss) {
        if (!g_mismatch)
            std::fprintf(stderr, "ktpu-sim: lockstep: %" PRIu64 " records checked, 0 mismatches\n",
                         g_checked);
        ktpu_iss_free(g_iss);
    }
    if (g_mismatch) return kExitLockstep;
    if (top->axi_err_o) {
        // the DRAM answered an AXI burst with SLVERR/DECERR or a wrong ID: what the run computed is suspect
        std::fprintf(stderr, "ktpu-sim: error: %u AXI4 DRAM responses were not OKAY or carried a wrong ID\n",
                     (unsigned)top->axi_err_o);
        return kExitHarness;
    }
    if (bad_exit_be) return bad_exit(bad_exit_be, cycles);
    if (status < 0) {
        std::fprintf(stderr, "ktpu-sim: time-out: no SIM_EXIT within %" PRIu64 " cycles (--max-cycles)%s\n",
                     opt.max_cycles, opt.gemm() ? "; no C written" : "");
        return kExitTimeout;
    }
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    if (opt.stats)
        std::fprintf(stderr, "ktpu-sim: %.2f s of host time, %.0f simulated cycles per second\n", wall,
                     wall > 0 ? (double)cycles / wall : 0.0);
    if (opt.gemm()) {
        ktpu_gemm_traffic t;
        t.sim_cycles = cycles;
        t.agent_rd[0] = top->agent_rd_beats_o;
        t.agent_wr[0] = top->agent_wr_beats_o;
        t.agent_rd[1] = top->agent1_rd_beats_o;
        t.agent_wr[1] = top->agent1_wr_beats_o;
        t.mem_ports = KTPU_SIM_MEM_PORTS;
        t.cpu_rd = top->cpu_rd_beats_o;
        t.cpu_wr = top->cpu_wr_beats_o;
        t.stray_rq = top->stray_rq_o;
        t.stray_rs = top->stray_rs_o;
        t.win_err = top->mem_win_err_o;
        t.bad_req = top->mem_bad_req_o;
        unsigned latency = (unsigned)opt.dram_latency;
        std::snprintf(job.run_info, sizeof job.run_info,
                      "seed %" PRIu64 ", DRAM latency %u, cycle limit %" PRIu64 ", ktpu-sim %s", opt.seed, latency,
                      opt.max_cycles, KTPU_VERSION);
        char gerr[KTPU_GEMM_ERR_LEN] = "";
        int rc = ktpu_gemm_job_finish(&job, &gio, &t, stdout, gerr);
        ktpu_gemm_summary sum;
        ktpu_gemm_job_summary(&job, &gio, &sum);
        if (rc == 0 && status != 0) {
            std::printf("ktpu-sim: FAIL: the job is done but the firmware exited with status %d\n", status);
            rc = 1;
        }
        if (opt.csv) {
            // the file as it is now, then this run's row (ktpu_out: copy and replace)
            if (ktpu_out_copy_existing(&out_csv, oerr)) die("%s", oerr);
            std::FILE *f = out_csv.f;
            if (std::ftell(f) == 0)
                std::fprintf(f, "m,k,n,operands,clusters,job_cycles,macs_per_cycle,pct_peak,tiles,result,sim_cycles,agent_rd_beats,agent_wr_beats,host_seconds,sim_cycles_per_s,seed,dram_latency,version\n");
            std::fprintf(f, "%zu,%zu,%zu,%s,%u,%llu,%.2f,%.2f,%u,%s,%" PRIu64 ",%llu,%llu,%.2f,%.0f,%" PRIu64 ",%u,%s\n",
                         job.m, job.k, job.n,
                         opt.preq ? "mx" : "fp16", sum.clusters_used, sum.job_cycles, sum.macs_per_cycle,
                         sum.pct_peak, job.tiles, rc == 0 ? "pass" : "FAIL", cycles,
                         t.agent_rd[0] + t.agent_rd[1], t.agent_wr[0] + t.agent_wr[1],
                         wall, wall > 0 ? (double)cycles / wall : 0.0, opt.seed, latency, KTPU_VERSION);
            if (ktpu_out_commit(&out_csv, oerr)) die("%s", oerr);
        }
        // C is written when every check passed (a NUMERIC job's C is checked too).
        if ((rc == 0 || (rc == 2 && sum.status == KTPU_JOBST_NUMERIC)) && opt.out_c) {
            char werr[KTPU_GEMM_ERR_LEN];
            if (ktpu_gemm_job_write_c(&job, &gio, &out_c, werr)) die("%s", werr);
            std::printf("wrote %s (%zu x %zu FP16)\n", opt.out_c, job.m, job.n);
        } else if (opt.out_c) {
            ktpu_out_abort(&out_c);   // a failed run replaces no C.npy
        }
        unsigned tiles = job.tiles;
        ktpu_gemm_job_free(&job);
        std::fflush(stdout);
        if (rc == 2) {
            std::fprintf(stderr, "ktpu-sim: error: %s\n", gerr);
            return kExitJob;
        }
        if (rc) {
            std::fprintf(stderr, "ktpu-sim: GEMM check FAILED (see above)\n");
            return kExitCheck;
        }
        std::printf("ktpu-sim: GEMM passed: %u tiles checked, 0 failed\n", tiles);
        return 0;
    }
    return exit_status(status);
}
