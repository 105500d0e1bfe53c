// Bench for the 8N1 serial port (rtl/soc/ktpu_uart.sv, docs/soc.md "UART"),
// built once per baud divider (-GClksPerBit=N -CFLAGS -DCLKS=N). The line
// model here is the bench's own (not the co-simulation harness's):
//   - transmit: random bytes at random moments; every frame on txd must be
//     exactly start, 8 data bits LSB first, stop, CLKS cycles each, the line
//     high between frames, and tx_ready only while idle;
//   - one inverted cycle in the middle of every bit: the majority wins;
//   - receive: random bytes sent at baud errors of -2%..+2% (0 at the
//     smallest divider) with random gaps, read back at random moments while
//     honouring rts: every byte arrives, in order, no error counted;
//   - a frame with a low stop bit: dropped, framing count + 1, and after the
//     break the next byte arrives; a low pulse shorter than half a bit is no
//     frame at all; three bytes while nobody reads and rts is ignored: the
//     first two are kept (one in the register after the UART, as in the
//     SoC), the third dropped, overrun count + 1; rts low while both are
//     full; and a reader slower than the line loses nothing under rts.
#include <cstdint>
#include <cstdio>
#include <deque>
#include <memory>

#include "Vktpu_uart.h"
#include "verilated.h"
#include "ktpu_tb.h"

namespace {
std::unique_ptr<Vktpu_uart> top;
uint64_t cyc;
// The byte side is what the SoC puts there: a one-byte register (UART_RX)
// that takes a byte whenever it is empty, and a reader (the program) that
// empties it, each cycle with probability read_pct (never while reader_on
// is false).
std::deque<int> got;          // bytes the reader took
bool reader_on = true;
unsigned read_pct = 100;
bool reg_full = false;
int reg_data;

void tick()
{
    top->rx_ready_i = !reg_full;
    top->eval();
    bool take = top->rx_valid_o && top->rx_ready_i;
    int data = top->rx_data_o;
    top->clk_i = 0;
    top->eval();
    top->clk_i = 1;
    top->eval();
    cyc++;
    if (reg_full && reader_on && chance(read_pct)) { got.push_back(reg_data); reg_full = false; }
    if (take) { reg_full = true; reg_data = data; }
}

// Drive rxd for `cycles` cycles at `level`.
void hold_line(int level, double cycles)
{
    static double frac = 0;   // carries the fractional cycle across calls
    frac += cycles;
    top->rxd_i = level;
    while (frac >= 1.0) { tick(); frac -= 1.0; }
}

// One frame at `bit` cycles a bit (not an integer when the sender's baud is off).
void send_frame(int byte, double bit, int stop = 1)
{
    while (!top->rts_o) { top->rxd_i = 1; tick(); }
    hold_line(0, bit);
    for (int i = 0; i < 8; i++) hold_line((byte >> i) & 1, bit);
    hold_line(stop, bit);
}

void wait_rx(int cycles) { top->rxd_i = 1; for (int i = 0; i < cycles; i++) tick(); }

void test_transmit(int n)
{
    std::deque<int> sent;
    int frames = 0;
    top->rxd_i = 1;
    // decoder state: cycles since the start edge of the current frame
    long since = -1;
    unsigned frame = 0;
    int prev = 1;
    bool pending = false;
    int byte = 0;
    while (frames < n) {
        if (!pending && chance(30)) { byte = rnd() & 0xFF; pending = true; }
        top->tx_valid_i = pending;
        top->tx_data_i = byte;
        bool took = pending && top->tx_ready_o;
        CHECK(top->tx_ready_o == (since < 0), "cycle %llu: tx_ready %d mid-frame", (unsigned long long)cyc,
              top->tx_ready_o);
        tick();
        if (took) { sent.push_back(byte); pending = false; }
        int l = top->txd_o;
        if (since < 0) {
            if (l == 0) { since = 0; frame = 0; }
        } else {
            since++;
            // each bit must hold its level for all CLKS cycles
            unsigned idx = (unsigned)(since / CLKS);
            if (idx < 10 && since % CLKS == CLKS / 2) frame |= (unsigned)l << idx;
            if (since % CLKS != 0 && idx < 10) CHECK(l == prev, "cycle %llu: txd changed mid-bit", (unsigned long long)cyc);
            if (since == 10 * CLKS) {   // the cycle after the stop bit: idle, or the next start
                CHECK(l == 1, "cycle %llu: no idle cycle after a frame", (unsigned long long)cyc);
                CHECK((frame & 1) == 0 && (frame >> 9) == 1, "frame 0x%03x: bad start or stop", frame);
                CHECK(!sent.empty() && (int)((frame >> 1) & 0xFF) == sent.front(), "tx frame %d: 0x%02x, expected 0x%02x",
                      frames, (frame >> 1) & 0xFF, sent.empty() ? -1 : sent.front());
                if (!sent.empty()) sent.pop_front();
                frames++;
                since = -1;
            }
        }
        prev = l;
    }
    top->tx_valid_i = 0;
    for (int i = 0; i < 12 * CLKS; i++) { tick(); CHECK(top->txd_o == 1, "txd not idle"); }
}

void test_receive(int n, double err, unsigned pct)
{
    std::deque<int> sent;
    got.clear();
    reader_on = true;
    read_pct = pct;
    double bit = CLKS * (1.0 + err);
    for (int i = 0; i < n; i++) {
        int b = rnd() & 0xFF;
        send_frame(b, bit);
        sent.push_back(b);
        if (chance(30)) hold_line(1, rnd() % (3 * CLKS));
    }
    wait_rx(4 * CLKS);
    read_pct = 100;
    wait_rx(8);
    CHECK(got.size() == sent.size(), "err %+.1f%%: %zu bytes received of %zu", 100 * err, got.size(), sent.size());
    for (size_t i = 0; i < got.size() && i < sent.size(); i++)
        CHECK(got[i] == sent[i], "err %+.1f%%: byte %zu is 0x%02x, sent 0x%02x", 100 * err, i, got[i], sent[i]);
    CHECK(top->frame_err_o == 0 && top->overrun_o == 0, "err %+.1f%%: errors counted (framing %u, overrun %u)",
          100 * err, top->frame_err_o, top->overrun_o);
}

void test_errors()
{
    got.clear();
    read_pct = 100;
    unsigned f0 = top->frame_err_o, o0 = top->overrun_o;
    // low stop bit, then a break of two bits, then a good byte
    send_frame(0x5A, CLKS, 0);
    hold_line(0, 2 * CLKS);
    wait_rx(2 * CLKS);
    send_frame(0xC3, CLKS);
    wait_rx(2 * CLKS);
    CHECK(top->frame_err_o == f0 + 1, "framing count %u, expected %u", top->frame_err_o, f0 + 1);
    CHECK(got.size() == 1 && got[0] == 0xC3, "after the framing error: %zu bytes, first 0x%02x (want 0xc3)",
          got.size(), got.empty() ? -1 : got[0]);
    // a glitch: low for fewer cycles than half a bit
    got.clear();
    hold_line(0, CLKS / 2 - 1 > 0 ? CLKS / 2 - 1 : 1);
    wait_rx(12 * CLKS);
    CHECK(got.empty() && top->frame_err_o == f0 + 1, "a glitch made a byte or an error");
    // one wrong cycle in the middle of every bit: each bit's majority still wins
    got.clear();
    for (int k = 0; k < 20; k++) {
        int b = rnd() & 0xFF;
        while (!top->rts_o) wait_rx(1);
        for (int i = 0; i < 10; i++) {
            int lv = i == 0 ? 0 : i == 9 ? 1 : (b >> (i - 1)) & 1;
            hold_line(lv, CLKS / 2);
            hold_line(!lv, 1);
            hold_line(lv, CLKS - CLKS / 2 - 1);
        }
        wait_rx(CLKS + 4);   // the synchroniser and the vote lag the line
        CHECK(got.size() == 1 && got[0] == b, "bit noise: %zu bytes, first 0x%02x, sent 0x%02x", got.size(),
              got.empty() ? -1 : got[0], b);
        got.clear();
    }
    // overrun: nobody reads, the sender ignores rts. The register after the
    // UART takes the first byte, the UART holds the second (rts low from
    // then on), the third is dropped and counted.
    reader_on = false;
    auto raw = [](int b) {
        hold_line(0, CLKS);
        for (int i = 0; i < 8; i++) hold_line((b >> i) & 1, CLKS);
        hold_line(1, CLKS);
    };
    raw(0x11);
    wait_rx(CLKS);
    CHECK(top->rts_o && !top->rx_valid_o && reg_full, "one byte taken on: rts low or the byte not passed on");
    raw(0x22);
    wait_rx(CLKS);
    CHECK(!top->rts_o && top->rx_valid_o, "two bytes held leave rts high or rx_valid low");
    raw(0x33);
    wait_rx(CLKS);
    CHECK(top->overrun_o == o0 + 1, "overrun count %u, expected %u", top->overrun_o, o0 + 1);
    reader_on = true;
    read_pct = 100;
    wait_rx(4);
    CHECK(got.size() == 2 && got[0] == 0x11 && got[1] == 0x22,
          "overrun kept %zu bytes, 0x%02x 0x%02x (want the first two, 0x11 0x22)", got.size(),
          got.size() > 0 ? got[0] : -1, got.size() > 1 ? got[1] : -1);
    CHECK(top->rts_o, "rts low with nothing held");
}
}  // namespace

int main(int argc, char **argv)
{
    uint64_t seed = 3;
    tb_args(argc, argv, "uart_tb", {{"--seed", &seed}});
    auto ctx = tb_context(argc, argv, seed);
    tb_seed(seed, CLKS);
    top = std::make_unique<Vktpu_uart>(ctx.get(), "TOP");
    top->rst_i = 1;
    top->rxd_i = 1;
    top->tx_valid_i = 0;
    for (int i = 0; i < 4; i++) tick();
    top->rst_i = 0;
    CHECK(top->txd_o == 1 && top->frame_err_o == 0 && top->overrun_o == 0 && top->rts_o, "state after reset");

    test_transmit(300);
    if (CLKS >= 8) {
        for (double e : {-0.02, -0.01, 0.0, 0.01, 0.02}) test_receive(200, e, 20);
    } else {
        test_receive(300, 0.0, 20);
    }
    // a reader slower than the line: only flow control keeps every byte
    test_receive(100, 0.0, 1);
    test_errors();
    top->final();
    top.reset();   // before the context it belongs to
    std::printf("uart (%d clocks a bit): %llu checks, %llu failed\n", CLKS, checks, fails);
    return fails ? 1 : 0;
}
