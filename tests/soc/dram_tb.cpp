// Bench for the DRAM model's contract (docs/soc.md): random traffic on two
// ports against a byte-array model, checked every cycle: ready, valid, tag
// and data exactly as the contract predicts (latency, order, write applied
// at acceptance, byte strobes, write acks with zero data, held responses,
// full queue, same-cycle port priority), plus the DPI backdoor.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <vector>

#include "Vdram_tb.h"
#include "Vdram_tb__Dpi.h"
#include "svdpi.h"
#include "verilated.h"
#include "ktpu_tb.h"

namespace {
const int kPorts = 2, kBeats = 1 << (12 - 5), kDepth = 16;
struct Rsp { uint8_t tag; uint8_t data[32]; uint64_t due; };
}  // namespace

int main(int argc, char **argv)
{
    uint64_t seed = 5;
    tb_args(argc, argv, "dram_tb", {{"--seed", &seed}});
    long latency = 9;   // the model's default; +ktpu_dram_latency=N sets both
    long slow_latency = -1;
    unsigned slow_ports = 0;   // +ktpu_dram_slow_ports=MASK (hex): these at +ktpu_dram_slow_latency=N
    for (int i = 1; i < argc; i++)
        if (std::sscanf(argv[i], "+ktpu_dram_latency=%ld", &latency) == 1 ||
            std::sscanf(argv[i], "+ktpu_dram_slow_ports=%x", &slow_ports) == 1 ||
            std::sscanf(argv[i], "+ktpu_dram_slow_latency=%ld", &slow_latency) == 1) {}
    long port_latency[kPorts];
    for (int p = 0; p < kPorts; p++) port_latency[p] = (slow_ports >> p) & 1 ? slow_latency : latency;
    auto ctx = tb_context(argc, argv, seed);
    tb_seed(seed, 1);
    auto top = std::make_unique<Vdram_tb>(ctx.get(), "TOP");
    svSetScope(svGetScopeFromName("TOP.dram_tb.u_dram"));

    std::vector<uint8_t> mem(kBeats * 32);
    // Backdoor: write a pattern, read it back through the backdoor.
    auto expect = [&](bool ok, const char *what, uint64_t cyc) {
        CHECK(ok, "cycle %llu: %s", (unsigned long long)cyc, what);
    };
    for (int w = 0; w < kBeats * 8; w++) {
        uint32_t v = rnd();
        ktpu_dram_bd_write32(4u * w, v);
        for (int b = 0; b < 4; b++) mem[4 * w + b] = (uint8_t)(v >> (8 * b));
    }
    for (int w = 0; w < kBeats * 8; w += 7) {
        uint32_t v = mem[4 * w] | mem[4 * w + 1] << 8 | mem[4 * w + 2] << 16 | (uint32_t)mem[4 * w + 3] << 24;
        expect(ktpu_dram_bd_read32(4u * w) == v, "backdoor read", 0);
    }
    expect(ktpu_dram_bd_bytes() == 4096u, "backdoor size", 0);
    expect(ktpu_dram_bd_read32(4096u) == 0u, "backdoor read past the end", 0);

    auto tick = [&]() { top->clk_i = 0; top->eval(); top->clk_i = 1; top->eval(); };
    top->rst_i = 1; top->req_valid_i = 0; top->rsp_ready_i = 0;
    for (int i = 0; i < 3; i++) tick();
    top->rst_i = 0;

    std::deque<Rsp> q[kPorts];
    uint64_t accepted = 0, responded = 0, full_seen = 0, held = 0;
    for (uint64_t cyc = 0; cyc < 40000; cyc++) {
        // Phase: bursts fill the queue (rsp_ready low), then drain.
        bool stall = (cyc / 500) % 3 == 1;
        uint8_t rv = 0, rw = 0, rr = 0;
        uint32_t addr[kPorts], strb[kPorts];
        uint8_t wd[kPorts][32], tag[kPorts];
        for (int p = 0; p < kPorts; p++) {
            if (rnd() % 4 != 0) rv |= 1 << p;
            if (rnd() % 2) rw |= 1 << p;
            if (!stall && rnd() % 8 != 0) rr |= 1 << p;
            addr[p] = (rnd() % 6) * 32;          // few beats: conflicts on purpose
            strb[p] = rnd() % 5 == 0 ? 0xFFFFFFFFu : rnd();
            tag[p] = (uint8_t)rnd();
            for (int b = 0; b < 32; b++) wd[p][b] = (uint8_t)rnd();
            top->req_addr_i = (top->req_addr_i & ~(0xFFFu << (12 * p))) | (addr[p] << (12 * p));
            top->req_wstrb_i = (top->req_wstrb_i & ~(0xFFFFFFFFull << (32 * p))) | ((uint64_t)strb[p] << (32 * p));
            top->req_tag_i = (top->req_tag_i & ~(0xFFu << (8 * p))) | ((uint32_t)tag[p] << (8 * p));
            for (int w = 0; w < 8; w++) {
                uint32_t v = wd[p][4 * w] | wd[p][4 * w + 1] << 8 | wd[p][4 * w + 2] << 16 | (uint32_t)wd[p][4 * w + 3] << 24;
                top->req_wdata_i[p * 8 + w] = v;
            }
        }
        top->req_valid_i = rv; top->req_write_i = rw; top->rsp_ready_i = rr;
        top->clk_i = 0; top->eval();
        // Outputs before the edge, against the model.
        std::vector<uint8_t> before = mem;
        for (int p = 0; p < kPorts; p++) {
            bool ready = (top->req_ready_o >> p) & 1;
            expect(ready == (q[p].size() < (size_t)kDepth), "req_ready", cyc);
            if (!ready) full_seen++;
            bool valid = (top->rsp_valid_o >> p) & 1;
            bool want = !q[p].empty() && q[p].front().due <= cyc;
            expect(valid == want, "rsp_valid timing", cyc);
            if (valid && want) {
                const Rsp &r = q[p].front();
                expect(((top->rsp_tag_o >> (8 * p)) & 0xFF) == r.tag, "rsp tag", cyc);
                bool same = true;
                for (int b = 0; b < 32; b++)
                    if ((uint8_t)(top->rsp_rdata_o[p * 8 + b / 4] >> (8 * (b % 4))) != r.data[b]) same = false;
                expect(same, "rsp data", cyc);
                if ((rr >> p) & 1) { q[p].pop_front(); responded++; } else held++;
            }
        }
        for (int p = 0; p < kPorts; p++) {
            bool acc = ((rv >> p) & 1) && ((top->req_ready_o >> p) & 1);
            if (!acc) continue;
            accepted++;
            Rsp r; r.tag = tag[p]; r.due = cyc + (uint64_t)port_latency[p];
            for (int b = 0; b < 32; b++) r.data[b] = ((rw >> p) & 1) ? 0 : before[addr[p] + b];
            q[p].push_back(r);
            if ((rw >> p) & 1)
                for (int b = 0; b < 32; b++)
                    if ((strb[p] >> b) & 1) mem[addr[p] + b] = wd[p][b];   // higher port last: wins
        }
        top->clk_i = 1; top->eval();
    }
    // Every word agrees with the model at the end (backdoor read).
    bool all = true;
    for (int w = 0; w < kBeats * 8; w++) {
        uint32_t v = mem[4 * w] | mem[4 * w + 1] << 8 | mem[4 * w + 2] << 16 | (uint32_t)mem[4 * w + 3] << 24;
        if (ktpu_dram_bd_read32(4u * w) != v) all = false;
    }
    expect(all, "final contents", 0);
    expect(full_seen > 0 && held > 0, "queue never filled or response never held", 0);
    top->final();
    std::printf("dram model (latency %ld, port 1 %ld): %llu checks, %llu failed; %llu requests, %llu responses, "
                "%llu cycles full, %llu held\n", port_latency[0], port_latency[1], checks, fails,
                (unsigned long long)accepted, (unsigned long long)responded,
                (unsigned long long)full_seen, (unsigned long long)held);
    return fails ? 1 : 0;
}
