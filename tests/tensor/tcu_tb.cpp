// Tensor CU bench: all eight raw 48-bit chain words of two CUs checked every
// cycle against ktpu_ref_chain (8 packed stages plus the cross-CU input),
// with random full-range int7 (often -64), random 48-bit C inputs (the
// wrap-around of the ALU), a new operand pair every cycle and the clock
// enable toggling with garbage on every input while stalled.
// Usage: Vtb_tcu [--seed N] [--cycles N]
#include <cinttypes>
#include <deque>
#include "Vtb_tcu.h"
#include "ktpu_tb.h"
#include "ktpu_tb_clock.h"
extern "C" {
#include "ktpu_ref.h"
}

namespace {
const unsigned kDepth = KTPU_TCU_DEPTH;
const unsigned kLatency = 4 + kDepth - 1;  // operands -> last stage's P
const unsigned kCLead = 2;                 // C is taken 2 edges before P (CREG, then P)
struct Op {
    int8_t a[4][8], b[4][8];
    int64_t c[8];
};
template <size_t N>
void put(VlWide<N> &w, unsigned lsb, unsigned width, uint64_t v) {
    for (unsigned b = 0; b < width; b++) {
        unsigned bit = lsb + b;
        if ((v >> b) & 1u) w[bit / 32] |= 1u << (bit % 32);
        else w[bit / 32] &= ~(1u << (bit % 32));
    }
}
template <size_t N>
uint64_t get(const VlWide<N> &w, unsigned lsb, unsigned width) {
    uint64_t v = 0;
    for (unsigned b = 0; b < width; b++) {
        unsigned bit = lsb + b;
        v |= (uint64_t)((w[bit / 32] >> (bit % 32)) & 1u) << b;
    }
    return v;
}
uint64_t bits48(int64_t v) { return (uint64_t)v & ((1ull << 48) - 1u); }
}  // namespace

int main(int argc, char **argv) {
    uint64_t seed = 1;
    unsigned ncycles = 5000;
    tb_args(argc, argv, "tcu_tb", {{"--seed", &seed}, {"--cycles", &ncycles}});
    auto ctx = tb_context(argc, argv, seed);
    Vtb_tcu m(ctx.get());
    TbClock<Vtb_tcu> clk(ctx.get(), &m);
    TbRng rng(seed);
    auto garbage = [&]() {
        for (int i = 0; i < 7; i++) { m.a_i[i] = (uint32_t)rng.next(); m.b_i[i] = (uint32_t)rng.next(); }
        for (int i = 0; i < 12; i++) m.c_i[i] = (uint32_t)rng.next();
    };
    m.en_i = 0;
    for (unsigned i = 0; i < kTbIdleCycles; i++) { garbage(); clk.cycle(); }

    std::deque<Op> ops;
    unsigned long enabled = 0;
    for (unsigned cyc = 0; cyc < ncycles; cyc++) {
        bool en = cyc < ncycles / 2 || rng.below(3) != 0;
        Op op;
        bool all64 = enabled < 16;  // directed start: every operand -64
        for (int l = 0; l < 4; l++)
            for (unsigned k = 0; k < kDepth; k++) {
                op.a[l][k] = (int8_t)(all64 || rng.below(4) == 0 ? -64 : rng.int7());
                op.b[l][k] = (int8_t)(all64 || rng.below(4) == 0 ? -64 : rng.int7());
            }
        for (int c = 0; c < 8; c++) op.c[c] = ktpu_ref_wrap48((int64_t)(rng.next() >> 16));
        if (en) {
            for (int l = 0; l < 4; l++)
                for (unsigned k = 0; k < kDepth; k++) {
                    put(m.a_i, 56 * l + 7 * k, 7, (uint64_t)(op.a[l][k] & 0x7f));
                    put(m.b_i, 56 * l + 7 * k, 7, (uint64_t)(op.b[l][k] & 0x7f));
                }
            // C of the pair taken kLatency - kCLead enabled cycles ago.
            const Op *oc = ops.size() >= kLatency - kCLead ? &ops[ops.size() - (kLatency - kCLead)] : nullptr;
            for (int c = 0; c < 8; c++) put(m.c_i, 48 * c, 48, oc ? bits48(oc->c[c]) : 0);
        } else {
            garbage();
        }
        m.en_i = en;
        clk.cycle();
        if (en) { ops.push_back(op); enabled++; }
        while (ops.size() > kLatency + 8) ops.pop_front();
        for (int inst = 0; inst < 2; inst++) {
            unsigned lat = inst == 0 ? kLatency : kLatency + 3;
            if (enabled < lat) continue;
            const Op &o = ops[ops.size() - lat];
            for (int p = 0; p < 2; p++)
                for (int j = 0; j < 4; j++) {
                    int ch = 4 * p + j;
                    int64_t want = ktpu_ref_chain(o.a[2 * p + 1], o.a[2 * p], o.b[j], kDepth,
                                                  inst == 0 ? o.c[ch] : 0);
                    uint64_t got = inst == 0 ? get(m.p_o, 48 * ch, 48) : get(m.p_d3_o, 48 * ch, 48);
                    checks++;
                    if (got != bits48(want) && fails++ < 10)
                        fprintf(stderr, "MISMATCH cycle %u CU%s chain %d: P=%012" PRIx64 " want %012" PRIx64 "\n",
                                cyc, inst ? " (delay 3)" : "", ch, got, bits48(want));
                }
        }
    }
    printf("tcu: seed %" PRIu64 ", %u cycles (%lu enabled), %llu checks, %llu failed\n", seed, ncycles,
           enabled, checks, fails);
    return fails ? 1 : 0;
}
