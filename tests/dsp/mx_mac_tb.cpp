// mx_mac bench: every P of two mx_macs (Z=PCIN,W=C and Z=W=0) checked each
// cycle against the C reference (ktpu_ref_dsp_packed / ktpu_ref_chain), with
// random full-range int7 operands including -64, random 48-bit PCIN and C
// (wrap-around of the 48-bit ALU), a directed all -64 phase, and the clock
// enable toggling with garbage on every input while stalled.
// Usage: Vtb_mx_mac [--seed N] [--cycles N]
#include <cinttypes>
#include <deque>
#include "Vtb_mx_mac.h"
#include "ktpu_tb.h"
#include "ktpu_tb_clock.h"
extern "C" {
#include "ktpu_ref.h"
}

namespace {
const unsigned kLatency = 4;  // operands -> P, enabled cycles (A2/D, AD, M, P)

struct Op {
    int w1, w0, a;
    int64_t c, pcin;
};

uint64_t bits48(int64_t v) { return (uint64_t)v & ((1ull << 48) - 1u); }
int64_t rand48(TbRng &r) { return ktpu_ref_wrap48((int64_t)(r.next() >> 16)); }
}  // namespace

int main(int argc, char **argv) {
    uint64_t seed = 1;
    unsigned ncycles = 20000;
    tb_args(argc, argv, "mx_mac_tb", {{"--seed", &seed}, {"--cycles", &ncycles}});
    auto ctx = tb_context(argc, argv, seed);
    Vtb_mx_mac m(ctx.get());
    TbClock<Vtb_mx_mac> clk(ctx.get(), &m);
    TbRng rng(seed);

    // Idle (vendor GSR) with the enable low and garbage on the inputs.
    m.en_i = 0;
    for (unsigned i = 0; i < kTbIdleCycles; i++) {
        m.w1_i = rng.below(128); m.w0_i = rng.below(128); m.a_i = rng.below(128);
        m.c_i = rng.next() >> 16; m.pcin_i = rng.next() >> 16;
        clk.cycle();
    }

    std::deque<Op> ops;          // operands by enabled cycle; back() is the latest
    unsigned long enabled = 0;
    const unsigned directed = 64;  // first enabled cycles: every operand -64
    for (unsigned cyc = 0; cyc < ncycles; cyc++) {
        // The enable: always on in the first half, random after.
        bool en = cyc < ncycles / 2 || rng.below(4) != 0;
        Op op;
        bool dir = enabled < directed;
        op.w1 = dir ? -64 : rng.int7();
        op.w0 = dir ? -64 : rng.int7();
        op.a = dir ? -64 : rng.int7();
        op.c = rand48(rng);
        op.pcin = rand48(rng);
        // PCIN joins at the P edge (kLatency-1 cycles after the operands), C
        // one edge earlier through CREG: drive each with its own operand's value.
        const Op *for_pcin = ops.size() >= kLatency - 1 ? &ops[ops.size() - (kLatency - 1)] : nullptr;
        const Op *for_c = ops.size() >= kLatency - 2 ? &ops[ops.size() - (kLatency - 2)] : nullptr;
        if (en) {
            m.w1_i = op.w1 & 0x7f; m.w0_i = op.w0 & 0x7f; m.a_i = op.a & 0x7f;
            m.pcin_i = bits48(for_pcin ? for_pcin->pcin : 0);
            m.c_i = bits48(for_c ? for_c->c : 0);
        } else {  // stalled: nothing may be sampled
            m.w1_i = rng.below(128); m.w0_i = rng.below(128); m.a_i = rng.below(128);
            m.c_i = rng.next() >> 16; m.pcin_i = rng.next() >> 16;
        }
        m.en_i = en;
        clk.cycle();
        if (en) { ops.push_back(op); enabled++; }
        while (ops.size() > kLatency + 2) ops.pop_front();
        if (enabled < kLatency) continue;
        // P now holds the operands of enabled cycle (enabled - kLatency).
        const Op &o = ops[ops.size() - kLatency];
        int8_t w1 = (int8_t)o.w1, w0 = (int8_t)o.w0, a = (int8_t)o.a;
        int64_t plain = ktpu_ref_chain(&w1, &w0, &a, 1, 0);
        int64_t full = ktpu_ref_wrap48(ktpu_ref_chain(&w1, &w0, &a, 1, o.pcin) + o.c);
        if (plain != ktpu_ref_dsp_packed(o.w1, o.w0, o.a)) {
            fprintf(stderr, "reference disagrees with itself\n");
            return 2;
        }
        uint64_t got_full = m.p_o, got_pc = m.pcout_o, got_plain = m.p_plain_o;
        checks += 3;
        if (got_full != bits48(full) || got_pc != bits48(full) || got_plain != bits48(plain)) {
            if (fails++ < 10)
                fprintf(stderr,
                        "MISMATCH cycle %u (w1=%d w0=%d a=%d pcin=%" PRId64 " c=%" PRId64 "): "
                        "P=%012" PRIx64 " PCOUT=%012" PRIx64 " want %012" PRIx64
                        "; plain P=%012" PRIx64 " want %012" PRIx64 "\n",
                        cyc, o.w1, o.w0, o.a, o.pcin, o.c, got_full, got_pc, bits48(full),
                        got_plain, bits48(plain));
        }
    }
    printf("mx_mac: seed %" PRIu64 ", %u cycles (%lu enabled), %llu checks, %llu failed\n", seed,
           ncycles, enabled, checks, fails);
    return fails ? 1 : 0;
}
