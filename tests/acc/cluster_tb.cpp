// Joined cluster bench: ktpu_cluster_dp + ktpu_acc (tests/acc/tb_cluster_acc.sv)
// run a whole GEMM sweep as the cluster node will issue it (SPEC §6: K
// outermost, LOAD on the first K-block, ADD_EMIT on the last), fed MXFP7
// operands quantised by the C reference, and every emitted FP16 sub-tile is
// checked bit for bit against ktpu_ref_gemm_mx.
//
//   cluster_tb [SEED]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

#include "Vtb_cluster_acc.h"
#include "verilated.h"
#include "ktpu_ref.h"
#include "ktpu_tb.h"
#include "ktpu_tb_clock.h"

namespace {

template <class W> void put_bits(W &w, int lsb, int width, uint32_t v) {
    for (int b = 0; b < width; b++) {
        int pos = lsb + b;
        uint32_t m = 1u << (pos % 32);
        w[pos / 32] = ((v >> b) & 1u) ? (w[pos / 32] | m) : (w[pos / 32] & ~m);
    }
}
template <class W> uint32_t get_bits(const W &w, int lsb, int width) {
    uint32_t v = 0;
    for (int b = 0; b < width; b++)
        if ((w[(lsb + b) / 32] >> ((lsb + b) % 32)) & 1u) v |= 1u << b;
    return v;
}

struct Gemm {
    int gm, gn, nk;               // sub-tile rows, columns, K-blocks
    std::vector<int8_t> qa, qb;   // (4gm) x K, (4gn) x K
    std::vector<uint8_t> sa, sb;  // per row per K-block
};

uint16_t rand_f16(TbRng &r, int ebase) {
    int e = ebase + (int)r.below(6);
    if (r.below(16) == 0) e = 1 + (int)r.below(4);   // tiny (and subnormal below)
    if (r.below(32) == 0) return 0;
    return (uint16_t)((r.below(2) << 15) | ((unsigned)e << 10) | r.below(1024));
}

class Bench {
  public:
    long subtiles = 0;   // checks, fails: the kit's (ktpu_tb.h)

    Bench(VerilatedContext *ctx, uint64_t seed) : top_(new Vtb_cluster_acc(ctx)), clk_(ctx, top_.get()), rng_(seed) {
        top_->rst_ni = 0;
        top_->cmd_valid_i = 0;
        top_->emit_ready_i = 0;
        for (unsigned i = 0; i < kTbIdleCycles; i++) clk_.cycle();
        top_->rst_ni = 1;
        clk_.cycle();
    }
    ~Bench() { top_->final(); }

    void run(const Gemm &g, const char *what) {
        const int M = 4 * g.gm, N = 4 * g.gn, K = 32 * g.nk, tiles = g.gm * g.gn;
        std::vector<uint32_t> tile((size_t)M * N);
        std::vector<uint16_t> cref((size_t)M * N), chw((size_t)M * N, 0xDEAD);
        unsigned rflags = ktpu_ref_gemm_mx((size_t)M, (size_t)N, (size_t)K, g.qa.data(), g.sa.data(),
                                           g.qb.data(), g.sb.data(), tile.data(), cref.data());
        // The sweep, then (for one K-block) a separate EMIT pass.
        struct C { int op, addr, g, h, kb; };
        std::vector<C> cmds;
        for (int kb = 0; kb < g.nk; kb++)
            for (int gi = 0; gi < g.gm; gi++)
                for (int h = 0; h < g.gn; h++) {
                    int op = kb == 0 ? KTPU_ACC_OP_LOAD
                                     : (kb == g.nk - 1 ? KTPU_ACC_OP_ADD_EMIT : KTPU_ACC_OP_ADD);
                    cmds.push_back({op, gi * g.gn + h, gi, h, kb});
                }
        if (g.nk == 1)
            for (int t = 0; t < tiles; t++) cmds.push_back({KTPU_ACC_OP_EMIT, t, 0, 0, 0});
        std::vector<int64_t> last(tiles, -1000);
        size_t next = 0;
        int got = 0, guard = 0;
        int64_t cyc = 0;
        while ((next < cmds.size() || got < tiles || top_->busy_o) && !fails) {
            if (++guard > 200000) { fail(what, "timed out"); break; }
            bool want = next < cmds.size() && cyc - last[cmds[next].addr] >= KTPU_ACC_REUSE_MIN;
            top_->cmd_valid_i = want;
            if (want) {
                const C &c = cmds[next];
                top_->cmd_op_i = c.op;
                top_->cmd_addr_i = c.addr;
                for (int l = 0; l < 4; l++)
                    for (int k = 0; k < 32; k++) {
                        bool emit_only = c.op == KTPU_ACC_OP_EMIT;   // operands are don't-care
                        int8_t a = emit_only ? (int8_t)rng_.int7() : g.qa[(size_t)(4 * c.g + l) * K + 32 * c.kb + k];
                        int8_t b = emit_only ? (int8_t)rng_.int7() : g.qb[(size_t)(4 * c.h + l) * K + 32 * c.kb + k];
                        put_bits(top_->a_i, 224 * l + 7 * k, 7, (uint32_t)a & 0x7F);
                        put_bits(top_->b_i, 224 * l + 7 * k, 7, (uint32_t)b & 0x7F);
                    }
                uint32_t sa = 0, sb = 0;
                for (int l = 0; l < 4; l++) {
                    sa |= (uint32_t)g.sa[(size_t)(4 * c.g + l) * g.nk + c.kb] << (8 * l);
                    sb |= (uint32_t)g.sb[(size_t)(4 * c.h + l) * g.nk + c.kb] << (8 * l);
                }
                top_->sa_i = sa;
                top_->sb_i = sb;
            }
            top_->emit_ready_i = rng_.below(4) != 0;
            top_->eval();
            if (want && top_->cmd_ready_o) { last[cmds[next].addr] = cyc; next++; }
            if (top_->emit_valid_o && top_->emit_ready_i) {
                int t = (int)top_->emit_addr_o;
                if (t >= tiles) { fail(what, "emit address out of range"); break; }
                int gi = t / g.gn, h = t % g.gn;
                for (int l = 0; l < 16; l++)
                    chw[(size_t)(4 * gi + l / 4) * N + 4 * h + l % 4] = (uint16_t)get_bits(top_->emit_data_o, 16 * l, 16);
                got++;
                subtiles++;
            }
            clk_.cycle();
            cyc++;
        }
        for (int i = 0; i < M && !fails; i++)
            for (int j = 0; j < N; j++) {
                checks++;
                if (chw[(size_t)i * N + j] != cref[(size_t)i * N + j]) {
                    fprintf(stderr, "FAIL %s: C[%d][%d] = 0x%04x, reference 0x%04x (FP22 0x%06x)\n", what, i, j,
                            chw[(size_t)i * N + j], cref[(size_t)i * N + j], tile[(size_t)i * N + j]);
                    fails++;
                    break;
                }
            }
        checks++;
        if (!fails && (top_->flags_o & rflags & 7u) != (rflags & 7u)) fail(what, "flags");
        printf("  %-34s %3dx%4dx%3d  %5ld checks%s\n", what, M, K, N, (long)M * N, fails ? "  FAIL" : "");
    }

  private:
    void fail(const char *what, const char *msg) {
        checks++;
        if (!fails) fprintf(stderr, "FAIL %s: %s\n", what, msg);
        fails++;
    }
    std::unique_ptr<Vtb_cluster_acc> top_;
    TbClock<Vtb_cluster_acc> clk_;
    TbRng rng_;
};

Gemm from_f16(TbRng &r, int gm, int gn, int nk, int ebase_a, int ebase_b) {
    Gemm g{gm, gn, nk, {}, {}, {}, {}};
    int M = 4 * gm, N = 4 * gn, K = 32 * nk;
    std::vector<uint16_t> a((size_t)M * K), bt((size_t)N * K);
    for (size_t i = 0; i < a.size(); i++) a[i] = rand_f16(r, ebase_a + (int)((i / 32) % 5));  // per-block spread
    for (size_t i = 0; i < bt.size(); i++) bt[i] = rand_f16(r, ebase_b + (int)((i / 32) % 3));
    g.qa.resize(a.size()); g.qb.resize(bt.size());
    g.sa.resize((size_t)M * nk); g.sb.resize((size_t)N * nk);
    unsigned f = ktpu_ref_quant_matrix(a.data(), (size_t)M, (size_t)K, g.qa.data(), g.sa.data());
    f |= ktpu_ref_quant_matrix(bt.data(), (size_t)N, (size_t)K, g.qb.data(), g.sb.data());
    if (f) { fprintf(stderr, "cluster_tb: quantiser flagged finite input\n"); exit(2); }
    return g;
}

}  // namespace

int main(int argc, char **argv) {
    uint64_t seed = 1;
    tb_args(argc, argv, "cluster_tb", {{"--seed", &seed}});
    auto ctx = tb_context(argc, argv, seed);
    ctx->fatalOnError(false);
    TbRng r(seed);
    Bench b(ctx.get(), seed ^ 0x5A5A);

    b.run(from_f16(r, 4, 4, 8, 12, 14), "16 sub-tiles x 8 K-blocks");
    b.run(from_f16(r, 3, 3, 12, 9, 18), "9 sub-tiles x 12 K-blocks");
    b.run(from_f16(r, 2, 2, 5, 15, 10), "4 sub-tiles (padded) x 5");
    b.run(from_f16(r, 1, 1, 32, 14, 14), "one sub-tile x 32 K-blocks");
    b.run(from_f16(r, 2, 3, 1, 14, 14), "one K-block: LOAD then EMIT");
    b.run(from_f16(r, 2, 2, 3, 20, 20), "large values: FP16 overflow");
    b.run(from_f16(r, 2, 2, 3, 1, 2), "tiny values: FP16 subnormals");
    // Pre-quantised worst case: every operand -64 (|P| = 131072, all guard
    // bits), scales at both ends and mixed.
    Gemm w{2, 2, 4, {}, {}, {}, {}};
    w.qa.assign(8 * 128, -64); w.qb.assign(8 * 128, -64);
    w.sa.resize(8 * 4); w.sb.resize(8 * 4);
    for (size_t i = 0; i < w.sa.size(); i++) { w.sa[i] = (uint8_t)(i % 3 == 0 ? 0x00 : (i % 3 == 1 ? 0xFF : r.below(256))); }
    for (size_t i = 0; i < w.sb.size(); i++) { w.sb[i] = (uint8_t)(i % 2 ? 0x60 : r.below(256)); }
    b.run(w, "all -64, extreme scales");
    b.run(from_f16(r, 5, 2, 6, 11, 15), "10 sub-tiles x 6 K-blocks");

    bool err = ctx->gotError();
    if (err) fprintf(stderr, "FAIL: a simulation assertion fired\n");
    printf("cluster_tb seed %llu: %ld sub-tiles emitted\n", (unsigned long long)seed, b.subtiles);
    if (err) fails++;
    printf("%s: %llu checks, %llu failed\n", fails ? "FAIL" : "PASS", checks, fails);
    return fails ? 1 : 0;
}
