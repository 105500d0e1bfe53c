// ktpu_ram bench: six instances (block/ultra/distributed x read latency 1/2)
// against a shadow array, every output bit every cycle once a read has
// completed: data, latency, hold between reads, and read-first on a
// same-address read and write (block, distributed). Addresses are drawn
// from a small hot set half the time so collisions and back-to-back
// reuse are frequent.
// Usage: Vtb_ram [--seed N] [--cycles N]
#include <cinttypes>
#include <cstring>
#include <vector>
#include "Vtb_ram.h"
#include "ktpu_tb.h"
#include "ktpu_tb_clock.h"

namespace {
const unsigned kDepth = 512, kWords = 29;  // 928 bits = 29 x 32
typedef std::vector<uint32_t> Word;

struct Inst {
    const char *name;
    unsigned width, latency;
    bool ultra;
    Word stage1, out;  // expected read latch and (latency 2) output register
    bool has1 = false, has_out = false, last_read = false;
};

bool equal(const Word &want, const uint32_t *got, unsigned width) {
    for (unsigned b = 0; b < width; b += 32) {
        uint32_t mask = width - b >= 32 ? 0xffffffffu : ((1u << (width - b)) - 1u);
        if ((want[b / 32] & mask) != (got[b / 32] & mask)) return false;
    }
    return true;
}
}  // namespace

int main(int argc, char **argv) {
    uint64_t seed = 1;
    unsigned ncycles = 20000;
    tb_args(argc, argv, "ram_tb", {{"--seed", &seed}, {"--cycles", &ncycles}});
    auto ctx = tb_context(argc, argv, seed);
    Vtb_ram m(ctx.get());
    TbClock<Vtb_ram> clk(ctx.get(), &m);
    TbRng rng(seed);

    std::vector<Word> mem(kDepth, Word(kWords, 0));
    std::vector<bool> written(kDepth, false);
    Inst inst[6] = {{"block/1", 928, 1, false, {}, {}}, {"block/2", 352, 2, false, {}, {}},
                    {"ultra/1", 72, 1, true, {}, {}},   {"ultra/2", 352, 2, true, {}, {}},
                    {"dist/1", 32, 1, false, {}, {}},   {"dist/2", 32, 2, false, {}, {}}};
    unsigned long collisions = 0;
    unsigned hot[4] = {0, 1, kDepth - 1, 77};

    for (unsigned cyc = 0; cyc < ncycles; cyc++) {
        bool we = rng.below(2), re = rng.below(3) != 0;
        unsigned wa = rng.below(2) ? hot[rng.below(4)] : rng.below(kDepth);
        unsigned ra = rng.below(2) ? hot[rng.below(4)] : rng.below(kDepth);
        if (rng.below(8) == 0) ra = wa;  // force same-address traffic
        // Before the first full pass, read only written words (contents of
        // others are undefined).
        if (cyc < 2 * kDepth) { wa = cyc % kDepth; we = true; re = re && written[ra]; }
        Word wd(kWords);
        for (auto &w : wd) w = (uint32_t)rng.next();
        bool collide = we && re && wa == ra;
        collisions += collide;
        m.we_i = we; m.waddr_i = wa; m.re_i = re; m.re_nc_i = re && !collide; m.raddr_i = ra;
        for (unsigned i = 0; i < kWords; i++) m.wdata_i[i] = wd[i];
        clk.cycle();
        // Expected state after this edge: the latency-2 output register takes
        // the previous latch contents if the previous cycle read; the latch
        // takes the OLD word (read-first); then the write lands.
        for (Inst &in : inst) {
            bool rd = in.ultra ? (re && !collide) : re;
            if (in.latency == 2 && in.last_read) { in.out = in.stage1; in.has_out = true; }
            if (rd) { in.stage1 = mem[ra]; in.has1 = true; }
            in.last_read = rd;
        }
        if (we) { mem[wa] = wd; written[wa] = true; }
        const uint32_t *got[6] = {m.block1_o.data(), m.block2_o.data(), (const uint32_t *)nullptr,
                                  m.ultra2_o.data(), nullptr, nullptr};
        uint32_t u1[3] = {(uint32_t)m.ultra1_o[0], (uint32_t)m.ultra1_o[1], (uint32_t)m.ultra1_o[2]};
        uint32_t d1 = m.dist1_o, d2 = m.dist2_o;
        got[2] = u1; got[4] = &d1; got[5] = &d2;
        for (unsigned i = 0; i < 6; i++) {
            Inst &in = inst[i];
            bool have = in.latency == 1 ? in.has1 : in.has_out;
            if (!have) continue;
            const Word &want = in.latency == 1 ? in.stage1 : in.out;
            checks++;
            if (!equal(want, got[i], in.width) && fails++ < 10)
                fprintf(stderr, "MISMATCH %s cycle %u (raddr %u waddr %u we %d re %d)\n", in.name,
                        cyc, ra, wa, we, re);
        }
    }
    printf("ram: seed %" PRIu64 ", %u cycles, %lu same-address read+write, %llu checks, %llu failed\n",
           seed, ncycles, collisions, checks, fails);
    return fails ? 1 : 0;
}
