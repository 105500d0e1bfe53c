// ktpu-sim's host side of a run (ktpu_sim_host.h).
#include "ktpu_sim_host.h"

#include <cinttypes>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

extern "C" {
#include "ktpu_out.h"
}
#include "ktpu_sim_opts.h"

namespace ktpu_sim {

UartLink::~UartLink()
{
    if (in_) std::fclose(in_);
    if (pty_ >= 0) close(pty_);
}

void UartLink::open_file(const char *path)
{
    in_ = std::fopen(path, "rb");
    if (!in_) die("cannot open %s", path);
}

void UartLink::open_pty(const char *name_file)
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

void UartLink::wait_first(int seconds)
{
    pollfd p = {pty_, POLLIN, 0};
    if (poll(&p, 1, seconds * 1000) <= 0 || !(p.revents & POLLIN))
        std::fprintf(stderr, "ktpu-sim: --uart-pty: nothing arrived in %d s; running\n", seconds);
}

int UartLink::next()
{
    if (in_) return std::fgetc(in_);
    if (pty_ < 0) return EOF;
    unsigned char b;
    return read(pty_, &b, 1) == 1 ? b : EOF;
}

void UartLink::tx(uint8_t b)
{
    if (pty_ >= 0 && write(pty_, &b, 1) != 1) { /* nobody is listening: dropped, as on a wire */ }
}

void Progress::print(uint64_t cycles, uint64_t retired, const char *more) const
{
    double s = seconds_since(start_);
    std::fprintf(stderr, "ktpu-sim: progress: %" PRIu64 " cycles (%.0f/s), %" PRIu64 " instructions retired%s\n",
                 cycles, s > 0 ? (double)cycles / s : 0.0, retired, more);
}

double seconds_since(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

volatile std::sig_atomic_t g_signal = 0;

static void on_signal(int sig) { g_signal = sig; }

void install_signals()
{
    struct sigaction sa = {};
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

int stopped(uint64_t cycles, uint64_t retired, const char *trace)
{
    std::fprintf(stderr, "ktpu-sim: stopped by %s at cycle %" PRIu64 " (%" PRIu64 " instructions retired)%s%s\n",
                 g_signal == SIGINT ? "SIGINT" : "SIGTERM", cycles, retired, trace ? "; waveform kept in " : "",
                 trace ? trace : "");
    return 128 + g_signal;
}

int bad_exit(unsigned be, uint64_t cycles)
{
    unsigned lanes = (be & 1u) + (be >> 1 & 1u) + (be >> 2 & 1u) + (be >> 3 & 1u);
    std::fprintf(stderr, "ktpu-sim: error: SIM_EXIT: a %u-byte store (%s, byte lanes 0x%x) at "
                         "cycle %" PRIu64 ": SPEC 2 defines SIM_EXIT as a 32-bit store (sw); "
                         "not taken as an exit status\n",
                 lanes, lanes == 1 ? "sb" : lanes == 2 ? "sh" : "?", be, cycles);
    return kExitHarness;
}

int timed_out(uint64_t max_cycles, const char *more)
{
    std::fprintf(stderr, "ktpu-sim: time-out: no SIM_EXIT within %" PRIu64 " cycles (--max-cycles)%s\n",
                 max_cycles, more);
    return kExitTimeout;
}

int exit_status(int status)
{
    if (status > 255) {
        std::fprintf(stderr, "ktpu-sim: program exit status %d does not fit a process status; exiting 255\n",
                     status);
        return 255;
    }
    return status;
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

}  // namespace ktpu_sim
