// Cluster datapath bench: every one of the 16 partials of every operand pair
// checked exactly against the C reference (ktpu_ref_block_dot, cross-checked
// with the packed cascade model ktpu_ref_block_dot_packed), plus the exact
// latency (CLUSTER_DP_LATENCY enabled cycles) and order of every result, no
// result lost, none invented.
// Phases: directed (every operand -64, full-scale sums of both signs, the
// lower field negative on all eight chains, one CU at a time for the
// cross-CU path), streaming (a new pair every cycle), bubbles (garbage on the
// inputs when valid_i is low), enables toggling (garbage while stalled),
// reset in mid-stream (pairs in flight are dropped, later ones exact).
// Usage: Vtb_cluster_dp [--seed N] [--pairs N]   (random pairs per phase)
#include <cinttypes>
#include <cstdarg>
#include <array>
#include <cstring>
#include <deque>
#include "Vtb_cluster_dp.h"
#include "ktpu_tb.h"
#include "ktpu_tb_clock.h"
extern "C" {
#include "ktpu_ref.h"
}

namespace {
const int kK = KTPU_MX_BLOCK_K;  // 32
const int kLanes = KTPU_TILE_ROWS;
const int kPb = KTPU_CLUSTER_PARTIAL_BITS;

struct Pair {
    int8_t a[4][32];  // A[i][k]: row i of the A tile
    int8_t b[4][32];  // B[j][k]: column j of B (row j of B-transposed)
};

struct Expect {
    int32_t p[16];
    uint64_t accepted_at;  // enabled-cycle index of the cycle it was taken
    unsigned long serial;
};

template <size_t N>
void put_bits(VlWide<N> &w, unsigned lsb, unsigned width, uint32_t v) {
    for (unsigned b = 0; b < width; b++) {
        unsigned bit = lsb + b, word = bit / 32, off = bit % 32;
        if ((v >> b) & 1u) w[word] |= (1u << off);
        else w[word] &= ~(1u << off);
    }
}
template <size_t N>
uint32_t get_bits(const VlWide<N> &w, unsigned lsb, unsigned width) {
    uint32_t v = 0;
    for (unsigned b = 0; b < width; b++) {
        unsigned bit = lsb + b;
        v |= ((w[bit / 32] >> (bit % 32)) & 1u) << b;
    }
    return v;
}
// L1 entry element layout (docs/datapath.md): lane l, element k at 224*l + 7*k.
template <size_t N>
void pack(VlWide<N> &w, const int8_t lanes[4][32]) {
    for (int l = 0; l < kLanes; l++)
        for (int k = 0; k < kK; k++)
            put_bits(w, (unsigned)(KTPU_MX_ELEM_BITS * (kK * l + k)), KTPU_MX_ELEM_BITS,
                     (uint32_t)(lanes[l][k] & 0x7f));
}
template <size_t N>
void garbage(VlWide<N> &w, TbRng &r) {
    for (size_t i = 0; i < N; i++) w[i] = (uint32_t)r.next();
}

class Bench {
  public:
    Bench(VerilatedContext *ctx, uint64_t seed)
        : m_(ctx), clk_(ctx, &m_), rng_(seed) {}

    // One cycle. `p` == nullptr: no operand pair (valid_i low, garbage data).
    void step(const Pair *p, bool en = true, bool rst = false) {
        m_.rst_i = rst;
        m_.en_i = en;
        if (!en) {  // stalled: every input is garbage
            m_.valid_i = rng_.below(2);
            garbage(m_.a_i, rng_);
            garbage(m_.b_i, rng_);
        } else if (p) {
            m_.valid_i = 1;
            pack(m_.a_i, p->a);
            pack(m_.b_i, p->b);
        } else {
            m_.valid_i = 0;
            garbage(m_.a_i, rng_);
            garbage(m_.b_i, rng_);
        }
        if (rst) {
            dropped_ += pending_.size();  // in flight at a reset: never delivered
            pending_.clear();
        } else if (en && p) {
            Expect e;
            for (int i = 0; i < 4; i++)
                for (int j = 0; j < 4; j++) e.p[4 * i + j] = ktpu_ref_block_dot(p->a[i], p->b[j]);
            // The packed-cascade model must agree (it is the DSP's arithmetic).
            for (int pr = 0; pr < 2; pr++)
                for (int j = 0; j < 4; j++) {
                    int32_t lo, up;
                    ktpu_ref_block_dot_packed(p->a[2 * pr], p->a[2 * pr + 1], p->b[j], &lo, &up);
                    if (lo != e.p[4 * (2 * pr) + j] || up != e.p[4 * (2 * pr + 1) + j]) {
                        fprintf(stderr, "reference models disagree\n");
                        exit(2);
                    }
                }
            e.accepted_at = en_cycles_;
            e.serial = sent_++;
            pending_.push_back(e);
        }
        clk_.cycle();
        if (en) en_cycles_++;
        // A stalled cycle leaves partial_o as it was (documented: it holds).
        if (!en && !rst) {
            checks++;
            for (size_t i = 0; i < last_partial_.size(); i++)
                if (last_partial_[i] != m_.partial_o[i]) {
                    fail("partial_o changed in a stalled cycle (cycle %" PRIu64 ")", clk_.cycles());
                    break;
                }
        }
        for (size_t i = 0; i < last_partial_.size(); i++) last_partial_[i] = m_.partial_o[i];
        check_output(rst);
    }

    void drain() {
        for (unsigned i = 0; i < KTPU_CLUSTER_DP_LATENCY + 4; i++) step(nullptr);
        checks++;
        if (!pending_.empty()) fail("%zu results never arrived", pending_.size());
    }

    void phase_report(const char *name) {
        printf("  %-34s %7lu pairs %9llu checks %llu failed\n", name, sent_ - phase_sent_,
               checks - phase_checks_, fails);
        phase_sent_ = sent_;
        phase_checks_ = checks;
    }

    TbRng &rng() { return rng_; }
    unsigned long sent() const { return sent_; }
    unsigned long dropped() const { return dropped_; }
    uint64_t cycles() const { return clk_.cycles(); }

  private:
    void check_output(bool rst) {
        if (!m_.valid_o) return;
        checks++;
        if (rst || pending_.empty()) {
            fail("valid_o with no operand pair outstanding (cycle %" PRIu64 ")", clk_.cycles());
            return;
        }
        Expect e = pending_.front();
        pending_.pop_front();
        checks++;
        if (en_cycles_ - e.accepted_at != KTPU_CLUSTER_DP_LATENCY)
            fail("pair %lu: latency %" PRIu64 " enabled cycles, want %d", e.serial,
                 en_cycles_ - e.accepted_at, KTPU_CLUSTER_DP_LATENCY);
        for (int el = 0; el < 16; el++) {
            uint32_t raw = get_bits(m_.partial_o, (unsigned)(kPb * el), (unsigned)kPb);
            int32_t got = (int32_t)(raw << (32 - kPb)) >> (32 - kPb);
            checks++;
            if (got != e.p[el])
                fail("pair %lu partial (%d,%d): got %d (0x%05x) want %d", e.serial, el / 4,
                     el % 4, got, raw, e.p[el]);
        }
    }
    void fail(const char *fmt, ...) __attribute__((format(printf, 2, 3))) {
        if (fails++ < 20) {
            va_list ap;
            va_start(ap, fmt);
            fprintf(stderr, "MISMATCH: ");
            vfprintf(stderr, fmt, ap);
            fprintf(stderr, "\n");
            va_end(ap);
        }
    }

    Vtb_cluster_dp m_;
    TbClock<Vtb_cluster_dp> clk_;
    TbRng rng_;
    std::deque<Expect> pending_;
    std::array<uint32_t, 10> last_partial_{};
    uint64_t en_cycles_ = 0;
    unsigned long sent_ = 0, dropped_ = 0;   // checks, fails: the kit's (ktpu_tb.h)
    unsigned long phase_sent_ = 0;
    unsigned long long phase_checks_ = 0;
};

// ---- operand generators -------------------------------------------------------
void fill(int8_t v[32], int x) { for (int k = 0; k < kK; k++) v[k] = (int8_t)x; }

// Mixed distributions, so random data also visits the extremes often.
void random_pair(Pair &p, TbRng &r) {
    unsigned mode = r.below(4);
    for (int l = 0; l < 4; l++)
        for (int k = 0; k < kK; k++) {
            int v;
            switch (mode) {
                case 0: v = r.int7(); break;                           // uniform full range
                case 1: { static const int ex[] = {-64, 63, -1, 0, 1, -63};
                          v = ex[r.below(6)]; break; }                 // extremes
                case 2: v = r.below(4) ? 0 : r.int7(); break;          // sparse
                default: v = r.below(2) ? -64 : r.int7(); break;       // heavy -64
            }
            p.a[l][k] = (int8_t)v;
            v = (mode == 0) ? r.int7() : (r.below(2) ? r.int7() : (r.below(2) ? -64 : 63));
            p.b[l][k] = (int8_t)v;
        }
}

void directed(Bench &b) {
    Pair p;
    // Every operand -64: the packing worst case, +131072 everywhere.
    for (int l = 0; l < 4; l++) { fill(p.a[l], -64); fill(p.b[l], -64); }
    b.step(&p);
    // Full-scale sums of both signs in every field combination: each row and
    // each column is all -64 or all 63, so the 16 partials cover +131072,
    // -129024 and +127008 in both the lower and the upper field.
    for (unsigned rowsel = 0; rowsel < 16; rowsel++)
        for (unsigned colsel = 0; colsel < 16; colsel += 5) {
            for (int l = 0; l < 4; l++) {
                fill(p.a[l], (rowsel >> l) & 1 ? 63 : -64);
                fill(p.b[l], (colsel >> l) & 1 ? 63 : -64);
            }
            b.step(&p);
        }
    // The lower field (rows 0, 2) negative on all eight chains, the upper
    // field (rows 1, 3) zero, +1, -1, full scale or random: a missing borrow
    // correction is off by one in the upper partial of every chain.
    const int uppers[] = {0, 1, -1, 63, -64, 1000};
    for (int u : uppers)
        for (int rep = 0; rep < 3; rep++) {
            for (int j = 0; j < 4; j++)
                for (int k = 0; k < kK; k++) p.b[j][k] = (int8_t)(1 + b.rng().below(63));  // > 0
            for (int pr = 0; pr < 2; pr++)
                for (int k = 0; k < kK; k++) {
                    p.a[2 * pr][k] = (int8_t)(rep == 0 ? -1 : -(int)(1 + b.rng().below(64)));
                    int8_t up = 0;
                    if (u == 1) up = (k == 0);          // upper sum small positive
                    else if (u == -1) up = -(k == 0);   // small negative
                    else if (u == 63 || u == -64) up = (int8_t)u;
                    else if (u == 1000) up = (int8_t)b.rng().int7();
                    p.a[2 * pr + 1][k] = up;
                }
            if (rep == 0) {  // lower field exactly -1 (one product): the smallest borrow
                for (int pr = 0; pr < 2; pr++)
                    for (int k = 0; k < kK; k++) p.a[2 * pr][k] = (int8_t)(k == 5 ? -1 : 0);
                for (int j = 0; j < 4; j++) fill(p.b[j], 1);
            }
            b.step(&p);
        }
    // Cross-CU path: nonzero K only inside one CU (k in [8n, 8n+8)), then
    // two CUs with opposite signs (the sum crosses the C port with a borrow).
    for (int n = 0; n < KTPU_CLUSTER_TCUS; n++)
        for (int rep = 0; rep < 4; rep++) {
            for (int l = 0; l < 4; l++)
                for (int k = 0; k < kK; k++) {
                    bool in = k / KTPU_TCU_DEPTH == n;
                    p.a[l][k] = in ? (int8_t)(rep == 0 ? -64 : b.rng().int7()) : 0;
                    p.b[l][k] = in ? (int8_t)(rep == 0 ? -64 : b.rng().int7()) : (int8_t)b.rng().int7();
                }
            b.step(&p);
        }
    for (int n0 = 0; n0 < KTPU_CLUSTER_TCUS; n0++)
        for (int n1 = 0; n1 < KTPU_CLUSTER_TCUS; n1++) {
            if (n0 == n1) continue;
            for (int l = 0; l < 4; l++)
                for (int k = 0; k < kK; k++) {
                    int n = k / KTPU_TCU_DEPTH;
                    p.a[l][k] = (int8_t)(n == n0 ? 63 : (n == n1 ? -64 : 0));
                    p.b[l][k] = (int8_t)((l & 1) ? 63 : -64);
                }
            b.step(&p);
        }
}
}  // namespace

int main(int argc, char **argv) {
    uint64_t seed = 1;
    unsigned n = 2000;
    tb_args(argc, argv, "cluster_dp_tb", {{"--seed", &seed}, {"--pairs", &n}});
    auto ctx = tb_context(argc, argv, seed);
    Bench b(ctx.get(), seed);
    Pair p;
    printf("cluster_dp bench, seed %" PRIu64 "\n", seed);

    // Idle in reset (vendor GSR, random register contents settle).
    for (unsigned i = 0; i < kTbIdleCycles; i++) b.step(nullptr, true, true);

    directed(b);                                   // back to back: streaming too
    b.phase_report("directed (-64, full scale, borrow, cross-CU)");
    for (unsigned i = 0; i < n; i++) { random_pair(p, b.rng()); b.step(&p); }
    b.phase_report("streaming, a pair every cycle");
    for (unsigned i = 0; i < n; i++) {
        if (b.rng().below(3) == 0) { b.step(nullptr); continue; }
        random_pair(p, b.rng());
        b.step(&p);
    }
    b.phase_report("bubbles");
    for (unsigned i = 0; i < n; i++) {
        bool en = b.rng().below(3) != 0;
        if (en && b.rng().below(4) == 0) { b.step(nullptr); continue; }
        random_pair(p, b.rng());
        b.step(&p, en);
    }
    b.phase_report("enable toggling");
    // Reset in mid-stream: 1 to 3 cycles of reset at random points while the
    // pipeline is full; what was in flight is dropped, what follows is exact.
    for (unsigned burst = 0; burst < 40; burst++) {
        unsigned run = 1 + b.rng().below(3 * KTPU_CLUSTER_DP_LATENCY);
        for (unsigned i = 0; i < run; i++) {
            random_pair(p, b.rng());
            b.step(&p, b.rng().below(8) != 0);
        }
        unsigned r = 1 + b.rng().below(3);
        for (unsigned i = 0; i < r; i++) { random_pair(p, b.rng()); b.step(&p, true, true); }
    }
    b.drain();
    b.phase_report("reset in mid-stream");

    printf("cluster_dp: %lu pairs (%lu dropped by reset), %" PRIu64 " cycles, %llu checks, %llu failed\n",
           b.sent(), b.dropped(), b.cycles(), checks, fails);
    return fails ? 1 : 0;
}
