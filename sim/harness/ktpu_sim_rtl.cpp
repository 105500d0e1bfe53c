// ktpu-sim on the RTL: the Verilator model of ktpu_sim_top (the SoC and the
// DRAM model), the programs loaded during reset, and the clock loop. The loop
// has the shape of Verilator's make_tracing_c example: the clock toggled with
// an eval() per edge, the waveform dumped after each, the context's time
// advanced once a cycle, final() at the end. What each cycle adds to it: the
// UART line, the mailbox, --cluster-hold, the timeline and SIM_EXIT.
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <memory>
#include <unistd.h>

#include "Vktpu_sim_top.h"
#include "Vktpu_sim_top__Dpi.h"
#include "svdpi.h"
#include "verilated.h"
#include "verilated_fst_c.h"

extern "C" {
#include "ktpu_defs.h"
#include "ktpu_elf.h"
#include "ktpu_out.h"
#include "ktpu_rng.h"
#include "ktpu_rvfi.h"
#include "ktpu_timeline.h"
}
#include "ktpu_serial.h"
#include "ktpu_sim_gemm.h"
#include "ktpu_sim_host.h"
#include "ktpu_sim_lockstep.h"
#include "ktpu_sim_run.h"

namespace ktpu_sim {
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

// ---- loader sinks: local RAM through the SoC's loader port (collected
// here, clocked in during reset), DRAM through the model's DPI backdoor ----
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

void bd_write(void *, uint32_t off, uint32_t v) { ktpu_dram_bd_write32(off, v); }
uint32_t bd_read(void *, uint32_t off) { return ktpu_dram_bd_read32(off); }

// ---- every output, opened before anything is generated or simulated ----
// (ktpu_out: a temporary file beside each, committed at the end; one still
// open at exit, e.g. after die(), is removed)
struct Outputs {
    ktpu_out c{}, csv{}, trace{}, timeline{};
    explicit Outputs(const Options &opt)
    {
        char err[KTPU_OUT_ERR_LEN];
        if (opt.out_c && ktpu_out_open(&c, opt.out_c, err)) die("%s", err);
        if (opt.csv && ktpu_out_open(&csv, opt.csv, err)) die("%s", err);
        // the FST writer opens files by name: the temporary one (unpredictable,
        // so its PATH.XXXXXX.hier beside it is too)
        if (opt.trace && (ktpu_out_open(&trace, opt.trace, err) || ktpu_out_release(&trace, err))) die("%s", err);
        if (opt.timeline && ktpu_out_open(&timeline, opt.timeline, err)) die("%s", err);
    }
};

class RtlRun {
public:
    RtlRun(Options &opt, const char *argv0);
    int run(const std::vector<const char *> &progs);

private:
    bool load(const std::vector<const char *> &progs, RamImage &ram);
    void tick();          // one clock period, dumped to the waveform when in its window
    void serial_tick();   // one clock period with the UART line clocked beside it
    void reset(const RamImage &ram);
    bool cycle();         // one cycle of the run: true when it ends (SIM_EXIT, lockstep mismatch)
    void close_records();
    int outcome(double wall);
    static void on_retire(void *ctx, const ktpu_rvfi *r);

    Options &opt_;
    Outputs out_;
    GemmRun gemm_;
    std::unique_ptr<VerilatedContext> ctx_ = std::make_unique<VerilatedContext>();
    std::unique_ptr<Vktpu_sim_top> top_;
    std::unique_ptr<VerilatedFstC> tfp_;
    svScope dram_scope_ = nullptr;
    Lockstep lockstep_;
    ktpu_timeline *timeline_ = nullptr;
    UartLink uart_;
    SerialLine line_;
    int pending_rx_ = EOF;
    ClusterHold hold_;
    Progress progress_;
    BusyClock busy_;
    uint32_t idle_mask_ = 0;   // cl_act_o's idle bit of each cluster (all in its first word)
    // ticks: clock periods from the first reset cycle; the waveform keeps the
    // run's cycles [trace_from, trace_to] (cycles counted from the end of reset)
    uint64_t ticks_ = 0, reset_ticks_ = UINT64_MAX, cycles_ = 0;
    int status_ = -1;            // SIM_EXIT's value, once written
    unsigned bad_exit_be_ = 0;   // lanes of a SIM_EXIT store that was not a sw
};

RtlRun::RtlRun(Options &opt, const char *argv0)
    : opt_(opt), out_(opt), gemm_(opt), hold_(opt.hold_pct, opt.seed, opt.hold_only < 0 ? ~0u : 1u << opt.hold_only),
      progress_(opt.progress_s)
{
    if (opt.gemm() && !opt.max_cycles_given) opt.max_cycles = gemm_.cycle_limit();
    // cl_act_o: a bit per STATUS counter word (FILL_WORD = 1 .. BP_WORD) a cluster
    static_assert(KTPU_SIM_CLUSTERS * KTPU_CD_BP_WORD <= 32, "cl_act_o: the idle bits in one word");
    for (unsigned c = 0; c < KTPU_SIM_CLUSTERS; c++)
        idle_mask_ |= 1u << (c * KTPU_CD_BP_WORD + KTPU_CD_IDLE_WORD - 1);
    ctx_->randReset(2);
    ctx_->randSeed((int)(opt.seed & 0x7FFFFFFF));
    // Plusargs reach the models ($value$plusargs), e.g. the DRAM latency.
    // (commandArgs copies the strings)
    const std::string lat_arg = "+ktpu_dram_latency=" + std::to_string(opt.dram_latency);
    // --dram-latency1: agent 1's two DRAM ports (read and write, 2 and 3)
    const std::string slow_ports = "+ktpu_dram_slow_ports=c";
    const std::string slow_lat = "+ktpu_dram_slow_latency=" + std::to_string(opt.dram_latency1);
    if (opt.dram_latency1 && KTPU_SIM_MEM_PORTS < 2)
        die("%s", "--dram-latency1: this machine has one memory agent (the 4-cluster one has two: --clusters 4)");
    const char *vargs[4] = {argv0, lat_arg.c_str(), slow_ports.c_str(), slow_lat.c_str()};
    ctx_->commandArgs(opt.dram_latency1 ? 4 : 2, vargs);
    if (opt.trace) ctx_->traceEverOn(true);
    top_ = std::make_unique<Vktpu_sim_top>(ctx_.get(), "TOP");
    if (opt.trace) {
        tfp_ = std::make_unique<VerilatedFstC>();
        // depth 1: ktpu_sim_top's own signals ("TOP ktpu_sim_top NAME"), each
        // level one more scope below it (Verilator's $dumpvars filter)
        if (opt.trace_depth < 99) tfp_->dumpvars((int)opt.trace_depth + 1, "TOP");
        top_->trace(tfp_.get(), 99);
        tfp_->set_time_unit("1ps");
        tfp_->set_time_resolution("1ps");
        tfp_->open(out_.trace.tmp);
        if (!tfp_->isOpen()) die("%s: cannot create the trace", opt.trace);
    }
}

// The programs into the RAM image and DRAM, then the timeline's and the
// lockstep model's copies. False (message printed) if one does not load.
bool RtlRun::load(const std::vector<const char *> &progs, RamImage &ram)
{
    ktpu_elf_region regions[2] = {
        {"RAM", KTPU_RAM_BASE, KTPU_RAM_BYTES, ram_sink, &ram},
        {"DRAM", KTPU_DRAM_BASE, ktpu_dram_bd_bytes(), dram_sink, nullptr},
    };
    uint32_t entry = 0;
    char err[256];
    for (const char *p : progs) {
        if (ktpu_elf_load(p, regions, 2, &entry, err, sizeof err) != 0) {
            std::fprintf(stderr, "ktpu-sim: error: %s: %s\n", p, err);
            return false;
        }
        if (entry != KTPU_RAM_BASE && !opt_.boot)
            std::fprintf(stderr, "ktpu-sim: warning: %s: entry 0x%08x, but the CPU starts at 0x%08x\n", p,
                         (unsigned)entry, (unsigned)KTPU_RAM_BASE);
    }
    if (opt_.timeline) {
        if (!(timeline_ = ktpu_timeline_new(out_.timeline.f, KTPU_SIM_CLUSTERS))) die("%s", "out of memory");
        for (const char *p : progs)
            if (ktpu_timeline_add_elf(timeline_, p, err, sizeof err)) {
                std::fprintf(stderr, "ktpu-sim: error: --timeline: %s: %s\n", p, err);
                return false;
            }
    }
    bool ram_loaded = false;
    for (uint32_t b = 0; b < KTPU_RAM_BYTES && !ram_loaded; b++) ram_loaded = ram.set[b];
    if (!ram_loaded)
        std::fprintf(stderr, "ktpu-sim: warning: %s: no segment in local RAM (0x%08x..0x%08x): the "
                             "CPU starts at 0x%08x in RAM this program never wrote\n",
                     opt_.elf ? opt_.elf : "the boot image", (unsigned)KTPU_RAM_BASE,
                     (unsigned)(KTPU_RAM_BASE + KTPU_RAM_BYTES - 1), (unsigned)KTPU_RAM_BASE);
    if (opt_.lockstep && !lockstep_.start(progs, dram_scope_)) return false;
    if (lockstep_.on() || timeline_) ktpu_rvfi_set_sink(on_retire, this);
    return true;
}

void RtlRun::on_retire(void *ctx, const ktpu_rvfi *r)
{
    RtlRun *run = static_cast<RtlRun *>(ctx);
    if (run->lockstep_.on()) run->lockstep_.check(r);
    if (run->timeline_) ktpu_timeline_pc(run->timeline_, run->cycles_, r->pc);
}

void RtlRun::tick()
{
    bool in_reset = reset_ticks_ == UINT64_MAX;
    bool dump = tfp_ && ticks_ - (in_reset ? 0 : reset_ticks_) >= opt_.trace_from &&
                (in_reset ? opt_.trace_from == 0 : ticks_ - reset_ticks_ <= opt_.trace_to);
    top_->clk_i = 0;
    top_->eval();
    if (dump) tfp_->dump(ticks_ * kClockPeriodPs);
    top_->clk_i = 1;
    top_->eval();
    if (dump) tfp_->dump(ticks_ * kClockPeriodPs + kClockPeriodPs / 2);
    ctx_->timeInc(1);
    ticks_++;
}

// One UART bit time: the serial port is clocked once per cycle.
void RtlRun::serial_tick()
{
    top_->uart_rxd_i = line_.rxd(top_->uart_rts_o, [&] {
        if (pending_rx_ == EOF && !(cycles_ & 63)) pending_rx_ = uart_.next();
        return pending_rx_ != EOF;
    }, [&] { int b = pending_rx_; pending_rx_ = uart_.next(); return b; });
    tick();
    int b = line_.txd(top_->uart_txd_o);
    if (b >= 0) {
        std::fputc(b, stdout);
        uart_.tx((uint8_t)b);
    }
}

// Reset, held while the RAM image is clocked in word by word.
void RtlRun::reset(const RamImage &ram)
{
    top_->rst_i = 1;
    top_->ld_valid_i = 0;
    top_->uart_rxd_i = 1;
    top_->mbox_resp_i = 0;
    top_->mem_win_base_i = (uint32_t)opt_.win[0];
    top_->mem_win_limit_i = (uint32_t)opt_.win[1];
    top_->cl_hold_i = 0;
    for (int i = 0; i < 4; i++) tick();
    for (uint32_t w = 0; w < KTPU_RAM_BYTES / 4; w++) {
        uint32_t be = 0, data = 0;
        for (int b = 0; b < 4; b++)
            if (ram.set[w * 4 + b]) {
                be |= 1u << b;
                data |= (uint32_t)ram.bytes[w * 4 + b] << (8 * b);
            }
        if (!be) continue;
        top_->ld_valid_i = 1;
        top_->ld_addr_i = KTPU_RAM_BASE + 4 * w;
        top_->ld_be_i = be;
        top_->ld_data_i = data;
        tick();
    }
    top_->ld_valid_i = 0;
    for (int i = 0; i < 4; i++) tick();
    top_->rst_i = 0;
    reset_ticks_ = ticks_;
}

bool RtlRun::cycle()
{
    if (opt_.hold_pct) top_->cl_hold_i = hold_.next();
    serial_tick();
    cycles_++;
    const uint32_t *act = top_->cl_act_o.data();
    busy_.cycle((act[0] & idle_mask_) != idle_mask_);
    if (timeline_) ktpu_timeline_cycle(timeline_, cycles_, act);
    if (top_->mbox_valid_o) {
        std::fflush(stdout);   // the program's output so far, before the harness's
        switch (top_->mbox_cmd_o) {
        case KTPU_MBOX_CMD_PRINT_WORD: std::fprintf(stderr, "ktpu-sim: mailbox: 0x%08x\n", top_->mbox_arg0_o); break;
        case KTPU_MBOX_CMD_ECHO: top_->mbox_resp_i = top_->mbox_arg0_o + top_->mbox_arg1_o; break;
        case KTPU_MBOX_CMD_TILE:
            if (opt_.gemm()) {
                gemm_.tile(top_->mbox_arg0_o, top_->mbox_arg1_o);
                break;
            }
            [[fallthrough]];
        default: std::fprintf(stderr, "ktpu-sim: mailbox: unknown command %u\n", top_->mbox_cmd_o); break;
        }
    }
    if (lockstep_.mismatch()) return true;
    if (top_->sim_exit_valid_o) {
        if (top_->sim_exit_be_o != 0xFu) bad_exit_be_ = top_->sim_exit_be_o;
        else status_ = (int)top_->sim_exit_code_o;
        return true;
    }
    if (progress_.due(cycles_)) {
        char more[64] = "";
        if (opt_.gemm()) gemm_.progress(more, sizeof more);
        progress_.print(cycles_, ktpu_rvfi_retired(), more);
    }
    return false;
}

int RtlRun::run(const std::vector<const char *> &progs)
{
    dram_scope_ = svGetScopeFromName("TOP.ktpu_sim_top.u_dram");   // the DRAM backdoor's
    svSetScope(dram_scope_);
    if (opt_.gemm()) gemm_.place({bd_write, bd_read, nullptr, ktpu_dram_bd_bytes()}, KTPU_SIM_CLUSTERS);
    auto ram = std::make_unique<RamImage>();
    std::memset(ram->set, 0, sizeof ram->set);
    if (!load(progs, *ram)) return kExitHarness;
    if (opt_.uart_in) uart_.open_file(opt_.uart_in);
    if (opt_.uart_pty) uart_.open_pty(opt_.uart_pty);
    reset(*ram);

    if (opt_.uart_pty) uart_.wait_first(60);
    pending_rx_ = uart_.next();
    auto wall0 = std::chrono::steady_clock::now();
    install_signals();
    bool gdb_killed = false;
    if (opt_.gdb_port >= 0)
        gdb_killed = lockstep_.serve_gdb(opt_, [this] { return cycle(); }, cycles_,
                                         [this] { return bad_exit_be_ ? kExitHarness : status_; });
    while (status_ < 0 && !bad_exit_be_ && !lockstep_.mismatch() && !gdb_killed && cycles_ < opt_.max_cycles &&
           !g_signal)
        if (cycle()) break;
    busy_.stop();
    // The bytes stored before SIM_EXIT are still on the line: let them out
    // (the program runs on meanwhile, as on a board; cycles stays at the exit).
    if (status_ >= 0 || bad_exit_be_)
        for (unsigned i = 0; i < SerialLine::kDrainCycles; i++) serial_tick();
    std::fflush(stdout);
    close_records();
    if (g_signal) return stopped(cycles_, ktpu_rvfi_retired(), opt_.trace);
    if (gdb_killed) return kExitCheck;
    return outcome(seconds_since(wall0));
}

// The waveform and the timeline are kept whatever the outcome: they are how
// a failure is read.
void RtlRun::close_records()
{
    char oerr[KTPU_OUT_ERR_LEN];
    if (tfp_) {
        tfp_->close();
        if (ktpu_out_commit(&out_.trace, oerr)) std::fprintf(stderr, "ktpu-sim: error: %s\n", oerr);
    }
    if (timeline_) {
        long events = ktpu_timeline_end(timeline_, cycles_);
        timeline_ = nullptr;
        if (events < 0) {
            std::fprintf(stderr, "ktpu-sim: error: writing %s failed\n", opt_.timeline);
            ktpu_out_abort(&out_.timeline);
        } else if (ktpu_out_commit(&out_.timeline, oerr)) std::fprintf(stderr, "ktpu-sim: error: %s\n", oerr);
        else std::fprintf(stderr, "ktpu-sim: timeline: %ld events in %s\n", events, opt_.timeline);
    }
    top_->final();
}

// The run's outcome, in this order: lockstep, AXI4, SIM_EXIT, the GEMM's checks.
int RtlRun::outcome(double wall)
{
    uint64_t retired = ktpu_rvfi_retired();
    if (opt_.stats)
        std::fprintf(stderr, "ktpu-sim: %" PRIu64 " cycles, %" PRIu64 " instructions retired, CPI %.3f\n", cycles_,
                     retired, retired ? (double)cycles_ / (double)retired : 0.0);
    if (lockstep_.on()) lockstep_.report();
    if (lockstep_.mismatch()) return kExitLockstep;
    if (top_->axi_err_o) {
        // the DRAM answered an AXI burst with SLVERR/DECERR or a wrong ID: what the run computed is suspect
        std::fprintf(stderr, "ktpu-sim: error: %u AXI4 DRAM responses were not OKAY or carried a wrong ID\n",
                     (unsigned)top_->axi_err_o);
        return kExitHarness;
    }
    if (bad_exit_be_) return bad_exit(bad_exit_be_, cycles_);
    if (status_ < 0) return timed_out(opt_.max_cycles, opt_.gemm() ? "; no C written" : "");
    if (opt_.stats)
        std::fprintf(stderr,
                     "ktpu-sim: %.2f s of host time, %.0f simulated cycles per second; %" PRIu64
                     " cycles with a cluster busy, %.0f a second\n",
                     wall, wall > 0 ? (double)cycles_ / wall : 0.0, busy_.cycles(), busy_.per_second());
    if (!opt_.gemm()) return exit_status(status_);
    ktpu_gemm_traffic t = {};
    t.sim_cycles = cycles_;
    t.agent_rd[0] = top_->agent_rd_beats_o;
    t.agent_wr[0] = top_->agent_wr_beats_o;
    t.agent_rd[1] = top_->agent1_rd_beats_o;
    t.agent_wr[1] = top_->agent1_wr_beats_o;
    t.mem_ports = KTPU_SIM_MEM_PORTS;
    t.cpu_rd = top_->cpu_rd_beats_o;
    t.cpu_wr = top_->cpu_wr_beats_o;
    t.stray_rq = top_->stray_rq_o;
    t.stray_rs = top_->stray_rs_o;
    t.win_err = top_->mem_win_err_o;
    t.bad_req = top_->mem_bad_req_o;
    return gemm_.finish(t, status_, wall, busy_.per_second(), out_.c, out_.csv);
}

}  // namespace

int run_rtl(Options &opt, const std::vector<const char *> &progs, const char *argv0)
{
    RtlRun run(opt, argv0);
    return run.run(progs);
}

}  // namespace ktpu_sim
