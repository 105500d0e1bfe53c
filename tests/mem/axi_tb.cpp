// Bench for the DRAM port over AXI4 (tests/mem/axi_top.sv: ktpu_axi_bridge,
// the protocol checker, ktpu_dram_axi, the DRAM model) against the SoC's
// native DRAM contract (rtl/mem/ktpu_dram.sv's header) that the bridge must
// keep: every request answered once, in acceptance order, with its tag; a
// read sees every write accepted before it and none after; a write's answer
// has zero data and comes only once DRAM holds the write (read through the
// model's backdoor when the acked write is its beat's latest). A byte-array
// model applies each write at acceptance and predicts each read then. The traffic is runs of consecutive beats (which
// the bridge turns into bursts) of random direction, length and gaps, over
// a few small hot regions so reads and writes of the same bytes overlap in
// flight, under random back-pressure on all five AXI channels and on the
// native responses. The checker in the design stops the run on any AXI4
// rule broken. Then the throughput phases: streams of reads, of writes,
// interleaved runs of both, and reads and writes of every other beat (one
// beat a burst), with nothing stalled, must move close to one beat a cycle;
// the beats per burst and a lone read's round trip are printed.
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "Vaxi_top.h"
#include "Vaxi_top__Dpi.h"
#include "svdpi.h"
#include "verilated.h"
#include "ktpu_tb.h"

namespace {
// 1 MiB (axi_top's AddrBits): room for strided streams over many 4 KiB
// pages; the random traffic stays in the first 16 KiB, where its runs
// collide (kRandBeats)
const int kBits = 20, kBeats = 1 << (kBits - 5), kRandBeats = 512;
// a write's expected answer also carries what it wrote: when it is the
// latest write accepted to its beat, its ack may come only once DRAM holds it
struct Exp { uint8_t tag; bool write; uint32_t beat, strb; unsigned long long serial; uint8_t data[32], wrote[32]; };

struct Bench {
    std::unique_ptr<VerilatedContext> ctx;
    std::unique_ptr<Vaxi_top> top;
    std::vector<uint8_t> mem = std::vector<uint8_t>(kBeats * 32, 0);
    std::deque<Exp> exp;
    std::vector<unsigned long long> last_write = std::vector<unsigned long long>(kBeats, 0);   // its serial, 0: none
    unsigned long long serial = 0;   // writes accepted
    uint8_t next_tag = 0;
    unsigned long long cycle = 0, answered = 0;

    void tick() { top->clk_i = 0; top->eval(); top->clk_i = 1; top->eval(); cycle++; }

    // one cycle: offer the request (if any), take a response if rsp_ready;
    // returns whether the request was accepted
    bool step(bool valid, bool write, uint32_t beat, const uint8_t *data, uint32_t strb, unsigned stall,
              bool rsp_ready) {
        top->stall_i = stall;
        top->req_valid_i = valid;
        top->req_write_i = write;
        top->req_addr_i = beat << 5;
        for (int w = 0; w < 8; w++) {
            uint32_t v;
            std::memcpy(&v, data + 4 * w, 4);
            top->req_wdata_i[w] = v;
        }
        top->req_wstrb_i = strb;
        top->req_tag_i = next_tag;
        top->rsp_ready_i = rsp_ready;
        top->eval();
        if (top->rsp_valid_o && rsp_ready) {
            answered++;
            if (exp.empty()) {
                CHECK(false, "cycle %llu: a response with nothing outstanding", cycle);
            } else {
                Exp e = exp.front();
                exp.pop_front();
                uint8_t d[32];
                for (int w = 0; w < 8; w++) {
                    uint32_t v = top->rsp_rdata_o[w];
                    std::memcpy(d + 4 * w, &v, 4);
                }
                CHECK(top->rsp_tag_o == e.tag, "cycle %llu: response tag %u, expected %u (order)", cycle,
                      top->rsp_tag_o, e.tag);
                CHECK(!std::memcmp(d, e.data, 32), "cycle %llu tag %u: data differs", cycle, e.tag);
                if (e.write && last_write[e.beat] == e.serial)   // DRAM itself (backdoor) must hold it by now
                    for (int i = 0; i < 32; i++)
                        if ((e.strb >> i) & 1) {
                            uint32_t a = e.beat * 32 + (uint32_t)i;
                            uint8_t got = (uint8_t)(ktpu_dram_bd_read32(a & ~3u) >> (8 * (a & 3)));
                            CHECK(got == e.wrote[i], "cycle %llu tag %u: write acknowledged before DRAM holds it "
                                  "(beat %u byte %d)", cycle, e.tag, e.beat, i);
                        }
            }
        }
        bool acc = valid && top->req_ready_o;
        if (acc) {
            Exp e;
            e.tag = next_tag++;
            e.write = write, e.beat = beat, e.strb = write ? strb : 0, e.serial = 0;
            std::memcpy(e.wrote, data, 32);
            uint8_t *m = &mem[beat * 32];
            if (write) {
                for (int i = 0; i < 32; i++) if ((strb >> i) & 1) m[i] = data[i];
                std::memset(e.data, 0, 32);
                last_write[beat] = e.serial = ++serial;
            } else {
                std::memcpy(e.data, m, 32);
            }
            exp.push_back(e);
        }
        tick();
        return acc;
    }

    void drain(const char *what) {
        uint8_t z[32] = {};
        for (int c = 0; c < 2000 && !(exp.empty() && top->idle_o); c++) step(false, false, 0, z, 0, 0, true);
        CHECK(exp.empty(), "%s: %zu responses never came", what, exp.size());
        CHECK(top->idle_o, "%s: bridge not idle after its last response", what);
    }

    // Cycles with nothing offered: the port's clock gate must close in them
    // (checked at the end), and the next request wakes it.
    void idle(int cycles) {
        uint8_t z[32] = {};
        for (int c = 0; c < cycles; c++) step(false, false, 0, z, 0, 0, true);
    }
};

// a run of consecutive beats of one direction
struct Run { bool w; uint32_t beat; int left; };

// streams runs until `beats` are accepted with nothing stalled; returns beats
// a cycle. Modes: 0 reads, 1 writes, 2 runs of 16 of each in turn, 3 reads
// and 4 writes of every other beat (each beat its own burst: what the
// memory agent's strided rows and C tiles look like), 5 reads 2 KiB apart
// (rows of K = 2048 MXFP7: two beats a 4 KiB page, so at the DRAM's latency
// the bridge needs dozens of pages in flight).
double stream(Bench &b, int mode, int beats, unsigned *aw, unsigned *ar) {
    uint8_t d[32];
    for (int i = 0; i < 32; i++) d[i] = (uint8_t)i;
    b.idle(8);
    unsigned aw0 = b.top->aw_bursts_o, ar0 = b.top->ar_bursts_o;
    unsigned long long c0 = b.cycle;
    const uint32_t half = kBeats / 2, step = mode == 5 ? 64 : mode >= 3 ? 2 : 1;
    Run r{mode == 1 || mode == 4, 0, 0};
    uint32_t rd_next = 0, wr_next = half;
    for (int done = 0; done < beats;) {
        if (b.cycle - c0 > 20ull * (unsigned)beats) {   // a hung bridge fails, never spins
            CHECK(false, "stream: %d of %d beats accepted in %llu cycles", done, beats, b.cycle - c0);
            break;
        }
        if (r.left == 0) {
            r.w = mode == 2 ? !r.w : mode == 1 || mode == 4;
            r.beat = r.w ? wr_next : rd_next;   // reads in the low half, writes in the high: no overlap
            r.left = mode == 2 ? 16 : 1 << 30;
        }
        if (b.step(true, r.w, r.beat, d, 0xFFFFFFFFu, 0, true)) {
            done++;
            r.left--;
            r.beat = r.w ? (r.beat + step - half) % half + half : (r.beat + step) % half;
            (r.w ? wr_next : rd_next) = r.beat;
        }
    }
    b.drain("stream");
    *aw = b.top->aw_bursts_o - aw0;
    *ar = b.top->ar_bursts_o - ar0;
    return (double)beats / (double)(b.cycle - c0);
}
}  // namespace

int main(int argc, char **argv)
{
    Bench b;
    uint64_t seed = 1;
    tb_args(argc, argv, "axi_tb", {{"--seed", &seed}});
    b.ctx = tb_context(argc, argv, seed);
    tb_seed(seed, 3);
    b.top = std::make_unique<Vaxi_top>(b.ctx.get(), "TOP");
    svSetScope(svGetScopeFromName("TOP.axi_top.u_dram"));
    b.top->rst_i = 1;
    for (int i = 0; i < 4; i++) b.tick();
    b.top->rst_i = 0;

    // fill: every beat written once, in order (so every read is predicted)
    uint8_t d[32];
    for (uint32_t beat = 0; beat < (uint32_t)kBeats;) {
        for (int i = 0; i < 32; i++) d[i] = (uint8_t)rnd();
        int tries = 0;
        while (!b.step(true, true, beat, d, 0xFFFFFFFFu, 0, true) && ++tries < 1000) {}
        CHECK(tries < 1000, "fill: beat %u never accepted", beat);
        if (tries >= 1000) break;
        beat++;
    }
    b.drain("fill");

    // random runs over hot regions, everything stalled at random
    const uint32_t hot[3] = {0, 125, (uint32_t)kRandBeats - 20};   // 125: runs cross a 4 KiB page at 128
    Run r{false, 0, 0};
    unsigned stall_pct = 0;
    for (long c = 0; c < 150000; c++) {
        if (c % 10000 == 0) stall_pct = rnd() % 60;   // stretches of light and heavy back-pressure
        if (r.left == 0) {
            r.w = chance(45);
            r.left = 1 + (int)(rnd() % 24);
            r.beat = chance(85) ? hot[rnd() % 3] + rnd() % 16 : rnd() % kRandBeats;
        }
        bool offer = !chance(15);   // gaps close open bursts
        for (int i = 0; i < 32; i++) d[i] = (uint8_t)rnd();
        uint32_t strb = chance(50) ? 0xFFFFFFFFu : rnd();
        unsigned stall = 0;
        for (int ch = 0; ch < 5; ch++) if (chance(stall_pct)) stall |= 1u << ch;
        if (b.step(offer, r.w, r.beat % kRandBeats, d, strb, stall, !chance(stall_pct))) {
            r.left--;
            r.beat = (r.beat + 1) % kRandBeats;
        }
    }
    b.drain("random");
    unsigned long long random_answers = b.answered;

    // the read-data FIFO full: reads keep coming while no response is taken;
    // the bridge must stop issuing once RdDepth (128) beats are owed (more
    // would overflow the FIFO) and still answer every read right after. A
    // lone read first (a one-beat burst in another page), then runs of 16:
    // after it and seven bursts 15 beats of room are left, one short of the
    // next burst
    {
        uint8_t z[32] = {};
        int accepted = 0;
        for (int c = 0; c < 3000; c++)
            if (b.step(accepted < 160, false, accepted ? (uint32_t)accepted - 1 : 300u, z, 0, 0, false)) accepted++;
        CHECK(accepted == 160, "read FIFO full: %d of 160 reads accepted", accepted);
        CHECK(b.top->ar_bursts_o > 0 && b.top->rsp_valid_o, "read FIFO full: no response waiting");
        b.drain("read FIFO full");
    }

    const char *names[6] = {"reads", "writes", "reads and writes, runs of 16", "reads of every other beat",
                            "writes of every other beat", "reads 2 KiB apart"};
    const double floor_[6] = {0.95, 0.95, 0.90, 0.95, 0.95, 0.95};
    const unsigned min_burst[6] = {15, 15, 15, 1, 1, 1};
    for (int mode = 0; mode < 6; mode++) {
        unsigned aw, ar;
        double rate = stream(b, mode, 8192, &aw, &ar);
        std::printf("axi: stream of %s: %.3f beats a cycle, %u AW %u AR bursts (%.1f beats a burst)\n", names[mode],
                    rate, aw, ar, 8192.0 / (aw + ar));
        CHECK(rate >= floor_[mode], "stream of %s: %.3f beats a cycle, below %.2f", names[mode], rate, floor_[mode]);
        CHECK(aw + ar > 0 && 8192 / (aw + ar) >= min_burst[mode], "stream of %s: %u bursts for 8192 beats", names[mode],
              aw + ar);
    }
    // one read with the bridge idle: what a CPU load pays on top of the DRAM's latency
    {
        uint8_t z[32] = {};
        b.idle(8);
        unsigned long long c0 = b.cycle, got = b.answered;
        bool sent = false;
        while (b.answered == got && b.cycle - c0 < 1000) sent = b.step(!sent, false, 3, z, 0, 0, true) || sent;
        std::printf("axi: a lone read is answered %llu cycles after it is offered\n", b.cycle - c0 - 1);
        // the DRAM's latency plus the bridge's 5 (docs/soc.md): the port's
        // clock gate, closed before it, costs the read nothing
        const char *lat = b.ctx->commandArgsPlusMatch("ktpu_dram_latency=");
        unsigned long long want = (lat[0] ? std::strtoull(lat + 19, nullptr, 10) : 64) + 5;
        CHECK(b.cycle - c0 - 1 == want, "a lone read took %llu cycles, not the DRAM's latency + 5 = %llu",
              b.cycle - c0 - 1, want);
        b.drain("lone read");
    }
    CHECK(b.top->axi_err_o == 0, "%u AXI errors counted", b.top->axi_err_o);
    // the port's clock gate closed between the phases (drains, the lone read's wait)
    CHECK(b.top->gated_o > 0, "clock gate: never closed");
    std::printf("axi: clock gate: %u cycles gated\n", b.top->gated_o);
    b.top->final();
    std::printf("axi: %llu responses (%llu under random traffic), %llu checks, %llu failed\n", b.answered,
                random_answers, checks, fails);
    return fails ? 1 : 0;
}
