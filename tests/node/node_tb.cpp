// Cluster node bench: the harness plays the CPU on a mesh with cluster nodes,
// the memory agent and the DRAM model (tests/node/node_top.sv). Operands go
// into DRAM through the backdoor, instructions over the mesh, and every C
// element drained to DRAM is compared bit for bit with the C reference.
// Usage: Vnode_top [--seed N] [--bench] [--csv FILE] [+ktpu_dram_latency=N]
#include "Vnode_top.h"
#include "Vnode_top__Dpi.h"
#include "svdpi.h"
#include "verilated.h"
#include "ktpu_tb.h"
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <vector>
extern "C" {
#include "ktpu_defs.h"
#include "ktpu_ref.h"
}

static Vnode_top *top;
static uint64_t cyc;
static int ncl = 2;
#ifndef NODE_CLUSTERS
#define NODE_CLUSTERS 2
#endif
#ifndef NODE_MEM_PORTS
#define NODE_MEM_PORTS 1   // 2: a second agent serves the upper 8 MiB (node_top MemPorts)
#endif
static bool bench;
static FILE *csv;
static int cl_x[4], cl_y[4];


// a failed CHECK (tests/common/ktpu_tb.h) names its cycle
static const char *at_cycle() {
    static char b[40];
    snprintf(b, sizeof b, "(cycle %llu)", (unsigned long long)cyc);
    return b;
}

struct Flit { uint32_t w[9]; };
static std::deque<Flit> txq;
static std::vector<Flit> done;
static std::map<int, unsigned long> done_at;   // arrival order of each txn's CL_DONE
static unsigned long done_count;
static int outstanding[16][16];
static int awaiting[256];   // txn -> 1 + the cluster it was sent to, 0 while not outstanding
// SILENT instructions outstanding per cluster (x << 4 | y): no CL_DONE unless
// they fail; the cluster's next STATUS answer completes them
static std::map<int, std::vector<int>> silent_of;

// Tile-written completions. A GEMM with EMIT and WRITTEN whose CL_DONE says
// OK owes one CL_WRITTEN, in issue order per cluster, before that cluster's next STATUS
// answer. On its arrival the tile's bytes are copied; the scenario's
// check_c later finds them equal to the final C, so the tile was whole when
// the node said it was written.
struct Emit { int txn; uint32_t cbase, ldc; int rows, bytes; };
static std::map<int, Emit> emit_of;              // txn -> a GEMM with EMIT not yet answered
static std::map<int, std::deque<Emit>> owed;     // cluster (x << 4 | y) -> CL_WRITTEN owed
struct Snap { Emit e; std::vector<uint8_t> b; };
static std::vector<Snap> snaps;
static std::vector<Flit> written_err;            // CL_WRITTEN with an error code
static uint8_t dram_byte(uint32_t addr);
static int code(const Flit &f) { return (f.w[0] >> KTPU_CD_STATUS_CODE_LSB) & 255; }
static std::vector<uint8_t> tile_bytes(const Emit &e) {   // the tile's C bytes in DRAM now
    std::vector<uint8_t> b;
    for (int r = 0; r < e.rows; r++)
        for (int x = 0; x < e.bytes; x++) b.push_back(dram_byte(e.cbase + r * e.ldc + x));
    return b;
}
static void written(const Flit &f, int txn, int key) {
    auto &q = owed[key];
    CHECK(!q.empty() && q.front().txn == txn, "CL_WRITTEN for txn %d from (%d,%d): %s", txn, key >> 4, key & 15,
          q.empty() ? "none owed" : "out of order");
    if (q.empty() || q.front().txn != txn) return;
    Emit e = q.front();
    q.pop_front();
    if (code(f) != KTPU_CLERR_OK) written_err.push_back(f);
    else snaps.push_back({e, tile_bytes(e)});
}

static int rs_mode;   // the CPU's response input: 0 random back-pressure, 1 closed, 2 every other cycle
static int sweep_watch;             // clusters whose first sweep cycle is being looked for
static uint64_t first_sweep[4];     // ... the cycle it was seen (0: not yet)
static void tick() {
    top->clk_i = 0;
    top->cpu_rq_valid_i = !txq.empty();
    if (!txq.empty()) for (int i = 0; i < 9; i++) top->cpu_rq_flit_i[i] = txq.front().w[i];
    top->cpu_rs_ready_i = rs_mode == 0 ? (rnd() % 8) != 0 : rs_mode == 2 && (cyc & 1);
    top->eval();
    bool tx = top->cpu_rq_valid_i && top->cpu_rq_ready_o;
    // before the first reset edge the registers hold their random initial
    // values: nothing the mesh shows during reset is a flit
    bool rx = !top->rst_i && top->cpu_rs_valid_o && top->cpu_rs_ready_i;
    Flit f;
    if (rx) for (int i = 0; i < 9; i++) f.w[i] = top->cpu_rs_flit_o[i];
    CHECK(top->rst_i || !top->cpu_rq_out_valid_o, "request-plane flit delivered to the CPU");
    for (int c = 0; c < sweep_watch; c++)
        if (!first_sweep[c] && ((top->sweep_o >> (8 * cl_y[c] + cl_x[c])) & 1)) first_sweep[c] = cyc;
    top->clk_i = 1;
    top->eval();
    cyc++;
    if (tx) txq.pop_front();
    if (rx) {
        int txn = (f.w[8] >> KTPU_FLIT_TXN_LSB) & 255;
        int sx = (f.w[8] >> KTPU_FLIT_SRC_X_LSB) & 15, sy = (f.w[8] >> KTPU_FLIT_SRC_Y_LSB) & 15;
        if (((f.w[8] >> KTPU_FLIT_TYPE_LSB) & 15) == KTPU_MSG_CL_WRITTEN) {
            written(f, txn, sx << 4 | sy);
            return;
        }
        done.push_back(f);
        done_at[txn] = ++done_count;
        std::vector<int> &sil = silent_of[sx << 4 | sy];
        if (std::find(sil.begin(), sil.end(), txn) != sil.end()) {   // a SILENT one failed: answered
            CHECK(code(f) != KTPU_CLERR_OK, "a SILENT instruction (txn %d) answered CLERR_OK", txn);
            sil.erase(std::find(sil.begin(), sil.end(), txn));
        }
        auto em = emit_of.find(txn);
        if (em != emit_of.end()) {
            if (code(f) == KTPU_CLERR_OK) owed[sx << 4 | sy].push_back(em->second);
            emit_of.erase(em);
        }
        if (((f.w[0] >> KTPU_CD_STATUS_OP_LSB) & 15) == KTPU_CLOP_STATUS) {
            CHECK(owed[sx << 4 | sy].empty(), "STATUS answered by (%d,%d) with %zu CL_WRITTEN still owed", sx, sy,
                  owed[sx << 4 | sy].size());
            for (int t : sil) {   // done before the STATUS was answered
                awaiting[t] = 0;
                outstanding[sx][sy]--;
            }
            sil.clear();
        }
        // exactly one completion per instruction, from the cluster it went to
        CHECK(awaiting[txn] == 1 + (sx << 4 | sy), "completion for txn %d from (%d,%d): %s", txn, sx, sy,
              awaiting[txn] ? "sent to another cluster" : "not outstanding (duplicated or stray)");
        awaiting[txn] = 0;
        outstanding[sx][sy]--;
    }
}

// ---- instructions -------------------------------------------------------
static uint8_t next_txn;
struct Ins { uint32_t w[7]; };
// Sends one instruction to cluster c (respecting NODE_IQ_DEPTH); returns its txn.
static int issue(int c, const Ins &in, int flits = 1) {
    int x = cl_x[c], y = cl_y[c];
    while (outstanding[x][y] >= KTPU_NODE_IQ_DEPTH) tick();
    int txn = next_txn++;
    CHECK(!awaiting[txn], "txn %d reused while still outstanding", txn);
    awaiting[txn] = 1 + (x << 4 | y);
    done_at.erase(txn);
    uint32_t w0 = in.w[KTPU_CI_OP_WORD];
    if ((w0 & KTPU_CI_OP_SILENT_MASK) && (w0 & 15) != KTPU_CLOP_STATUS) silent_of[x << 4 | y].push_back(txn);
    if ((w0 & 15) == KTPU_CLOP_GEMM && (w0 >> KTPU_CI_OP_EMIT_LSB & 1) && (w0 >> KTPU_CI_OP_WRITTEN_LSB & 1) &&
        !(w0 >> KTPU_CI_OP_FWD_LSB & 1))
        emit_of[txn] = {txn, in.w[KTPU_CI_BASE_WORD], in.w[KTPU_CI_STRIDE_WORD],
                        4 * (int)(in.w[KTPU_CI_SHAPE_WORD] & 0xFFFF), 8 * (int)(in.w[KTPU_CI_SHAPE_WORD] >> 16)};
    for (int k = 0; k < flits; k++) {
        Flit f;
        memset(&f, 0, sizeof f);
        for (int i = 0; i < 7; i++) f.w[i] = in.w[i];
        f.w[8] = ktpu_flit_pack(x, y, 0, 0, KTPU_MSG_CL_INSTR, txn, k == flits - 1);
        txq.push_back(f);
    }
    outstanding[x][y]++;
    return txn;
}
static Flit wait_done(int txn, long limit = 200000) {
    for (long t = 0; t < limit; t++) {
        for (size_t i = 0; i < done.size(); i++) {
            if ((int)((done[i].w[8] >> KTPU_FLIT_TXN_LSB) & 255) == txn) {
                Flit f = done[i];
                done.erase(done.begin() + i);
                CHECK(((f.w[8] >> KTPU_FLIT_TYPE_LSB) & 15) == KTPU_MSG_CL_DONE, "completion type");
                return f;
            }
        }
        tick();
    }
    // a stuck node: nothing after this can be trusted
    printf("FAIL: no completion for txn %d after %ld cycles (cycle %llu)\n", txn, limit,
           (unsigned long long)cyc);
    printf("node bench: %llu checks, %llu failed (stopped: time-out)\n", checks, fails + 1);
    exit(1);
}
static Ins i_fill(int side, int fmt, int off, uint32_t base, uint32_t stride, int groups, int per) {
    Ins i = {};
    i.w[KTPU_CI_OP_WORD] = KTPU_CLOP_FILL | side << KTPU_CI_OP_SIDE_LSB | fmt << KTPU_CI_OP_FMT_LSB;
    i.w[KTPU_CI_OFF_WORD] = (uint32_t)off;
    i.w[KTPU_CI_SHAPE_WORD] = (uint32_t)groups;
    i.w[KTPU_CI_NK_WORD] = (uint32_t)per;
    i.w[KTPU_CI_BASE_WORD] = base;
    i.w[KTPU_CI_STRIDE_WORD] = stride;
    return i;
}
static Ins i_gemm(int aoff, int boff, int toff, int gm, int gn, int nk, int acc, int emit,
                  uint32_t cbase, uint32_t cstride) {
    Ins i = {};
    // an emitting GEMM asks for its CL_WRITTEN (written_burst_test also
    // sends some that do not, and the bit without EMIT)
    i.w[KTPU_CI_OP_WORD] = KTPU_CLOP_GEMM | acc << KTPU_CI_OP_ACC_LSB | emit << KTPU_CI_OP_EMIT_LSB |
                           emit << KTPU_CI_OP_WRITTEN_LSB;
    i.w[KTPU_CI_OFF_WORD] = (uint32_t)aoff | (uint32_t)boff << 16;
    i.w[KTPU_CI_TOFF_WORD] = (uint32_t)toff;
    i.w[KTPU_CI_SHAPE_WORD] = (uint32_t)gm | (uint32_t)gn << 16;
    i.w[KTPU_CI_NK_WORD] = (uint32_t)nk;
    i.w[KTPU_CI_BASE_WORD] = cbase;
    i.w[KTPU_CI_STRIDE_WORD] = cstride;
    return i;
}
static Ins i_gemm_fwd(int aoff, int boff, int toff, int gm, int gn, int px, int py) {
    Ins i = i_gemm(aoff, boff, toff, gm, gn, 1, 0, 0, 0, 0);
    i.w[0] |= 1u << KTPU_CI_OP_FWD_LSB | (uint32_t)px << KTPU_CI_OP_PX_LSB | (uint32_t)py << KTPU_CI_OP_PY_LSB;
    return i;
}
static Ins i_drain(int toff, int gm, int gn, uint32_t cbase, uint32_t cstride) {
    Ins i = i_gemm(0, 0, toff, gm, gn, 0, 0, 0, cbase, cstride);
    i.w[0] = KTPU_CLOP_DRAIN;
    return i;
}
static Ins i_peer(int op, int px, int py, int toff, int n) {
    Ins i = {};
    i.w[0] = (uint32_t)op | (uint32_t)px << KTPU_CI_OP_PX_LSB | (uint32_t)py << KTPU_CI_OP_PY_LSB;
    i.w[KTPU_CI_TOFF_WORD] = (uint32_t)toff;
    i.w[KTPU_CI_SHAPE_WORD] = (uint32_t)n << 16;
    return i;
}
static Ins i_status(int clear) {
    Ins i = {};
    i.w[0] = KTPU_CLOP_STATUS | clear << KTPU_CI_OP_CLEAR_LSB;
    return i;
}

// ---- DRAM backdoor ------------------------------------------------------
static void dram_bytes(uint32_t addr, const uint8_t *p, size_t n) {   // addr, n multiples of 4
    for (size_t i = 0; i < n; i += 4)
        ktpu_dram_bd_write32(addr + (uint32_t)i, p[i] | p[i+1] << 8 | p[i+2] << 16 | (uint32_t)p[i+3] << 24);
}
static uint8_t dram_byte(uint32_t addr) {
    return (uint8_t)(ktpu_dram_bd_read32(addr & ~3u) >> (8 * (addr & 3)));
}
static void put_f16(uint32_t base, uint32_t stride, const uint16_t *x, int rows, int cols) {
    std::vector<uint8_t> row(cols * 2);
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) { row[2*c] = x[r*cols+c] & 255; row[2*c+1] = x[r*cols+c] >> 8; }
        dram_bytes(base + r * stride, row.data(), row.size());
    }
}
static void put_mx(uint32_t base, uint32_t stride, const int8_t *q, const uint8_t *s, int rows, int k) {
    for (int r = 0; r < rows; r++)
        for (int kb = 0; kb < k / 32; kb++) {
            uint8_t blk[32];
            ktpu_ref_mx_store(q + r * k + 32 * kb, s[r * (k / 32) + kb], blk);
            dram_bytes(base + r * stride + 32 * kb, blk, 32);
        }
}
static const uint8_t Canary = 0xA5;
static void canary(uint32_t base, uint32_t bytes) {
    for (uint32_t a = base; a < base + bytes; a += 4) ktpu_dram_bd_write32(a, 0xA5A5A5A5u);
}
// Every byte of [lo, hi) against want(a), a byte value or -1 (not looked
// at here); the first five differences are printed.
template <class Want>
static void check_bytes(const char *what, uint32_t lo, uint32_t hi, Want want) {
    long bad = 0;
    for (uint32_t a = lo; a < hi; a++) {
        int w = want(a);
        if (w < 0) continue;
        checks++;
        if (dram_byte(a) != w) {
            if (bad++ < 5) printf("FAIL %s: byte 0x%x = 0x%02x, expected 0x%02x\n", what, a, dram_byte(a), w);
            fails++;
        }
    }
}
// C (rows x cols FP16 at cbase, row stride ldc) against ref; every byte of
// the canaried area outside C must be untouched.
static void check_c(const char *what, uint32_t cbase, uint32_t ldc, int rows, int cols,
                    const uint16_t *ref, int ref_ld, uint32_t guard) {
    long bad = 0;
    // tiles inside this C announced written: as they were then
    for (size_t k = 0; k < snaps.size();) {
        const Snap &sn = snaps[k];
        if (sn.e.cbase < cbase || sn.e.cbase >= cbase + rows * ldc) { k++; continue; }
        std::vector<uint8_t> now = tile_bytes(sn.e);
        long diff = 0;
        for (size_t i = 0; i < now.size(); i++) diff += now[i] != sn.b[i];
        checks++;
        if (diff) {
            fails++;
            printf("FAIL %s: the tile at 0x%x had %ld bytes still to be written when its CL_WRITTEN came\n", what,
                   sn.e.cbase, diff);
        }
        snaps.erase(snaps.begin() + k);
    }
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++) {
            uint32_t a = cbase + i * ldc + 2 * j;
            uint16_t got = dram_byte(a) | dram_byte(a + 1) << 8;
            uint16_t exp = ref[i * ref_ld + j];
            checks++;
            if (got != exp) {
                if (bad++ < 5) printf("FAIL %s: C[%d][%d] = 0x%04x, reference 0x%04x\n", what, i, j, got, exp);
                fails++;
            }
        }
    check_bytes(what, cbase - guard, cbase + rows * ldc + guard, [&](uint32_t a) {
        bool inside = a >= cbase && a < cbase + rows * ldc && (a - cbase) % ldc < (uint32_t)cols * 2;
        return inside ? -1 : Canary;
    });
}

// ---- operands -----------------------------------------------------------
static uint16_t rnd_f16() {
    uint32_t r = rnd();
    if (r % 20 == 0) return 0;
    uint16_t e = 8 + (r >> 8) % 14;                    // 2^-7 .. 2^6
    return (uint16_t)((r & 0x8000) | e << 10 | ((r >> 16) & 0x3FF));
}
static void rnd_mx(int8_t *q, uint8_t *s, int rows, int k) {
    for (int i = 0; i < rows * k; i++) q[i] = (rnd() % 16 == 0) ? -64 : (int8_t)((int)(rnd() % 128) - 64);
    for (int i = 0; i < rows * k / 32; i++) s[i] = (uint8_t)((12 + rnd() % 16) << 3 | (rnd() & 7));
}

// Random FP16 A (M x K) and BT (N x K) put at a_at and bt_at (rows 2K
// bytes apart); returns the reference C (the tests around one small GEMM).
static std::vector<uint16_t> f16_gemm_in_dram(int M, int K, int N, uint32_t a_at, uint32_t bt_at) {
    std::vector<uint16_t> a(M * K), bt(N * K), c(M * N);
    std::vector<int8_t> qa(M * K), qb(N * K);
    std::vector<uint8_t> sa(M * K / 32), sb(N * K / 32);
    std::vector<uint32_t> tile(M * N);
    for (auto &x : a) x = rnd_f16();
    for (auto &x : bt) x = rnd_f16();
    put_f16(a_at, 2 * K, a.data(), M, K);
    put_f16(bt_at, 2 * K, bt.data(), N, K);
    ktpu_ref_gemm_f16(M, N, K, a.data(), bt.data(), qa.data(), sa.data(), qb.data(), sb.data(), tile.data(), c.data());
    return c;
}

struct Region { uint32_t a, bt, c; };
// the agents' window: the lower 8 MiB, or with two agents up to 14 MiB (both
// agents' refusals: each serves reads and writes anywhere)
static const uint32_t WinLimit = NODE_MEM_PORTS > 1 ? 0x00E00000 : 0x00800000;

// Straight GEMM on cluster set cls (split by M), FP16 or MX operands.
static void gemm_test(const char *name, int M, int K, int N, int mx, int nsplit, int kchunks, int first_cl,
                      uint32_t cpad, uint32_t coff) {
    std::vector<uint16_t> a(M * K), bt(N * K), c(M * N);
    std::vector<int8_t> qa(M * K), qb(N * K);
    std::vector<uint8_t> sa(M * K / 32), sb(N * K / 32);
    std::vector<uint32_t> tile(M * N);
    const uint32_t A = 0x10000, BT = 0x80000, C = 0x100000 + coff;
    uint32_t lda = mx ? K : 2 * K, ldb = lda, ldc = 2 * N + cpad;   // padded C rows
    unsigned rflags;
    if (mx) {
        rnd_mx(qa.data(), sa.data(), M, K);
        rnd_mx(qb.data(), sb.data(), N, K);
        put_mx(A, lda, qa.data(), sa.data(), M, K);
        put_mx(BT, ldb, qb.data(), sb.data(), N, K);
        rflags = ktpu_ref_gemm_mx(M, N, K, qa.data(), sa.data(), qb.data(), sb.data(), tile.data(), c.data());
    } else {
        for (auto &x : a) x = rnd_f16();
        for (auto &x : bt) x = rnd_f16();
        put_f16(A, lda, a.data(), M, K);
        put_f16(BT, ldb, bt.data(), N, K);
        rflags = ktpu_ref_gemm_f16(M, N, K, a.data(), bt.data(), qa.data(), sa.data(), qb.data(), sb.data(),
                                   tile.data(), c.data());
    }
    canary(C - 64, M * ldc + 128);
    int mc = M / nsplit, gm = mc / 4, gn = N / 4, nkb = K / 32, nk = nkb / kchunks;
    uint64_t t0 = cyc;
    std::vector<int> gemms, fills, stats;
    for (int ch = 0; ch < kchunks; ch++)
        for (int s = 0; s < nsplit; s++) {
            int cl = first_cl + s;
            int off = (ch % 2) * (512 / 2);                  // double-buffered halves of L1
            uint32_t kofs = (uint32_t)(ch * nk) * (mx ? 32 : 64);
            fills.push_back(issue(cl, i_fill(0, mx, off, A + s * mc * lda + kofs, lda, gm, nk)));
            fills.push_back(issue(cl, i_fill(1, mx, off, BT + kofs, ldb, gn, nk)));
            // Below REUSE_MIN the sweep must run from a full L1 for the
            // interlock to show: a barrier, so that the GEMM does not stream
            // (its K passes would be paced by the arriving blocks instead).
            if (gm * gn < KTPU_ACC_REUSE_MIN) fills.push_back(issue(cl, i_status(0)));
            gemms.push_back(issue(cl, i_gemm(off, off, 0, gm, gn, nk, ch > 0, ch == kchunks - 1,
                                             C + s * mc * ldc, ldc)));
        }
    for (int s = 0; s < nsplit; s++) stats.push_back(issue(first_cl + s, i_status(1)));
    for (int t : fills) CHECK(code(wait_done(t)) == KTPU_CLERR_OK, "%s: fill completion", name);
    for (int t : gemms) CHECK(code(wait_done(t)) == KTPU_CLERR_OK, "%s: gemm completion", name);
    uint64_t t1 = 0;
    unsigned hflags = 0;
    for (int t : stats) {
        Flit f = wait_done(t);
        t1 = cyc;
        CHECK(code(f) == KTPU_CLERR_OK, "%s: status", name);
        CHECK((f.w[KTPU_CD_FLAGS_WORD] & 0x30) == 0, "%s: node flags 0x%x", name, f.w[KTPU_CD_FLAGS_WORD]);
        hflags |= f.w[KTPU_CD_FLAGS_WORD] & 0xF;
        // K outermost: a tiling of REUSE_MIN sub-tiles or more never waits on the
        // reuse interlock; a smaller one must.
        unsigned pads = (f.w[KTPU_CD_FLAGS_WORD] >> KTPU_CD_FLAGS_PADS_LSB) & 0x3FF;
        if (gm * gn >= KTPU_ACC_REUSE_MIN) CHECK(pads == 0, "%s: %u interlock idle cycles", name, pads);
        else CHECK(pads > 0, "%s: a tiling below REUSE_MIN ran without padding", name);
        if (bench)
            printf("  counters: fill %u sweep %u drain %u idle %u starved %u bp %u\n",
                   f.w[1], f.w[2], f.w[3], f.w[4], f.w[5], f.w[6]);
    }
    CHECK(hflags == (rflags & 0xF), "%s: numeric flags 0x%x, reference 0x%x", name, hflags, rflags);
    check_c(name, C, ldc, M, N, c.data(), N, 64);
    double macs = (double)M * N * K, cy = (double)(t1 - t0);
    printf("%s: %dx%dx%d %s on %d cluster(s), %d K chunk(s): %llu cycles, %.1f%% of peak\n", name, M, K, N,
           mx ? "MXFP7" : "FP16", nsplit, kchunks, (unsigned long long)(t1 - t0),
           100.0 * macs / (cy * 512.0 * nsplit));
    if (csv)
        fprintf(csv, "gemm,%d,%d,%d,%s,%d,%llu,%.1f\n", M, K, N, mx ? "mx" : "fp16", nsplit,
                (unsigned long long)(t1 - t0), 100.0 * macs / (cy * 512.0 * nsplit));
}

// The production schedule a sequencing CPU runs (SPEC §10, §15): MXFP7
// operands (or FP16, quantised on the way), C split by M over nsplit
// clusters; each cluster holds its whole
// band of A resident in L1 A (one region per K block, filled while tile 0
// sweeps) and walks its C band in tiles of gm x gn = ACC_DEPTH sub-tiles:
// per tile, one GEMM per K block (nk = 1, acc bit from the second on, fused
// drain on the last), each B chunk filled into the half of L1 B the running
// sweep does not read. The harness keeps every cluster's instruction FIFO
// topped up (NODE_IQ_DEPTH each), never waiting on one cluster while
// another could take an instruction. Every cluster reads the same B chunks
// in the same order: grouped, each chunk's FILLs form one grouped read
// (docs/mem.md), DRAM read once for all clusters.
static void gemm_stream_test(const char *name, int M, int K, int N, int nsplit, bool fp16 = false,
                             bool grouped = false) {
    std::vector<int8_t> qa(M * K), qb(N * K);
    std::vector<uint8_t> sa(M * K / 32), sb(N * K / 32);
    std::vector<uint32_t> tile(M * N);
    std::vector<uint16_t> c(M * N), a16(fp16 ? M * K : 0), bt16(fp16 ? N * K : 0);
    const uint32_t lda = fp16 ? 2 * K : K, ldc = 2 * N;
    const int fmt = fp16 ? KTPU_FMT_FP16 : KTPU_FMT_MX;
    // two agents: each cluster reads these MXFP7 FILLs whole through its
    // nearer agent, wherever they lie; C above the middle, BT across it and
    // A below, as the placement that once balanced the reads by region
    const uint32_t A = 0x200000, BT = NODE_MEM_PORTS > 1 ? 0x800000 - (uint32_t)(N / 2) * lda : 0x300000;
    const uint32_t C = NODE_MEM_PORTS > 1 ? 0xC00000 : 0x400000;
    unsigned rflags;
    if (fp16) {
        for (auto &x : a16) x = rnd_f16();
        for (auto &x : bt16) x = rnd_f16();
        put_f16(A, lda, a16.data(), M, K);
        put_f16(BT, lda, bt16.data(), N, K);
        rflags = ktpu_ref_gemm_f16(M, N, K, a16.data(), bt16.data(), qa.data(), sa.data(), qb.data(), sb.data(),
                                   tile.data(), c.data());
    } else {
        rnd_mx(qa.data(), sa.data(), M, K);
        rnd_mx(qb.data(), sb.data(), N, K);
        put_mx(A, lda, qa.data(), sa.data(), M, K);
        put_mx(BT, lda, qb.data(), sb.data(), N, K);
        rflags = ktpu_ref_gemm_mx(M, N, K, qa.data(), sa.data(), qb.data(), sb.data(), tile.data(), c.data());
    }
    canary(C - 64, M * ldc + 128);
    const int mc = M / nsplit, gm = mc / 4, nkb = K / 32, kbb = fp16 ? 64 : 32;   // bytes per K block of a row
    const int gn = std::min(KTPU_ACC_DEPTH / gm, N / 4), ntiles = N / 4 / gn;
    if (gm * nkb > KTPU_L1_DEPTH || gn * 4 * ntiles != N || gm * gn > KTPU_ACC_DEPTH) {
        printf("FAIL %s: shape does not fit the resident-A plan\n", name);
        fails++;
        return;
    }
    std::deque<Ins> pend[4];
    for (int s = 0; s < nsplit; s++) {
        int ph = 0;                                         // L1 B half
        for (int t = 0; t < ntiles; t++)
            for (int kb = 0; kb < nkb; kb++) {
                if (t == 0)
                    pend[s].push_back(i_fill(0, fmt, gm * kb, A + s * mc * lda + kbb * kb, lda, gm, 1));
                int boff = ph * (KTPU_L1_DEPTH / 2);
                ph ^= 1;
                Ins fb = i_fill(1, fmt, boff, BT + t * gn * 4 * lda + kbb * kb, lda, gn, 1);
                if (grouped)   // the tag: the chunk's place in the stream, the same on every cluster
                    fb.w[0] |= (uint32_t)((t * nkb + kb) & 15) << KTPU_CI_OP_GROUP_ID_LSB |
                               (uint32_t)nsplit << KTPU_CI_OP_GROUP_N_LSB;
                pend[s].push_back(fb);
                pend[s].push_back(i_gemm(gm * kb, boff, 0, gm, gn, 1, kb > 0, kb == nkb - 1,
                                         C + s * mc * ldc + t * gn * 8, ldc));
            }
        pend[s].push_back(i_status(1));
    }
    uint64_t t0 = cyc, t1 = 0;
    std::vector<int> txns, stats;
    for (uint64_t &f : first_sweep) f = 0;
    sweep_watch = nsplit;
    for (;;) {
        bool left = false;
        for (int s = 0; s < nsplit; s++) {
            while (!pend[s].empty() && outstanding[cl_x[s]][cl_y[s]] < KTPU_NODE_IQ_DEPTH) {
                bool st = (pend[s].front().w[0] & 15) == KTPU_CLOP_STATUS;
                int x = issue(s, pend[s].front());
                (st ? stats : txns).push_back(x);
                pend[s].pop_front();
            }
            left |= !pend[s].empty();
        }
        if (!left) break;
        tick();
    }
    for (int x : txns) CHECK(code(wait_done(x)) == KTPU_CLERR_OK, "%s: completion", name);
    unsigned hflags = 0;
    for (int x : stats) {
        Flit f = wait_done(x);
        t1 = cyc;
        CHECK(code(f) == KTPU_CLERR_OK && (f.w[KTPU_CD_FLAGS_WORD] & 0x30) == 0, "%s: status", name);
        hflags |= f.w[KTPU_CD_FLAGS_WORD] & 0xF;
        CHECK(((f.w[KTPU_CD_FLAGS_WORD] >> KTPU_CD_FLAGS_PADS_LSB) & 0x3FF) == 0, "%s: interlock padded", name);
        // The emit buffer holds a whole tile: the fused drains never hold the
        // sweep up, so the cycles inside sweeps are the issues plus a few per
        // GEMM (pipeline start, completion hand-off) -- unless the plan's
        // traffic during the sweeps (A, B, all C but the last tile's) is more
        // than the one DRAM port carries (4 clusters): then memory sets the pace.
        unsigned issues = (unsigned)(ntiles * nkb * gm * gn), gemms = (unsigned)(ntiles * nkb);
        unsigned beats = (unsigned)nsplit * (unsigned)(4 * gm * nkb + ntiles * 4 * gn * nkb + (ntiles - 1) * gm * gn);
        if (beats <= issues * 4 / 5)
            CHECK(f.w[KTPU_CD_SWEEP_WORD] <= issues + 16 * gemms, "%s: %u cycles in sweeps for %u issues: the sweep waited",
                  name, f.w[KTPU_CD_SWEEP_WORD], issues);
        if (bench)
            printf("  counters: fill %u sweep %u drain %u idle %u starved %u bp %u\n",
                   f.w[1], f.w[2], f.w[3], f.w[4], f.w[5], f.w[6]);
    }
    sweep_watch = 0;
    CHECK(hflags == (rflags & 0xF), "%s: numeric flags 0x%x, reference 0x%x", name, hflags, rflags);
    check_c(name, C, ldc, M, N, c.data(), N, 64);
    printf("  first sweep, cycles from the first instruction:");
    for (int s = 0; s < nsplit; s++) printf(" cluster %d %llu", s, (unsigned long long)(first_sweep[s] - t0));
    printf("\n");
    double macs = (double)M * N * K, cy = (double)(t1 - t0);
    printf("%s: %dx%dx%d %s on %d cluster(s), %d tile(s) of %dx%d per cluster, resident A, "
           "%d K blocks chained%s: %llu cycles, %.1f%% of peak (ideal %.0f)\n", name, M, K, N,
           fp16 ? "FP16" : "MXFP7", nsplit, ntiles, 4 * gm, 4 * gn, nkb, grouped ? ", B grouped" : "",
           (unsigned long long)(t1 - t0), 100.0 * macs / (cy * 512.0 * nsplit), macs / (512.0 * nsplit));
    if (csv)
        fprintf(csv, "gemm_stream%s,%d,%d,%d,%s,%d,%llu,%.1f\n", grouped ? "_grouped" : "", M, K, N,
                fp16 ? "fp16" : "mx", nsplit, (unsigned long long)(t1 - t0), 100.0 * macs / (cy * 512.0 * nsplit));
}

// Streaming with FILLs laid out unlike their GEMM (SPEC §6: a GEMM reads
// whatever L1 holds). A FILL whose NK or offset differs from the GEMM's
// lands K blocks the sweep reads in other K passes, so it must hold the
// GEMM's start until it is complete; only a FILL with the GEMM's offset and
// NK may stream. The reference is built from the L1 the FILLs leave (entry
// -> source row group and K block), with stale entries overwritten first.
static void layout_test() {
    const int R = 8, K = 64, NB = 16;                  // A source 8 x 64, BT 16 x 64, MXFP7
    const uint32_t SA = 0x20000, SB = 0x21000, SJ = 0x22000, C = 0x24000, lda = K, ldc = 2 * NB;
    std::vector<int8_t> qa(R * K), qb(NB * K), qj(4 * 4 * 32);
    std::vector<uint8_t> sa(R * K / 32), sb(NB * K / 32), sj(16);
    rnd_mx(qa.data(), sa.data(), R, K);
    rnd_mx(qb.data(), sb.data(), NB, K);
    rnd_mx(qj.data(), sj.data(), 4, 4 * 32);
    put_mx(SA, lda, qa.data(), sa.data(), R, K);
    put_mx(SB, lda, qb.data(), sb.data(), NB, K);
    put_mx(SJ, 128, qj.data(), sj.data(), 4, 4 * 32);
    struct Case { const char *name; std::vector<Ins> fills; int aoff, boff, gm, nk;
                  std::vector<std::pair<int, int>> a_src; };   // A' row group i <- (source group, K block) per K pass
    // case 1: FILL A of 2 groups x NK 2 read by a GEMM of 4 groups x nk 1:
    //   entries 0..3 = (g0,k0) (g0,k1) (g1,k0) (g1,k1) become row groups 0..3
    // case 2: entries 8..11 from three FILLs, one of NK 2 at offset 9, read
    //   by a GEMM at offset 8 of 2 groups x nk 2 (entry 8 + 2g + kb)
    std::vector<Case> cases = {
        {"NK 2 FILL under an nk 1 GEMM",
         {i_fill(0, 1, 0, SA, lda, 2, 2), i_fill(1, 1, 0, SB, lda, 4, 1)}, 0, 0, 4, 1,
         {{0, 0}, {0, 1}, {1, 0}, {1, 1}}},
        {"NK 2 FILL at another offset",
         {i_fill(0, 1, 8, SA + 4 * lda, lda, 1, 1), i_fill(0, 1, 11, SA + 4 * lda + 32, lda, 1, 1),
          i_fill(1, 1, 8, SB, lda, 4, 2), i_fill(0, 1, 9, SA, lda, 1, 2)}, 8, 8, 2, 2,
         {{1, 0}, {0, 0}, {0, 1}, {1, 1}}},   // (g0,kb0) (g0,kb1) (g1,kb0) (g1,kb1)
    };
    for (const Case &cs : cases) {
        // stale L1: the entries the case reads hold other data first
        CHECK(code(wait_done(issue(0, i_fill(0, 1, cs.aoff, SJ, 128, 1, 4)))) == KTPU_CLERR_OK, "%s: junk fill", cs.name);
        CHECK(code(wait_done(issue(0, i_fill(1, 1, cs.boff, SJ, 128, 1, 4)))) == KTPU_CLERR_OK, "%s: junk fill", cs.name);
        int gm = cs.gm, nk = cs.nk, M = 4 * gm, Kp = 32 * nk;
        std::vector<int8_t> qa2(M * Kp), qb2(NB * Kp);
        std::vector<uint8_t> sa2(M * nk), sb2(NB * nk);
        for (int g = 0; g < gm; g++)
            for (int kb = 0; kb < nk; kb++) {
                auto src = cs.a_src[g * nk + kb];
                for (int l = 0; l < 4; l++) {
                    int r = 4 * src.first + l;
                    memcpy(&qa2[(4 * g + l) * Kp + 32 * kb], &qa[r * K + 32 * src.second], 32);
                    sa2[(4 * g + l) * nk + kb] = sa[r * (K / 32) + src.second];
                }
            }
        for (int r = 0; r < NB; r++)
            for (int kb = 0; kb < nk; kb++) {
                memcpy(&qb2[r * Kp + 32 * kb], &qb[r * K + 32 * kb], 32);
                sb2[r * nk + kb] = sb[r * (K / 32) + kb];
            }
        std::vector<uint32_t> tile(M * NB);
        std::vector<uint16_t> c(M * NB);
        ktpu_ref_gemm_mx(M, NB, Kp, qa2.data(), sa2.data(), qb2.data(), sb2.data(), tile.data(), c.data());
        canary(C - 64, M * ldc + 128);
        std::vector<int> t;
        // another cluster's long read first: the agent interleaves it one K
        // block (256 beats) at a time with this case's FILLs, so their later
        // K blocks land long after their first (an early start reads stale)
        int tl = ncl > 1 ? issue(1, i_fill(0, 1, 0, 0x100000, 128, 64, 4)) : -1;
        for (const Ins &f : cs.fills) t.push_back(issue(0, f));
        t.push_back(issue(0, i_gemm(cs.aoff, cs.boff, 0, gm, NB / 4, nk, 0, 1, C, ldc)));
        t.push_back(issue(0, i_status(0)));
        for (int x : t) CHECK(code(wait_done(x)) == KTPU_CLERR_OK, "%s: completion", cs.name);
        if (tl >= 0) CHECK(code(wait_done(tl)) == KTPU_CLERR_OK, "%s: the other cluster's FILL", cs.name);
        check_c(cs.name, C, ldc, M, NB, c.data(), NB, 64);
    }
}

// A refused FILL: answered CLERR_MEM with MEMST_WINDOW and the first byte
// past the window; the GEMM behind it (and the DRAIN, SEND and RECV after
// it) answer CLERR_FILLFAIL and write nothing, until a STATUS CLEAR; a FILL
// and a STATUS still run meanwhile, and after the CLEAR the same GEMM
// computes C. Refused once ahead of the GEMM's other FILL, once behind it;
// with two agents also a FILL whose first half (agent 0's rows) is read and
// whose second half is refused, the second agent held for 600 cycles so the
// first half's words land before the refusal: the GEMM behind must not start
// on the first half alone, the CL_DONE waits for the first half's words (the
// slot is not freed under them) and names the window's end; and an MXFP7
// FILL refused (read whole from the agent nearer the node).
static void failed_fill_test(int e, int peer) {
    const int M = 16, K = 64, N = 16;
    const uint32_t A = 0x50000, BT = 0x58000, C = 0x60000, Bad = WinLimit - 2 * K * 2;   // straddles the end
    const uint32_t Bad2 = WinLimit - (M / 2) * 2 * K;   // its first 8 rows in, the last 8 out
    const std::vector<uint16_t> c = f16_gemm_in_dram(M, K, N, A, BT);
    for (int order = 0; order < (NODE_MEM_PORTS > 1 ? 4 : 2); order++) {
        const char *name = order == 1 ? "refused FILL B behind FILL A"
                         : order == 0 ? "refused FILL A ahead of FILL B"
                         : order == 2 ? "FILL A's second half refused" : "refused MXFP7 FILL A (one agent)";
        canary(C - 64, M * 2 * N + 128);
        // all back to back: the GEMM reaches the engine before the refusal
        // comes back, with both FILLs laid out as it reads (streamable)
        if (order == 2) top->mem1_hold_i = 1;
        int ta = issue(e, i_fill(0, order == 3, 0, order == 1 ? A : order == 2 ? Bad2 : Bad, 2 * K, M / 4, K / 32));
        int tb = issue(e, i_fill(1, 0, 0, order == 1 ? Bad : BT, 2 * K, N / 4, K / 32));
        std::vector<Ins> after = {i_gemm(0, 0, 0, M / 4, N / 4, K / 32, 0, 1, C, 2 * N), i_drain(0, M / 4, N / 4, C, 2 * N),
                                  i_peer(KTPU_CLOP_SEND, cl_x[peer], cl_y[peer], 0, 1),
                                  i_peer(KTPU_CLOP_RECV, cl_x[peer], cl_y[peer], 0, 1)};
        std::vector<int> tx;
        for (const Ins &in : after) {
            tx.push_back(issue(e, in));
            if (top->mem1_hold_i) {   // the GEMM waits at the head, the first half lands
                for (int i = 0; i < 600; i++) tick();
                top->mem1_hold_i = 0;
            }
        }
        Flit fa = wait_done(ta), fb = wait_done(tb), fr = order == 1 ? fb : fa;
        unsigned long refused_at = done_at[order == 1 ? tb : ta];
        CHECK(code(order == 1 ? fa : fb) == KTPU_CLERR_OK, "%s: the good FILL", name);
        CHECK(code(fr) == KTPU_CLERR_MEM && ((fr.w[0] >> KTPU_CD_STATUS_MEMST_LSB) & 15) == KTPU_MEMST_WINDOW &&
                  fr.w[KTPU_CD_ADDR_WORD] == WinLimit,
              "%s: code %d status 0x%x addr 0x%x (expected CLERR_MEM, WINDOW, the first byte past the window 0x%x)",
              name, code(fr), fr.w[0], fr.w[KTPU_CD_ADDR_WORD], WinLimit);
        for (size_t i = 0; i < tx.size(); i++) {
            Flit f = wait_done(tx[i]);
            CHECK(code(f) == KTPU_CLERR_FILLFAIL, "%s: op %u answered %d, expected CLERR_FILLFAIL", name,
                  after[i].w[0] & 15, code(f));
            CHECK(done_at[tx[i]] > refused_at, "%s: op %u answered before the refused FILL", name, after[i].w[0] & 15);
        }
        CHECK(code(wait_done(issue(e, i_fill(0, 0, 0, A, 2 * K, M / 4, K / 32)))) == KTPU_CLERR_OK, "%s: FILL meanwhile", name);
        CHECK(code(wait_done(issue(e, i_gemm(0, 0, 0, M / 4, N / 4, K / 32, 0, 1, C, 2 * N)))) == KTPU_CLERR_FILLFAIL,
              "%s: GEMM after a good FILL, before the CLEAR", name);
        CHECK(code(wait_done(issue(e, i_status(0)))) == KTPU_CLERR_OK, "%s: STATUS", name);
        CHECK(code(wait_done(issue(e, i_gemm(0, 0, 0, M / 4, N / 4, K / 32, 0, 1, C, 2 * N)))) == KTPU_CLERR_FILLFAIL,
              "%s: GEMM after a STATUS without CLEAR", name);
        long bad = 0;
        for (uint32_t x = C - 64; x < C + M * 2 * N + 64; x++) bad += dram_byte(x) != Canary;
        CHECK(bad == 0, "%s: %ld bytes of C written by refused instructions", name, bad);
        CHECK(code(wait_done(issue(e, i_status(1)))) == KTPU_CLERR_OK, "%s: STATUS CLEAR", name);
        int t1 = issue(e, i_fill(1, 0, 0, BT, 2 * K, N / 4, K / 32));
        int t2 = issue(e, i_gemm(0, 0, 0, M / 4, N / 4, K / 32, 0, 1, C, 2 * N));
        int t3 = issue(e, i_status(1));
        for (int t : {t1, t2, t3}) CHECK(code(wait_done(t)) == KTPU_CLERR_OK, "%s: after the CLEAR", name);
        check_c(name, C, 2 * N, M, N, c.data(), N, 64);
    }
}

// A grouped FILL whose other members never come (docs/mem.md, grouped
// reads): after the agent's wait (20,000 cycles in this bench) the FILL is
// refused (CLERR_MEM, MEMST_GROUP, its base), the GEMM behind it writes
// nothing (CLERR_FILLFAIL), and after a STATUS CLEAR the cluster runs the
// same GEMM ungrouped, exactly.
static void lone_group_test(int e) {
    const int M = 16, K = 64, N = 16;
    const uint32_t A = 0x50000, BT = 0x58000, C = 0x60000;
    const std::vector<uint16_t> c = f16_gemm_in_dram(M, K, N, A, BT);
    canary(C - 64, M * 2 * N + 128);
    for (int fmt : {KTPU_FMT_FP16, KTPU_FMT_MX}) {   // MXFP7 too: on two agents it goes whole to agent 0
        Ins fa = i_fill(0, fmt, 0, A, 2 * K, M / 4, K / 32);
        fa.w[0] |= 7u << KTPU_CI_OP_GROUP_ID_LSB | 2u << KTPU_CI_OP_GROUP_N_LSB;
        int ta = issue(e, fa);
        int tb = issue(e, i_fill(1, 0, 0, BT, 2 * K, N / 4, K / 32));
        int tg = issue(e, i_gemm(0, 0, 0, M / 4, N / 4, K / 32, 0, 1, C, 2 * N));
        Flit f = wait_done(ta, 100000);
        CHECK(code(f) == KTPU_CLERR_MEM && ((f.w[0] >> KTPU_CD_STATUS_MEMST_LSB) & 15) == KTPU_MEMST_GROUP &&
                  f.w[KTPU_CD_ADDR_WORD] == A,
              "lone grouped FILL (fmt %d): code %d status 0x%x addr 0x%x (expected CLERR_MEM, GROUP, 0x%x)", fmt,
              code(f), f.w[0], f.w[KTPU_CD_ADDR_WORD], A);
        CHECK(code(wait_done(tb)) == KTPU_CLERR_OK, "lone grouped FILL: the other FILL");
        CHECK(code(wait_done(tg)) == KTPU_CLERR_FILLFAIL, "lone grouped FILL: the GEMM behind it ran");
        long bad = 0;
        for (uint32_t x = C - 64; x < C + M * 2 * N + 64; x++) bad += dram_byte(x) != Canary;
        CHECK(bad == 0, "lone grouped FILL: %ld bytes of C written", bad);
        CHECK(code(wait_done(issue(e, i_status(1)))) == KTPU_CLERR_OK, "lone grouped FILL: STATUS CLEAR");
    }
    int t0 = issue(e, i_fill(0, 0, 0, A, 2 * K, M / 4, K / 32));
    int t1 = issue(e, i_fill(1, 0, 0, BT, 2 * K, N / 4, K / 32));
    int t2 = issue(e, i_gemm(0, 0, 0, M / 4, N / 4, K / 32, 0, 1, C, 2 * N));
    int t3 = issue(e, i_status(1));
    for (int t : {t0, t1, t2, t3}) CHECK(code(wait_done(t)) == KTPU_CLERR_OK, "lone grouped FILL: after the CLEAR");
    check_c("lone grouped FILL, then ungrouped", C, 2 * N, M, N, c.data(), N, 64);
}

// Two agents: a drain's row bands alternate between them, and writes that
// could overlap still land in the node's order (node_top's write-order check
// sees every burst; the data is checked as well). (1) Two GEMMs whose Cs
// overlap by one row band, the first one's band held at the second agent:
// the second GEMM's overlapping band, bound for the other agent, must wait
// for it. (2) One GEMM whose C rows overlap (a 16-byte stride under 32-byte
// rows): all its bands go to one agent, in order.
static void drain_order_test(int e) {
    const int M = 8, K = 32, N = 16, G = M / 4, GN = N / 4;
    auto dist = [](int x, int y, int ax, int ay) { return abs(x - ax) + abs(y - ay); };
    const bool near1 = dist(cl_x[e], cl_y[e], KTPU_NODE_MEM1_X, KTPU_NODE_MEM1_Y) <
                       dist(cl_x[e], cl_y[e], KTPU_NODE_MEM_X, KTPU_NODE_MEM_Y);   // band 0's agent
    const uint32_t A1 = 0x50000, A2 = 0x51000, BT = 0x52000, ldc = 2 * N;
    std::vector<uint16_t> a1(M * K), a2(M * K), bt(N * K), c1(M * N), c2(M * N);
    std::vector<int8_t> qa(M * K), qb(N * K);
    std::vector<uint8_t> sa(M * K / 32), sb(N * K / 32);
    std::vector<uint32_t> tile(M * N);
    for (auto *v : {&a1, &a2, &bt})
        for (auto &x : *v) x = rnd_f16();
    put_f16(A1, 2 * K, a1.data(), M, K);
    put_f16(A2, 2 * K, a2.data(), M, K);
    put_f16(BT, 2 * K, bt.data(), N, K);
    ktpu_ref_gemm_f16(M, N, K, a1.data(), bt.data(), qa.data(), sa.data(), qb.data(), sb.data(), tile.data(), c1.data());
    ktpu_ref_gemm_f16(M, N, K, a2.data(), bt.data(), qa.data(), sa.data(), qb.data(), sb.data(), tile.data(), c2.data());
    for (int t : {issue(e, i_fill(0, 0, 0, A1, 2 * K, G, 1)), issue(e, i_fill(0, 0, G, A2, 2 * K, G, 1)),
                  issue(e, i_fill(1, 0, 0, BT, 2 * K, GN, 1))})
        CHECK(code(wait_done(t)) == KTPU_CLERR_OK, "drain order: FILL");
    // a GEMM writing its tile over another's asks for no CL_WRITTEN (the
    // bench would compare the overwritten bytes with the tile)
    auto gemm = [&](int aoff, int toff, uint32_t c, uint32_t stride) {
        Ins in = i_gemm(aoff, 0, toff, G, GN, 1, 0, 1, c, stride);
        in.w[KTPU_CI_OP_WORD] &= ~(1u << KTPU_CI_OP_WRITTEN_LSB);
        return issue(e, in);
    };
    auto held_run = [&](const char *name, std::initializer_list<int> txns) {
        for (int t : txns) CHECK(code(wait_done(t)) == KTPU_CLERR_OK, "%s: GEMM", name);
        for (int i = 0; i < 600; i++) tick();
        top->mem1_hold_i = 0;
        CHECK(code(wait_done(issue(e, i_status(0)))) == KTPU_CLERR_OK, "%s: STATUS", name);
    };
    // (1) the first GEMM's band at the held agent: band 0 if it goes there
    const char *name1 = "drain order: two GEMMs overlapping by a row band";
    const uint32_t C = 0x60000, C2 = near1 ? C - 4 * ldc : C + 4 * ldc, lo = std::min(C, C2);
    canary(lo - 64, 12 * ldc + 128);
    top->mem1_hold_i = 1;
    int t1 = gemm(0, 0, C, ldc), t2 = gemm(G, G * GN, C2, ldc);
    held_run(name1, {t1, t2});
    std::vector<uint16_t> want(12 * N);
    for (int r = 0; r < M; r++)
        for (int j = 0; j < N; j++) want[((C - lo) / ldc + r) * N + j] = c1[r * N + j];
    for (int r = 0; r < M; r++)
        for (int j = 0; j < N; j++) want[((C2 - lo) / ldc + r) * N + j] = c2[r * N + j];
    check_c(name1, lo, ldc, 12, N, want.data(), N, 64);
    // (2) rows 16 bytes apart: each row written over the one before
    const char *name2 = "drain order: a GEMM whose C rows overlap";
    const uint32_t C3 = 0x64000, s3 = 16, n3 = s3 * (M - 1) + 2 * N;
    canary(C3 - 64, n3 + 128);
    top->mem1_hold_i = 1;
    held_run(name2, {gemm(0, 0, C3, s3)});
    std::vector<uint8_t> img(n3);
    for (int r = 0; r < M; r++)
        for (int j = 0; j < N; j++) {
            img[s3 * r + 2 * j] = c1[r * N + j] & 255;
            img[s3 * r + 2 * j + 1] = c1[r * N + j] >> 8;
        }
    check_bytes(name2, C3 - 64, C3 + n3 + 64, [&](uint32_t a) { return a >= C3 && a < C3 + n3 ? img[a - C3] : Canary; });
}

// A fused drain whose C runs past the window: the GEMM starts (CL_DONE OK),
// the burst of its second row band is refused, and its CL_WRITTEN says so
// (CLERR_MEM, MEMST_WINDOW, the burst's address: the limit); STATUS shows
// WRERR until a CLEAR; no byte past the limit is written.
static void refused_write_test(int e) {
    const int M = 8, K = 32, N = 16;
    std::vector<int8_t> qa(M * K), qb(N * K);
    std::vector<uint8_t> sa(M * K / 32), sb(N * K / 32);
    const uint32_t A = 0x50000, BT = 0x58000, ldc = 2 * N, C = WinLimit - 4 * ldc;
    rnd_mx(qa.data(), sa.data(), M, K);
    rnd_mx(qb.data(), sb.data(), N, K);
    put_mx(A, K, qa.data(), sa.data(), M, K);
    put_mx(BT, K, qb.data(), sb.data(), N, K);
    canary(WinLimit, 4 * ldc + 64);
    int t[] = {issue(e, i_fill(0, 1, 0, A, K, M / 4, 1)), issue(e, i_fill(1, 1, 0, BT, K, N / 4, 1)),
               issue(e, i_gemm(0, 0, 0, M / 4, N / 4, 1, 0, 1, C, ldc)), issue(e, i_status(0))};
    for (int k = 0; k < 3; k++) CHECK(code(wait_done(t[k])) == KTPU_CLERR_OK, "refused write: completion %d", k);
    Flit st = wait_done(t[3]);
    CHECK(st.w[KTPU_CD_FLAGS_WORD] & KTPU_CD_FLAGS_WRERR_MASK, "refused write: STATUS without WRERR (flags 0x%x)",
          st.w[KTPU_CD_FLAGS_WORD]);
    CHECK(written_err.size() == 1, "refused write: %zu CL_WRITTEN with an error, expected 1", written_err.size());
    if (written_err.size() == 1) {
        const Flit &f = written_err[0];
        CHECK(code(f) == KTPU_CLERR_MEM && ((f.w[0] >> KTPU_CD_STATUS_MEMST_LSB) & 15) == KTPU_MEMST_WINDOW &&
                  ((f.w[0] >> KTPU_CD_STATUS_OP_LSB) & 15) == KTPU_CLOP_GEMM && f.w[KTPU_CD_ADDR_WORD] == WinLimit,
              "refused write: CL_WRITTEN status 0x%x address 0x%x (expected GEMM, CLERR_MEM, WINDOW, 0x%x)", f.w[0],
              f.w[KTPU_CD_ADDR_WORD], WinLimit);
    }
    written_err.clear();
    long bad = 0;
    for (uint32_t x = WinLimit; x < WinLimit + 4 * ldc + 64; x++) bad += dram_byte(x) != Canary;
    CHECK(bad == 0, "refused write: %ld bytes past the window written", bad);
    CHECK(code(wait_done(issue(e, i_status(1)))) == KTPU_CLERR_OK, "refused write: STATUS CLEAR");
    st = wait_done(issue(e, i_status(0)));
    CHECK(!(st.w[KTPU_CD_FLAGS_WORD] & KTPU_CD_FLAGS_WRERR_MASK), "refused write: WRERR after the CLEAR");
}

// Sixteen one-sub-tile tiles LOADed with K block 0, then sixteen GEMMs that
// ADD block 1 with EMIT back to back (ADD_EMIT: one command each, so they
// start a few cycles apart), each into its own C: their bursts leave faster
// than the agent's acknowledgements come back, so more tiles wait for their
// CL_WRITTEN than the drain engine keeps marks for, and the last flit of a
// tile waits for a free mark. Every tile announced written is whole
// (check_c), in order, before the STATUS answer. Then again with the CPU's
// response input closed for stall cycles and open every other cycle after,
// the stall starting once the STATUS is sent (CL_WRITTENs pile up at the
// node: its marks full, a tile's last flit held) or once the last GEMM has
// answered (the last CL_WRITTEN waits when the STATUS could be answered):
// the STATUS must never overtake a CL_WRITTEN.
static void written_burst_test(int e, int stall, bool late) {
    const int K = 64, T = 16;
    std::vector<int8_t> qa(4 * K), qb(4 * K);
    std::vector<uint8_t> sa(8), sb(8);
    std::vector<uint32_t> tile(16);
    std::vector<uint16_t> c(16);
    const uint32_t A = 0x50000, BT = 0x58000, C = 0x60000, ldc = 64;
    rnd_mx(qa.data(), sa.data(), 4, K);
    rnd_mx(qb.data(), sb.data(), 4, K);
    put_mx(A, K, qa.data(), sa.data(), 4, K);
    put_mx(BT, K, qb.data(), sb.data(), 4, K);
    ktpu_ref_gemm_mx(4, 4, K, qa.data(), sa.data(), qb.data(), sb.data(), tile.data(), c.data());
    canary(C - 64, T * 4 * ldc + 128);
    // one group, K blocks 0 and 1 at entries 0 and 1
    std::vector<int> t = {issue(e, i_fill(0, 1, 0, A, K, 1, 2)), issue(e, i_fill(1, 1, 0, BT, K, 1, 2))};
    // the LOADs carry WRITTEN without EMIT (nothing to answer), the first
    // three emitting GEMMs do not ask (no CL_WRITTEN may come for them)
    for (int k = 0; k < T; k++) {
        Ins g = i_gemm(0, 0, k, 1, 1, 1, 0, 0, 0, 0);
        g.w[0] |= 1u << KTPU_CI_OP_WRITTEN_LSB;
        t.push_back(issue(e, g));
    }
    for (int k = 0; k < T; k++) {
        Ins g = i_gemm(1, 1, k, 1, 1, 1, 1, 1, C + k * 4 * ldc, ldc);
        if (k < 3) g.w[0] &= ~(1u << KTPU_CI_OP_WRITTEN_LSB);
        t.push_back(issue(e, g));
    }
    int ts = issue(e, i_status(0));
    for (int pass = 0; pass < 2; pass++) {
        if (stall && pass == late) {
            rs_mode = 1;
            for (int k = 0; k < stall; k++) tick();
            rs_mode = 2;
        }
        if (!pass)
            for (int x : t) CHECK(code(wait_done(x)) == KTPU_CLERR_OK, "written burst: completion");
    }
    CHECK(code(wait_done(ts)) == KTPU_CLERR_OK, "written burst: STATUS");
    rs_mode = 0;
    // the tiles one above the other, C rows padded to ldc: one C of 4T rows
    std::vector<uint16_t> all(T * 16);
    for (int k = 0; k < T; k++) std::copy(c.begin(), c.end(), all.begin() + 16 * k);
    check_c("written burst", C, ldc, 4 * T, 4, all.data(), 4, 64);
}

// Split-K: cluster p does K-blocks [0, h), cluster q [h, nkb); q SENDs its
// tile to p (ADD_PEER), p drains.
// grant_first: the receiver's RECV goes out while the sender is idle (its
// sweep done, STATUS answered) and the SEND only 300 cycles later, so the
// grant waits in the sender's grant table: it must be taken by a node whose
// clock gate is closed.
static void splitk_test(int M, int K, int N, int p, int q, bool grant_first = false) {
    std::vector<uint16_t> a(M * K), bt(N * K), c(M * N);
    std::vector<int8_t> qa(M * K), qb(N * K);
    std::vector<uint8_t> sa(M * K / 32), sb(N * K / 32);
    std::vector<uint32_t> tp(M * N), tq(M * N);
    const uint32_t A = 0x20000, BT = 0x90000, C = 0x180000 + 64;
    uint32_t lda = 2 * K, ldc = 2 * N + 8;
    for (auto &x : a) x = rnd_f16();
    for (auto &x : bt) x = rnd_f16();
    put_f16(A, lda, a.data(), M, K);
    put_f16(BT, lda, bt.data(), N, K);
    ktpu_ref_quant_matrix(a.data(), M, K, qa.data(), sa.data());
    ktpu_ref_quant_matrix(bt.data(), N, K, qb.data(), sb.data());
    int nkb = K / 32, h = nkb / 2;
    ktpu_ref_gemm_mx_partial(M, N, nkb, qa.data(), sa.data(), qb.data(), sb.data(), 0, h, 0, tp.data());
    ktpu_ref_gemm_mx_partial(M, N, nkb, qa.data(), sa.data(), qb.data(), sb.data(), h, nkb, 0, tq.data());
    // the hardware tile is in sub-tile order; the reference is row-major, the
    // element-wise add and emit do not care
    ktpu_ref_tile_add_peer(tp.data(), tq.data(), M * N);
    ktpu_ref_tile_emit(tp.data(), c.data(), M * N);
    canary(C - 64, M * ldc + 128);
    int gm = M / 4, gn = N / 4;
    uint64_t t0 = cyc;
    std::vector<int> t;
    t.push_back(issue(p, i_fill(0, 0, 0, A, lda, gm, h)));
    t.push_back(issue(p, i_fill(1, 0, 0, BT, lda, gn, h)));
    t.push_back(issue(q, i_fill(0, 0, 0, A + 64 * h, lda, gm, nkb - h)));
    t.push_back(issue(q, i_fill(1, 0, 0, BT + 64 * h, lda, gn, nkb - h)));
    t.push_back(issue(p, i_gemm(0, 0, 0, gm, gn, h, 0, 0, 0, 0)));
    t.push_back(issue(q, i_gemm(0, 0, 0, gm, gn, nkb - h, 0, 0, 0, 0)));
    if (grant_first) {
        CHECK(code(wait_done(issue(q, i_status(0)))) == KTPU_CLERR_OK, "split-K: sender's STATUS");
        t.push_back(issue(p, i_peer(KTPU_CLOP_RECV, cl_x[q], cl_y[q], 0, gm * gn)));
        for (int i = 0; i < 300; i++) tick();
        t.push_back(issue(q, i_peer(KTPU_CLOP_SEND, cl_x[p], cl_y[p], 0, gm * gn)));
    } else {
        t.push_back(issue(q, i_peer(KTPU_CLOP_SEND, cl_x[p], cl_y[p], 0, gm * gn)));
        t.push_back(issue(p, i_peer(KTPU_CLOP_RECV, cl_x[q], cl_y[q], 0, gm * gn)));
    }
    t.push_back(issue(p, i_drain(0, gm, gn, C, ldc)));
    int st = issue(p, i_status(1)), sq = issue(q, i_status(1));
    for (int x : t) CHECK(code(wait_done(x)) == KTPU_CLERR_OK, "split-K: completion %d", x);
    Flit f = wait_done(st);
    wait_done(sq);
    CHECK(code(f) == KTPU_CLERR_OK && (f.w[KTPU_CD_FLAGS_WORD] & 0x3F) == 0, "split-K: status");
    check_c("split-K", C, ldc, M, N, c.data(), N, 64);
    printf("split-K %dx%dx%d on 2 clusters (SEND -> ADD_PEER%s): %llu cycles\n", M, K, N,
           grant_first ? ", the grant first" : "", (unsigned long long)(cyc - t0));
}

// PEER_DATA that no stream expects (docs/node.md): a packet to cluster p
// with no stream open, then its STATUS. The packet is consumed and dropped
// (sticky STRAY), it blocks nothing (the STATUS behind it on the same
// plane is answered), and CLEAR clears the flag.
static void stray_test(int p) {
    for (int k = 0; k < 2; k++) {   // a PEER_DATA packet is two flits
        Flit f;
        memset(&f, 0, sizeof f);
        f.w[KTPU_PD_INDEX_WORD] = 0;
        f.w[8] = ktpu_flit_pack(cl_x[p], cl_y[p], 0, 0, KTPU_MSG_PEER_DATA, 0, k == 1);
        txq.push_back(f);
    }
    Flit f = wait_done(issue(p, i_status(1)));
    CHECK(code(f) == KTPU_CLERR_OK && (f.w[KTPU_CD_FLAGS_WORD] & KTPU_CD_FLAGS_STRAY_MASK),
          "stray PEER_DATA: STRAY set (flags 0x%x)", f.w[KTPU_CD_FLAGS_WORD]);
    f = wait_done(issue(p, i_status(1)));
    CHECK(code(f) == KTPU_CLERR_OK && !(f.w[KTPU_CD_FLAGS_WORD] & KTPU_CD_FLAGS_STRAY_MASK),
          "stray PEER_DATA: STRAY cleared (flags 0x%x)", f.w[KTPU_CD_FLAGS_WORD]);
    printf("stray PEER_DATA to cluster %d: dropped, STRAY set and cleared\n", p);
}

// SILENT instructions (CI_OP SILENT, docs/node.md): a FILL A, a FILL B and
// a GEMM (EMIT, no WRITTEN), then a DRAIN of the same tile elsewhere, that
// succeed answer nothing; the STATUS behind each group (its own SILENT bit
// set: a STATUS always answers) comes once they are done, with both copies
// of C exact. One that fails is answered as ever: a refused SILENT FILL with
// CLERR_MEM, the SILENT GEMM behind it with CLERR_FILLFAIL, and that GEMM
// writes nothing; the good SILENT FILL beside them still answers nothing.
static void silent_test(int e) {
    const int M = 16, K = 64, N = 16;
    const uint32_t A = 0x50000, BT = 0x58000, C = 0x60000, C2 = 0x61000, C3 = 0x62000;
    const uint32_t Bad = WinLimit - 2 * K * 2, S = KTPU_CI_OP_SILENT_MASK;
    const std::vector<uint16_t> c = f16_gemm_in_dram(M, K, N, A, BT);
    for (uint32_t at : {C, C2, C3}) canary(at - 64, M * 2 * N + 128);
    Ins fa = i_fill(0, 0, 0, A, 2 * K, M / 4, K / 32), fb = i_fill(1, 0, 0, BT, 2 * K, N / 4, K / 32);
    Ins g = i_gemm(0, 0, 0, M / 4, N / 4, K / 32, 0, 1, C, 2 * N), dr = i_drain(0, M / 4, N / 4, C2, 2 * N);
    Ins st = i_status(1);
    g.w[0] &= ~KTPU_CI_OP_WRITTEN_MASK;
    for (Ins *i : {&fa, &fb, &g, &dr, &st}) i->w[0] |= S;
    // at most NODE_IQ_DEPTH - 1 SILENT ones before a STATUS: they hold their credits until it answers
    std::vector<int> quiet = {issue(e, fa), issue(e, fb), issue(e, g)};
    CHECK(code(wait_done(issue(e, st))) == KTPU_CLERR_OK, "SILENT: the STATUS behind them");
    quiet.push_back(issue(e, dr));
    CHECK(code(wait_done(issue(e, st))) == KTPU_CLERR_OK, "SILENT: the STATUS behind the DRAIN");
    for (int t : quiet) CHECK(!done_at.count(t), "SILENT: txn %d answered", t);
    check_c("SILENT: C", C, 2 * N, M, N, c.data(), N, 64);
    check_c("SILENT: the DRAIN's copy", C2, 2 * N, M, N, c.data(), N, 64);
    Ins bad = i_fill(0, 0, 0, Bad, 2 * K, M / 4, K / 32);
    bad.w[0] |= S;
    g.w[KTPU_CI_BASE_WORD] = C3;
    int tbad = issue(e, bad), tgood = issue(e, fb), tg = issue(e, g);
    Flit fr = wait_done(tbad);
    CHECK(code(fr) == KTPU_CLERR_MEM && fr.w[KTPU_CD_ADDR_WORD] == WinLimit,
          "SILENT: a refused FILL answered %d at 0x%x (expected CLERR_MEM at 0x%x)", code(fr), fr.w[KTPU_CD_ADDR_WORD],
          WinLimit);
    CHECK(code(wait_done(tg)) == KTPU_CLERR_FILLFAIL, "SILENT: the GEMM behind a refused FILL");
    CHECK(code(wait_done(issue(e, i_status(1)))) == KTPU_CLERR_OK, "SILENT: STATUS CLEAR");
    CHECK(!done_at.count(tgood), "SILENT: the good FILL beside the refused one answered");
    check_bytes("SILENT: C of the GEMM after a refused FILL", C3 - 64, C3 + M * 2 * N + 64,
                [](uint32_t) { return (int)Canary; });
    printf("SILENT on cluster %d: FILL, GEMM and DRAIN answer only when they fail\n", e);
}

// FWD split-K: cluster p keeps K-blocks [0, nkb-1) resident at tile offset
// PT; cluster q first GEMMs blocks [0, 2) into its own tile at QT, then a
// GEMM with FWD sends block nkb-1's R22(v) (one command per sub-tile, the
// tile untouched) to p, which RECVs it with ADD_PEER at PT + g*gn + h. C =
// R16(R22(partial + R22(v))) bit for bit; q's tile must still hold its own
// partial (DRAINed after the FWD and checked too).
static void fwd_test(int M, int K, int N, int p, int q) {
    std::vector<uint16_t> a(M * K), bt(N * K), c(M * N), c2(M * N);
    std::vector<int8_t> qa(M * K), qb(N * K);
    std::vector<uint8_t> sa(M * K / 32), sb(N * K / 32);
    std::vector<uint32_t> tp(M * N), tf(M * N), tq(M * N);
    const uint32_t A = 0x20000, BT = 0x90000, C = 0x180000 + 64, C2 = 0x1A0000 + 64;
    const int PT = 8, QT = 100;
    uint32_t lda = 2 * K, ldc = 2 * N + 8;
    for (auto &x : a) x = rnd_f16();
    for (auto &x : bt) x = rnd_f16();
    put_f16(A, lda, a.data(), M, K);
    put_f16(BT, lda, bt.data(), N, K);
    ktpu_ref_quant_matrix(a.data(), M, K, qa.data(), sa.data());
    ktpu_ref_quant_matrix(bt.data(), N, K, qb.data(), sb.data());
    int nkb = K / 32, f = nkb - 1;
    unsigned rf = ktpu_ref_gemm_mx_partial(M, N, nkb, qa.data(), sa.data(), qb.data(), sb.data(), 0, f, 0, tp.data());
    rf |= ktpu_ref_gemm_mx_partial(M, N, nkb, qa.data(), sa.data(), qb.data(), sb.data(), f, nkb, 0, tf.data());
    rf |= ktpu_ref_tile_add_peer(tp.data(), tf.data(), M * N);   // FWD value = R22(v) = a LOAD of block f
    rf |= ktpu_ref_tile_emit(tp.data(), c.data(), M * N);
    rf |= ktpu_ref_gemm_mx_partial(M, N, nkb, qa.data(), sa.data(), qb.data(), sb.data(), 0, 2, 0, tq.data());
    rf |= ktpu_ref_tile_emit(tq.data(), c2.data(), M * N);
    canary(C - 64, M * ldc + 128);
    canary(C2 - 64, M * ldc + 128);
    int gm = M / 4, gn = N / 4;
    uint64_t t0 = cyc;
    std::vector<int> t;
    t.push_back(issue(p, i_fill(0, 0, 0, A, lda, gm, f)));
    t.push_back(issue(p, i_fill(1, 0, 0, BT, lda, gn, f)));
    t.push_back(issue(p, i_gemm(0, 0, PT, gm, gn, f, 0, 0, 0, 0)));
    t.push_back(issue(q, i_fill(0, 0, 0, A, lda, gm, 2)));
    t.push_back(issue(q, i_fill(1, 0, 0, BT, lda, gn, 2)));
    t.push_back(issue(q, i_gemm(0, 0, QT, gm, gn, 2, 0, 0, 0, 0)));
    t.push_back(issue(q, i_fill(0, 0, 256, A + 64 * f, lda, gm, 1)));
    t.push_back(issue(q, i_fill(1, 0, 256, BT + 64 * f, lda, gn, 1)));
    t.push_back(issue(q, i_gemm_fwd(256, 256, QT, gm, gn, cl_x[p], cl_y[p])));
    t.push_back(issue(q, i_drain(QT, gm, gn, C2, ldc)));
    // the FWD GEMM must wait for its grant: nothing for it until p RECVs
    int fwd_txn = t[t.size() - 2];
    for (int k = 0; k < 3000; k++) tick();
    bool early = false;
    for (auto &d : done) early |= (int)((d.w[8] >> KTPU_FLIT_TXN_LSB) & 255) == fwd_txn;
    CHECK(!early, "FWD split-K: the FWD GEMM started before its receiver granted the stream");
    t.push_back(issue(p, i_peer(KTPU_CLOP_RECV, cl_x[q], cl_y[q], PT, gm * gn)));
    t.push_back(issue(p, i_drain(PT, gm, gn, C, ldc)));
    int st = issue(p, i_status(1)), sq = issue(q, i_status(1));
    for (int x : t) CHECK(code(wait_done(x)) == KTPU_CLERR_OK, "FWD split-K: completion %d", x);
    Flit fp = wait_done(st), fq = wait_done(sq);
    CHECK(code(fp) == KTPU_CLERR_OK && (fp.w[KTPU_CD_FLAGS_WORD] & 0x30) == 0, "FWD split-K: receiver status");
    CHECK(code(fq) == KTPU_CLERR_OK && (fq.w[KTPU_CD_FLAGS_WORD] & 0x30) == 0, "FWD split-K: sender status");
    CHECK(((fp.w[KTPU_CD_FLAGS_WORD] | fq.w[KTPU_CD_FLAGS_WORD]) & 0xF) == (rf & 0xF),
          "FWD split-K: numeric flags 0x%x, reference 0x%x",
          (fp.w[KTPU_CD_FLAGS_WORD] | fq.w[KTPU_CD_FLAGS_WORD]) & 0xF, rf & 0xF);
    check_c("FWD split-K", C, ldc, M, N, c.data(), N, 64);
    check_c("FWD sender's own tile", C2, ldc, M, N, c2.data(), N, 64);
    printf("FWD split-K %dx%dx%d on 2 clusters (GEMM FWD -> ADD_PEER): %llu cycles (RECV held back 3000)\n", M, K, N,
           (unsigned long long)(cyc - t0));
}

// Malformed instructions to cluster e while cluster g runs a GEMM.
static void error_test(int e, int g) {
    struct { const char *what; Ins in; int flits; int code; } cases[] = {
        {"opcode 0", i_status(0), 1, KTPU_CLERR_OPCODE},
        {"opcode 9", i_status(0), 1, KTPU_CLERR_OPCODE},
        {"two-flit instruction", i_status(0), 2, KTPU_CLERR_LENGTH},
        {"FILL format 2", i_fill(0, 2, 0, 0, 64, 1, 1), 1, KTPU_CLERR_FMT},
        {"FILL zero groups", i_fill(0, 0, 0, 0, 64, 0, 1), 1, KTPU_CLERR_SHAPE},
        {"FILL A past L1", i_fill(0, 0, 500, 0, 64, 4, 4), 1, KTPU_CLERR_L1A},
        {"FILL B past L1", i_fill(1, 0, 511, 0, 64, 1, 2), 1, KTPU_CLERR_L1B},
        {"FILL 16-bit fields that would wrap", i_fill(0, 1, 0, 0, 64, 0xFFFF, 0xFFFF), 1, KTPU_CLERR_L1A},
        {"FILL base misaligned", i_fill(0, 0, 0, 16, 64, 1, 1), 1, KTPU_CLERR_ALIGN},
        {"GEMM nk 0", i_gemm(0, 0, 0, 1, 1, 0, 0, 0, 0, 0), 1, KTPU_CLERR_SHAPE},
        {"GEMM A past L1", i_gemm(510, 0, 0, 1, 1, 4, 0, 0, 0, 0), 1, KTPU_CLERR_L1A},
        {"GEMM B past L1", i_gemm(0, 509, 0, 1, 1, 4, 0, 0, 0, 0), 1, KTPU_CLERR_L1B},
        {"GEMM tiles past ACC_DEPTH", i_gemm(0, 0, 500, 4, 4, 1, 0, 0, 0, 0), 1, KTPU_CLERR_TILE},
        {"GEMM C misaligned", i_gemm(0, 0, 0, 1, 1, 1, 0, 1, 4, 64), 1, KTPU_CLERR_ALIGN},
        {"GEMM FWD with nk 2", i_gemm_fwd(0, 0, 0, 1, 1, cl_x[e] ^ 1, cl_y[e]), 1, KTPU_CLERR_FWD},
        {"GEMM FWD with the acc bit", i_gemm_fwd(0, 0, 0, 1, 1, cl_x[e] ^ 1, cl_y[e]), 1, KTPU_CLERR_FWD},
        {"GEMM FWD with emit", i_gemm_fwd(0, 0, 0, 1, 1, cl_x[e] ^ 1, cl_y[e]), 1, KTPU_CLERR_FWD},
        {"GEMM FWD to itself", i_gemm_fwd(0, 0, 0, 1, 1, cl_x[e], cl_y[e]), 1, KTPU_CLERR_PEER},
        {"GEMM FWD tiles past ACC_DEPTH", i_gemm_fwd(0, 0, 509, 2, 2, cl_x[e] ^ 1, cl_y[e]), 1, KTPU_CLERR_TILE},
        {"DRAIN tiles past ACC_DEPTH", i_drain(511, 1, 2, 0, 64), 1, KTPU_CLERR_TILE},
        {"DRAIN stride misaligned", i_drain(0, 1, 1, 0, 12), 1, KTPU_CLERR_ALIGN},
        {"SEND to itself", i_peer(KTPU_CLOP_SEND, cl_x[e], cl_y[e], 0, 1), 1, KTPU_CLERR_PEER},
        {"RECV zero count", i_peer(KTPU_CLOP_RECV, 0, 0, 0, 0), 1, KTPU_CLERR_SHAPE},
        {"SEND past ACC_DEPTH", i_peer(KTPU_CLOP_SEND, 0, 0, 500, 13), 1, KTPU_CLERR_TILE},
        {"FILL exactly to the end of L1 B (legal)", i_fill(1, 0, 448, 0x40000, 512, 8, 8), 1, KTPU_CLERR_OK},
        {"DRAIN exactly to ACC_DEPTH (legal)", i_drain(504, 2, 4, 0x300000, 64), 1, KTPU_CLERR_OK},
    };
    cases[0].in.w[0] = 0;
    cases[1].in.w[0] = 9;
    for (auto &cs : cases) {   // the three illegal FWD flag combinations
        if (!strcmp(cs.what, "GEMM FWD with nk 2")) cs.in.w[KTPU_CI_NK_WORD] = 2;
        if (!strcmp(cs.what, "GEMM FWD with the acc bit")) cs.in.w[0] |= 1u << KTPU_CI_OP_ACC_LSB;
        if (!strcmp(cs.what, "GEMM FWD with emit")) cs.in.w[0] |= 1u << KTPU_CI_OP_EMIT_LSB;
    }
    int n = sizeof cases / sizeof cases[0], nerr = 0;
    for (int k = 0; k < n; k++) nerr += cases[k].code != KTPU_CLERR_OK;
    for (uint32_t a = 0x40000; a < 0x40000 + 512 * 32; a += 4) ktpu_dram_bd_write32(a, 0x3C003C00u);
    // cluster g: a GEMM that must still check
    const int M = 32, K = 64, N = 32;
    const uint32_t A = 0x30000, BT = 0xA0000, C = 0x1C0000 + 64;
    const std::vector<uint16_t> c = f16_gemm_in_dram(M, K, N, A, BT);
    canary(C - 64, M * 2 * N + 128);
    std::vector<int> gt;
    gt.push_back(issue(g, i_fill(0, 0, 0, A, 2 * K, M / 4, K / 32)));
    gt.push_back(issue(g, i_fill(1, 0, 0, BT, 2 * K, N / 4, K / 32)));
    gt.push_back(issue(g, i_gemm(0, 0, 0, M / 4, N / 4, K / 32, 0, 1, C, 2 * N)));
    int gs = issue(g, i_status(0));
    for (int k = 0; k < n; k++) {
        int t = issue(e, cases[k].in, cases[k].flits);
        Flit f = wait_done(t);
        CHECK(code(f) == cases[k].code, "%s: code %d, expected %d", cases[k].what, code(f), cases[k].code);
    }
    // the node still works: STATUS answers, counting the error completions
    Flit f = wait_done(issue(e, i_status(1)));
    CHECK(code(f) == KTPU_CLERR_OK, "status after errors");
    CHECK((f.w[KTPU_CD_FLAGS_WORD] >> KTPU_CD_FLAGS_ERRS_LSB) == (uint32_t)nerr,
          "error count %u, expected %d", f.w[KTPU_CD_FLAGS_WORD] >> 16, nerr);
    // again back to back, NODE_IQ_DEPTH at a time: each instruction reaches
    // the engine in the cycle the one before it leaves, and must bring its
    // own code (the node checks an instruction a cycle ahead of the engine)
    for (int k0 = 0; k0 < n; k0 += KTPU_NODE_IQ_DEPTH) {
        int t[KTPU_NODE_IQ_DEPTH], k1 = std::min(n, k0 + (int)KTPU_NODE_IQ_DEPTH);
        for (int k = k0; k < k1; k++) t[k - k0] = issue(e, cases[k].in, cases[k].flits);
        for (int k = k0; k < k1; k++) {
            int got = code(wait_done(t[k - k0]));
            CHECK(got == cases[k].code, "%s, back to back: code %d, expected %d", cases[k].what, got,
                  cases[k].code);
        }
    }
    f = wait_done(issue(e, i_status(1)));
    CHECK((f.w[KTPU_CD_FLAGS_WORD] >> KTPU_CD_FLAGS_ERRS_LSB) == (uint32_t)nerr,
          "error count back to back %u, expected %d", f.w[KTPU_CD_FLAGS_WORD] >> 16, nerr);
    for (int t : gt) CHECK(code(wait_done(t)) == KTPU_CLERR_OK, "GEMM beside the errors");
    wait_done(gs);
    check_c("GEMM beside errors", C, 2 * N, M, N, c.data(), N, 64);
    printf("errors: %d malformed instructions answered with their codes\n", n);
}

static void fill_rate(int cl, int fmt, int entries) {
    const uint32_t A = 0x40000;
    for (uint32_t a = A; a < A + 512 * 4 * (entries / 8); a += 4) ktpu_dram_bd_write32(a, 0x3C003C00u);
    uint64_t t0 = cyc;
    int t = issue(cl, i_fill(0, fmt, 0, A, 64 * 8, entries / 8, 8));
    CHECK(code(wait_done(t)) == KTPU_CLERR_OK, "fill rate");
    printf("fill %s, %d entries: %llu cycles, %.2f cycles per entry (incl. latency)\n",
           fmt ? "MXFP7" : "FP16", entries, (unsigned long long)(cyc - t0), (double)(cyc - t0) / entries);
    if (csv)
        fprintf(csv, "fill_cycles_per_entry,%d,0,0,%s,1,%llu,%.2f\n", entries, fmt ? "mx" : "fp16",
                (unsigned long long)(cyc - t0), (double)(cyc - t0) / entries);
}

int main(int argc, char **argv) {
    int seed = 1;
    const char *csv_path = nullptr;
    tb_args(argc, argv, "node_tb", {{"--seed", &seed}, {"--bench", &bench}, {"--csv", &csv_path}});
    if (csv_path) {
        csv = fopen(csv_path, "w");
        if (!csv) { fprintf(stderr, "node_tb: cannot write %s\n", csv_path); return 2; }
        fprintf(csv, "what,m,k,n,format,clusters,cycles,pct_peak\n");
        bench = true;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    auto ctx = tb_context(argc, argv, (uint64_t)seed);
    tb_seed((uint64_t)seed, 1);
    tb_where = at_cycle;
    top = new Vnode_top(ctx.get());
    top->win_limit_i = WinLimit;
    top->mem1_hold_i = 0;   // inputs start random (--x-initial unique)
    top->rst_i = 1;
    for (int i = 0; i < 10; i++) tick();
    top->rst_i = 0;
    svSetScope(svGetScopeFromName("TOP.node_top.u_dram"));
    ncl = NODE_CLUSTERS;
    {   // cluster places, in the order of the Kinds parameter (node_top)
        static const int px[4][4] = {{0}, {0, 1}, {2, 0, 1, 2}, {2, 3, 0, 2}};
        static const int py[4][4] = {{1}, {1, 1}, {0, 1, 1, 1}, {0, 0, 1, 1}};
        int k = ncl == 1 ? 0 : ncl == 2 ? 1 : NODE_MEM_PORTS > 1 ? 3 : 2;
        for (int c = 0; c < ncl; c++) { cl_x[c] = px[k][c]; cl_y[c] = py[k][c]; }
    }
    int q = ncl > 1 ? 1 : 0;
    // C rows padded (bytes past N untouched), C not 32-byte aligned for the
    // small shapes (bursts straddle DRAM beats), aligned for the timed ones.
    gemm_test("gemm32", 32, 32, 32, 0, 1, 1, 0, 16, 72);
    gemm_test("gemm20x64x44 (partial burst groups)", 20, 64, 44, 0, 1, 1, q, 8, 40);
    gemm_test("gemm4x64x8 (2 tiles < REUSE_MIN)", 4, 64, 8, 0, 1, 1, 0, 24, 8);
    // one sub-tile: every K pass commands it right after the last (the
    // interlock's hazard against the command issuing in that cycle)
    gemm_test("gemm4x96x4 (1 tile, each K pass right after the last)", 4, 96, 4, 0, 1, 1, 0, 8, 8);
    gemm_test("gemm4x32x1036 (a band of 64 full groups and 3: 2-D bursts 63 + 1, then 1-D)", 4, 32, 1036, 0, 1, 1, q, 8, 32);
    gemm_test("gemm64x128x64", 64, 128, 64, 0, ncl > 1 ? 2 : 1, 1, 0, 32, 64);
    gemm_test("gemm64x128x64 mx", 64, 128, 64, 1, 1, 2, q, 32, 64);
    layout_test();
    gemm_stream_test("gemm128x256x128 stream", 128, 256, 128, ncl);
    if (ncl > 1) {
        gemm_stream_test("gemm128x256x128 stream, B grouped", 128, 256, 128, ncl, false, true);
        gemm_stream_test("gemm128x256x128 FP16 stream, B grouped", 128, 256, 128, ncl, true, true);
    }
    if (bench) {
        gemm_stream_test("gemm256x256x256 stream", 256, 256, 256, ncl);
        if (ncl > 1) {
            gemm_stream_test("gemm256x256x256 stream, B grouped", 256, 256, 256, ncl, false, true);
            gemm_stream_test("gemm256x256x256 FP16 stream", 256, 256, 256, ncl, true);
            gemm_stream_test("gemm256x256x256 FP16 stream, B grouped", 256, 256, 256, ncl, true, true);
        }
        if (ncl == 4) gemm_stream_test("gemm256x256x1024 stream", 256, 256, 1024, ncl);
    }
    if (ncl == 4) gemm_test("gemm64x128x64 x4", 64, 128, 64, 0, 4, 1, 0, 32, 64);
    if (ncl > 1) {
        splitk_test(32, 128, 32, 0, 1);
        splitk_test(32, 128, 32, 0, 1, true);
        fwd_test(32, 128, 32, 0, 1);
        stray_test(1);
        silent_test(1);
        error_test(0, 1);
        failed_fill_test(0, 1);
        // two agents: cluster 2 is nearer the second, where its MXFP7 FILLs go
        if (NODE_MEM_PORTS > 1) failed_fill_test(2, 1);
    } else {
        error_test(0, 0);
        failed_fill_test(0, 0);
        silent_test(0);
    }
    if (NODE_MEM_PORTS > 1) drain_order_test(0);
    lone_group_test(ncl - 1);
    refused_write_test(0);
    for (int stall = 0; stall <= 300; stall += 50)
        for (bool late : {false, true}) written_burst_test(ncl - 1, stall, late);
    if (bench) { fill_rate(0, 0, 64); fill_rate(0, 1, 64); }
    CHECK(top->stray_rq_o == 0 && top->stray_rs_o == 0, "stray flits %u %u", top->stray_rq_o, top->stray_rs_o);
    size_t owing = 0;
    for (auto &o : owed) owing += o.second.size();
    CHECK(owing == 0 && snaps.empty() && written_err.empty(),
          "tile-written completions: %zu still owed, %zu never compared with C, %zu unexpected errors", owing,
          snaps.size(), written_err.size());
    // Each node's clock gate closed while it had nothing to do (the clusters
    // a test leaves idle, the gaps between tests), never for the whole run;
    // every check above passed with it.
    unsigned long long cl_cycles = (unsigned long long)ncl * cyc;
    CHECK(top->gated_o > 0 && top->gated_o < cl_cycles, "clock gate: %u of %llu cluster-cycles gated",
          top->gated_o, cl_cycles);
    printf("clock gate: %u of %llu cluster-cycles gated (%.1f%%)\n", top->gated_o, cl_cycles,
           100.0 * top->gated_o / (double)cl_cycles);
    top->final();
    if (csv) fclose(csv);
    printf("node bench (%d cluster(s), seed %d): %llu checks, %llu failed, %llu cycles\n", ncl, seed, checks,
           fails, (unsigned long long)cyc);
    delete top;
    return fails ? 1 : 0;
}
