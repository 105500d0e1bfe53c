// What a ktpu-sim run needs from the host, whichever model runs it (the RTL
// or --iss): the UART's far end, the progress line, SIGINT/SIGTERM, and the
// messages and statuses a run ends with (ktpu_sim_host.cpp).
#ifndef KTPU_SIM_HOST_H
#define KTPU_SIM_HOST_H

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <ctime>
#include <string>

namespace ktpu_sim {

// ---- the UART's far end: nothing, a file (--uart-in) or a pseudo-terminal
// (--uart-pty) ----
class UartLink {
public:
    UartLink() = default;
    UartLink(const UartLink &) = delete;
    UartLink &operator=(const UartLink &) = delete;
    ~UartLink();
    void open_file(const char *path);
    // A new pseudo-terminal; its path is written to name_file.
    void open_pty(const char *name_file);
    // The clock waits for the host's first byte (a real board's UART would
    // not, but a simulation a thousand times slower than one must).
    void wait_first(int seconds);
    // The next byte for the receiver, or EOF (none now).
    int next();
    void tx(uint8_t b);

private:
    std::FILE *in_ = nullptr;
    int pty_ = -1;
};

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
    void print(uint64_t cycles, uint64_t retired, const char *more) const;

private:
    uint64_t seconds_;
    std::time_t last_ = std::time(nullptr);
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// Seconds of host time since `since`.
double seconds_since(std::chrono::steady_clock::time_point since);

// Host time spent on the cycles in which a cluster was working: the
// simulator's speed during a GEMM, which a whole run's rate hides behind the
// CPU-only cycles around the job (boot, job set-up, the checks' wait), run
// many times faster with the clusters' clocks stopped. The clock is read
// only where busy changes.
class BusyClock {
public:
    void cycle(bool busy)
    {
        cycles_ += busy;
        if (busy != on_) flip();
    }
    void stop()
    {
        if (on_) flip();
    }
    uint64_t cycles() const { return cycles_; }
    double per_second() const { return seconds_ > 0 ? (double)cycles_ / seconds_ : 0.0; }

private:
    void flip()
    {
        auto now = std::chrono::steady_clock::now();
        if (on_) seconds_ += std::chrono::duration<double>(now - since_).count();
        since_ = now;
        on_ = !on_;
    }
    bool on_ = false;
    uint64_t cycles_ = 0;
    double seconds_ = 0;
    std::chrono::steady_clock::time_point since_;
};

// SIGINT / SIGTERM end the run at the next cycle, as a time-out does: the
// waveform is closed (readable) and the cycles are printed; a second one
// kills at once (SA_RESETHAND). g_signal is the signal caught, 0 if none.
extern volatile std::sig_atomic_t g_signal;
void install_signals();

// ---- how a run ends: a message on stderr, the process's status ----
// "stopped by SIGINT at cycle N (...)": status 130 or 143
int stopped(uint64_t cycles, uint64_t retired, const char *trace);
// A SIM_EXIT store that was not a sw (byte lanes be): status 125.
int bad_exit(unsigned be, uint64_t cycles);
// No SIM_EXIT within the limit: status 124.
int timed_out(uint64_t max_cycles, const char *more);
// The program's SIM_EXIT status as the process's.
int exit_status(int status);

// The directory this program was run from (its sibling builds, fw/).
std::string exe_dir();

}  // namespace ktpu_sim
#endif
