// Bench for the board's on-chip DRAM (rtl/fpga/ktpu_fpga_dram.sv) against
// the SoC's DRAM contract (rtl/mem/ktpu_dram.sv's header): two ports of
// random reads and strobed writes over a small memory, each request held
// until taken, responses taken at random moments. A byte-array model applies
// each write when it is accepted and predicts each read's data then; every
// response must be the oldest outstanding request of its port (tag, data,
// zero for a write). Also: with both ports always asking and every response
// taken, one request is served every cycle, alternating between the ports.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "Vktpu_fpga_dram.h"
#include "verilated.h"
#include "ktpu_tb.h"

namespace {
const int kBits = 12, kBeats = 1 << (kBits - 5);
struct Exp { uint8_t tag; uint8_t data[32]; };
struct Req { bool v = false, w; uint32_t beat; uint8_t data[32]; uint32_t strb; uint8_t tag; };
}  // namespace

int main(int argc, char **argv)
{
    uint64_t seed = 7;
    tb_args(argc, argv, "fpga_dram_tb", {{"--seed", &seed}});
    auto ctx = tb_context(argc, argv, seed);
    tb_seed(seed, 1);
    auto top = std::make_unique<Vktpu_fpga_dram>(ctx.get(), "TOP");
    std::vector<uint8_t> mem(kBeats * 32, 0);
    std::deque<Exp> exp[2];
    Req rq[2];
    unsigned served[2] = {0, 0}, got = 0;
    uint8_t next_tag[2] = {0, 0};
    auto tick = [&] { top->clk_i = 0; top->eval(); top->clk_i = 1; top->eval(); };

    top->rst_i = 1;
    for (int i = 0; i < 4; i++) tick();
    top->rst_i = 0;
    // first, write every beat through port 0 so reads have defined contents
    // phase 0 fills memory, 1 is random traffic, 2 both ports always asking
    // with every response taken at once: round robin must split it evenly
    for (int phase = 0; phase < 3; phase++) {
        long cycles = phase == 0 ? kBeats * 8 : phase == 1 ? 40000 : 2000;
        unsigned served0[2] = {served[0], served[1]};
        uint32_t fill = 0;
        for (long c = 0; c < cycles; c++) {
            for (int p = 0; p < 2; p++) {
                if (!rq[p].v && (phase == 0 ? (p == 0 && fill < (uint32_t)kBeats) : phase == 2 || chance(70))) {
                    rq[p].v = true;
                    rq[p].w = phase == 0 || chance(40);
                    rq[p].beat = phase == 0 ? fill++ : rnd() % kBeats;
                    for (int i = 0; i < 32; i++) rq[p].data[i] = (uint8_t)rnd();
                    rq[p].strb = phase == 0 ? 0xFFFFFFFFu : chance(50) ? 0xFFFFFFFFu : rnd();
                    rq[p].tag = next_tag[p]++;
                }
            }
            top->req_valid_i = (rq[0].v ? 1 : 0) | (rq[1].v ? 2 : 0);
            top->req_write_i = (rq[0].w ? 1 : 0) | (rq[1].w ? 2 : 0);
            top->req_addr_i = (rq[0].beat << 5) | (rq[1].beat << (5 + kBits));
            for (int p = 0; p < 2; p++) {
                for (int wd = 0; wd < 8; wd++) {
                    uint32_t v;
                    std::memcpy(&v, rq[p].data + 4 * wd, 4);
                    top->req_wdata_i[8 * p + wd] = v;
                }
            }
            top->req_wstrb_i = (uint64_t)rq[0].strb | (uint64_t)rq[1].strb << 32;
            top->req_tag_i = rq[0].tag | rq[1].tag << 8;
            top->rsp_ready_i = (chance(phase == 1 ? 60 : 100) ? 1 : 0) | (chance(phase == 1 ? 60 : 100) ? 2 : 0);
            top->eval();
            // responses
            for (int p = 0; p < 2; p++) {
                if (!((top->rsp_valid_o >> p) & 1) || !((top->rsp_ready_i >> p) & 1)) continue;
                got++;
                uint8_t tag = (uint8_t)(top->rsp_tag_o >> (8 * p));
                if (exp[p].empty()) { CHECK(false, "port %d: a response with nothing outstanding", p); continue; }
                Exp e = exp[p].front();
                exp[p].pop_front();
                CHECK(tag == e.tag, "port %d: response tag %u, expected %u", p, tag, e.tag);
                uint8_t d[32];
                for (int wd = 0; wd < 8; wd++) {
                    uint32_t v = top->rsp_rdata_o[8 * p + wd];
                    std::memcpy(d + 4 * wd, &v, 4);
                }
                CHECK(!std::memcmp(d, e.data, 32), "port %d tag %u: data differs", p, tag);
            }
            // requests taken this cycle, in the order the memory applies them
            unsigned rdy = top->req_ready_o;
            CHECK(__builtin_popcount(rdy & top->req_valid_i) <= 1, "two requests taken in one cycle");
            for (int p = 0; p < 2; p++) {
                if (!rq[p].v || !((rdy >> p) & 1)) continue;
                Exp e;
                e.tag = rq[p].tag;
                uint8_t *m = &mem[rq[p].beat * 32];
                if (rq[p].w) {
                    for (int i = 0; i < 32; i++) if ((rq[p].strb >> i) & 1) m[i] = rq[p].data[i];
                    std::memset(e.data, 0, 32);
                } else {
                    std::memcpy(e.data, m, 32);
                }
                exp[p].push_back(e);
                served[p]++;
                rq[p].v = false;
            }
            tick();
        }
        if (phase == 2) {
            unsigned a = served[0] - served0[0], b = served[1] - served0[1];
            CHECK(a + b > 1900 && (a > b ? a - b : b - a) <= 2, "both ports asking: %u and %u served", a, b);
        }
        // drain
        top->req_valid_i = 0;
        rq[0].v = rq[1].v = false;
        for (int c = 0; c < 64; c++) {
            top->rsp_ready_i = 3;
            top->eval();
            for (int p = 0; p < 2; p++) {
                if (!((top->rsp_valid_o >> p) & 1)) continue;
                got++;
                Exp e = exp[p].front();
                exp[p].pop_front();
                CHECK((uint8_t)(top->rsp_tag_o >> (8 * p)) == e.tag, "drain: port %d tag", p);
            }
            tick();
        }
        CHECK(exp[0].empty() && exp[1].empty(), "phase %d: %zu + %zu responses never came", phase, exp[0].size(),
              exp[1].size());
    }
    top->final();
    top.reset();
    std::printf("fpga_dram: %u responses, %llu checks, %llu failed\n", got, checks, fails);
    return fails ? 1 : 0;
}
