// build/ktpu-sim: the SoC co-simulator (SPEC §2, fixed contract; §11).
// Thin on purpose: option parsing, ELF placement, the clock loop, UART and
// mailbox plumbing, and the lockstep hook. The ELF loader and the
// instruction-set model are C (ktpu_elf.c, ktpu_iss.c).
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "Vktpu_sim_top.h"
#include "Vktpu_sim_top__Dpi.h"
#include "svdpi.h"
#include "verilated.h"
#include "verilated_fst_c.h"

extern "C" {
#include "ktpu_defs.h"
#include "ktpu_elf.h"
#include "ktpu_iss.h"
#include "ktpu_rvfi.h"
}

namespace {

const uint64_t kDefaultMaxCycles = 50000000;  // ~10-30 s of host time
const int kExitTimeout = 124, kExitHarness = 125, kExitLockstep = 126;

const char *kUsage =
    "usage: ktpu-sim [options] PROGRAM.elf\n"
    "Runs PROGRAM on the simulated KohakuTPU SoC (RV32IM CPU, 128 KiB RAM at 0,\n"
    "MMIO at 0x10000000, DRAM at 0x80000000) from reset. UART output goes to\n"
    "stdout; the exit status is the one the program writes to SIM_EXIT.\n"
    "\n"
    "options:\n"
    "  --max-cycles N     stop after N cycles with a time-out (default 50000000)\n"
    "  --trace FILE       write an FST waveform of the whole run to FILE\n"
    "  --seed N           seed for the random initial register values (default 1)\n"
    "  --dram-latency N   DRAM read latency in cycles (default 64)\n"
    "  --lockstep         check every retired instruction against the C model\n"
    "  --uart-in FILE     bytes fed to the UART receiver, in order\n"
    "  --stats            print cycles, instructions and CPI to stderr at the end\n"
    "  --help             this text\n"
    "  --gemm ...         not available in this build (needs the clusters)\n"
    "\n"
    "exit status: the program's SIM_EXIT status; 124 time-out; 125 harness error\n"
    "(bad option, unloadable ELF); 126 lockstep mismatch.\n";

struct Options {
    const char *elf = nullptr, *trace = nullptr, *uart_in = nullptr;
    uint64_t max_cycles = kDefaultMaxCycles;
    uint64_t seed = 1;
    long dram_latency = -1;
    bool lockstep = false, stats = false;
};

[[noreturn]] void die(const char *fmt, const char *arg)
{
    std::fprintf(stderr, "ktpu-sim: error: ");
    std::fprintf(stderr, fmt, arg);
    std::fprintf(stderr, "\n");
    std::exit(kExitHarness);
}

uint64_t parse_u64(const char *opt, const char *s)
{
    if (!s) die("%s needs a value", opt);
    char *end;
    errno = 0;
    unsigned long long v = std::strtoull(s, &end, 0);
    if (errno || *end || !*s || s[0] == '-') die("bad number for option: %s", opt);
    return v;
}

Options parse(int argc, char **argv)
{
    Options o;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
        if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h")) {
            std::fputs(kUsage, stdout);
            std::exit(0);
        } else if (!std::strcmp(a, "--max-cycles")) {
            o.max_cycles = parse_u64(a, v); i++;
            if (o.max_cycles == 0) die("%s must be at least 1", a);
        } else if (!std::strcmp(a, "--trace")) {
            if (!v) die("%s needs a file name", a);
            o.trace = v; i++;
        } else if (!std::strcmp(a, "--seed")) {
            o.seed = parse_u64(a, v); i++;
        } else if (!std::strcmp(a, "--dram-latency")) {
            uint64_t l = parse_u64(a, v); i++;
            if (l < 1 || l > 100000) die("%s must be 1..100000", a);
            o.dram_latency = (long)l;
        } else if (!std::strcmp(a, "--uart-in")) {
            if (!v) die("%s needs a file name", a);
            o.uart_in = v; i++;
        } else if (!std::strcmp(a, "--lockstep")) {
            o.lockstep = true;
        } else if (!std::strcmp(a, "--stats")) {
            o.stats = true;
        } else if (!std::strcmp(a, "--gemm")) {
            die("%s is not available in this build: the clusters are not part of the SoC yet", a);
        } else if (a[0] == '-' && a[1]) {
            die("unknown option %s (see --help)", a);
        } else if (o.elf) {
            die("more than one program given: %s", a);
        } else {
            o.elf = a;
        }
    }
    if (!o.elf) die("%s", "no program given (see --help)");
    return o;
}

// ---- lockstep: the core's trace (ktpu_rvfi.c) is fed to the C model ----
ktpu_iss *g_iss = nullptr;
bool g_mismatch = false;
uint64_t g_checked = 0;

void lockstep_sink(void *, const ktpu_rvfi *r)
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

void dram_sink(void *, uint32_t addr, uint8_t byte)
{
    uint32_t off = addr - KTPU_DRAM_BASE;
    uint32_t w = ktpu_dram_bd_read32(off & ~3u);
    int sh = 8 * (off & 3);
    w = (w & ~(0xFFu << sh)) | (uint32_t)byte << sh;
    ktpu_dram_bd_write32(off & ~3u, w);
}

}  // namespace

int main(int argc, char **argv)
{
    Options opt = parse(argc, argv);

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
        tfp = std::make_unique<VerilatedFstC>();
        top->trace(tfp.get(), 99);
        tfp->open(opt.trace);
        if (!tfp->isOpen()) die("cannot open trace file %s", opt.trace);
    }

    // ---- load the program ----
    svSetScope(svGetScopeFromName("TOP.ktpu_sim_top.u_dram"));
    auto ram = std::make_unique<RamImage>();
    std::memset(ram->set, 0, sizeof ram->set);
    ktpu_elf_region regions[2] = {
        {"RAM", KTPU_RAM_BASE, KTPU_RAM_BYTES, ram_sink, ram.get()},
        {"DRAM", KTPU_DRAM_BASE, ktpu_dram_bd_bytes(), dram_sink, nullptr},
    };
    uint32_t entry = 0;
    char err[256];
    if (ktpu_elf_load(opt.elf, regions, 2, &entry, err, sizeof err) != 0) {
        std::fprintf(stderr, "ktpu-sim: error: %s: %s\n", opt.elf, err);
        return kExitHarness;
    }
    if (entry != KTPU_RAM_BASE)
        std::fprintf(stderr, "ktpu-sim: warning: %s: entry 0x%08x, but the CPU starts at 0x%08x\n",
                     opt.elf, (unsigned)entry, (unsigned)KTPU_RAM_BASE);
    if (opt.lockstep) {
        g_iss = ktpu_iss_new();
        if (!g_iss) die("%s", "out of memory for the lockstep model");
        ktpu_elf_region iregions[2] = {
            {"RAM", KTPU_RAM_BASE, KTPU_RAM_BYTES, ktpu_iss_write_byte, g_iss},
            {"DRAM", KTPU_DRAM_BASE, KTPU_DRAM_SIM_BYTES, ktpu_iss_write_byte, g_iss},
        };
        if (ktpu_elf_load(opt.elf, iregions, 2, &entry, err, sizeof err) != 0) {
            std::fprintf(stderr, "ktpu-sim: error: %s: %s\n", opt.elf, err);
            return kExitHarness;
        }
        ktpu_rvfi_set_sink(lockstep_sink, nullptr);
    }

    std::FILE *uin = nullptr;
    if (opt.uart_in) {
        uin = std::fopen(opt.uart_in, "rb");
        if (!uin) die("cannot open %s", opt.uart_in);
    }

    uint64_t ticks = 0;
    auto step = [&]() {
        top->clk_i = 0;
        top->eval();
        if (tfp) tfp->dump(ticks * 2);
        top->clk_i = 1;
        top->eval();
        if (tfp) tfp->dump(ticks * 2 + 1);
        ctx->timeInc(1);
        ticks++;
    };

    // ---- reset: hold it while the RAM image is clocked in, word by word ----
    top->rst_i = 1;
    top->ld_valid_i = 0;
    top->uart_rx_valid_i = 0;
    top->mbox_resp_i = 0;
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

    // ---- run ----
    uint64_t cycles = 0;
    int status = -1;
    int pending_rx = uin ? std::fgetc(uin) : EOF;
    while (cycles < opt.max_cycles) {
        if (pending_rx != EOF) {
            top->uart_rx_valid_i = 1;
            top->uart_rx_data_i = (uint8_t)pending_rx;
        } else {
            top->uart_rx_valid_i = 0;
        }
        bool rx_taken = top->uart_rx_valid_i && top->uart_rx_ready_o;
        step();
        cycles++;
        if (rx_taken) pending_rx = std::fgetc(uin);
        if (top->uart_tx_valid_o) std::fputc(top->uart_tx_data_o, stdout);
        if (top->mbox_valid_o) {
            if (top->mbox_cmd_o == KTPU_MBOX_CMD_PRINT_WORD) {
                std::fflush(stdout);
                std::fprintf(stderr, "ktpu-sim: mailbox: 0x%08x\n", top->mbox_arg0_o);
            } else if (top->mbox_cmd_o == KTPU_MBOX_CMD_ECHO) {
                top->mbox_resp_i = top->mbox_arg0_o + top->mbox_arg1_o;
            } else {
                std::fflush(stdout);
                std::fprintf(stderr, "ktpu-sim: mailbox: unknown command %u\n", top->mbox_cmd_o);
            }
        }
        if (g_mismatch) break;
        if (top->sim_exit_valid_o) { status = (int)top->sim_exit_code_o; break; }
    }
    std::fflush(stdout);
    if (tfp) tfp->close();
    if (uin) std::fclose(uin);
    top->final();
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
    if (status < 0) {
        std::fprintf(stderr, "ktpu-sim: time-out: no SIM_EXIT within %" PRIu64 " cycles (--max-cycles)\n",
                     opt.max_cycles);
        return kExitTimeout;
    }
    if (status > 255) {
        std::fprintf(stderr, "ktpu-sim: program exit status %d does not fit a process status; exiting 255\n",
                     status);
        return 255;
    }
    return status;
}
