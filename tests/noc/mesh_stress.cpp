// Mesh stress bench (SPEC §7): every node injects random packets (random
// lengths, random destinations, hot spots) under random back-pressure, for
// --cycles cycles, then drains. Checks on every delivered flit:
//   - dst is this node, src is the sender's own coordinates (the header
//     travels unchanged: a payload checksum covers the rest),
//   - per source-destination pair, packets arrive in sending order, each
//     exactly once, flits in order, last on the last flit only,
//   - packets never interleave at a receiver,
//   - an output that was valid and not taken holds the same flit,
// and at the end: every flit sent was received, nothing extra, no strays.
// The last FAIR cycles of injection saturate one node: every other node
// sends it single-flit packets back to back, every output always ready; each
// sender at d hops must get at least the mean / 2^d through. Each merge
// point's round robin can halve a sender's share (the parking lot: on 3x3 the
// farthest sender, 4 hops, gets 125 flits of a mean of 375; on 4x4, 6 hops,
// 25 of 200); an arbiter that serves a fixed input first leaves a sender one
// hop away 9 of 380.
// Built with -DEMPTY_NODE=n (top mesh_empty_top): node n is EMPTY, gets no
// traffic, and after the drain flits sent outside the mesh and to node n
// must be counted in stray_o, exactly, with the mesh still working after.
// Usage: Vktpu_mesh [--cycles N] [--seed S]   (size is compiled in)
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "verilated.h"

#include "ktpu_defs.h"
#include "ktpu_tb.h"
#ifdef EMPTY_NODE  // the mesh_empty_top variant: one EMPTY node, stray checks
#include "Vmesh_empty_top.h"
typedef Vmesh_empty_top Top;
static const int EMPTY = EMPTY_NODE;
#else
#include "Vktpu_mesh.h"
typedef Vktpu_mesh Top;
static const int EMPTY = -1;
#endif

#ifndef MESH_W
#define MESH_W 2
#endif
#ifndef MESH_H
#define MESH_H 2
#endif
static const int NN = MESH_W * MESH_H;
static_assert(NN <= 32, "the bench keeps valid/ready vectors in 32 bits");


struct Flit { uint32_t w[9]; };  // w[8] = header

static uint32_t csum(const Flit &f) {
  uint32_t h = 0x9E3779B9u;
  for (int i = 0; i < 7; i++) h = (h ^ f.w[i]) * 0x01000193u;
  return h ^ f.w[8];
}

int main(int argc, char **argv) {
  unsigned long long cycles = 100000, seed = 1;
  tb_args(argc, argv, "mesh_stress", {{"--cycles", &cycles}, {"--seed", &seed}});
  tb_seed(seed, 1);
  auto ctx = tb_context(argc, argv, seed);
  auto m = std::make_unique<Top>(ctx.get());

  // Sender state.
  std::vector<std::deque<Flit>> txq(NN);          // flits of queued packets
  std::vector<std::vector<uint32_t>> seq_tx(NN, std::vector<uint32_t>(NN, 0));
  std::vector<bool> presenting(NN, false);
  std::vector<unsigned long long> present_since(NN, 0);
  unsigned long long max_wait = 0;
  std::vector<Flit> cur(NN);
  // Receiver state.
  std::vector<std::vector<uint32_t>> seq_rx(NN, std::vector<uint32_t>(NN, 0));
  std::vector<int> open_src(NN, -1);              // packet in progress at receiver
  std::vector<uint32_t> open_idx(NN, 0), open_len(NN, 0);
  std::vector<bool> was_stalled(NN, false);
  std::vector<Flit> stalled(NN);
  unsigned long long sent = 0, recv = 0, pkts = 0;
  std::vector<unsigned> ready_pct(NN, 100), inj_pct(NN, 50);
  int hot = -1;
  // the saturation window (see the top): its hot node and what each sender got through
  const unsigned long long FAIR = 3000;
  const uint32_t FAIR_MARK = 0xFA17FA17u;
  bool fair = false;
  int fair_hot = -1;
  std::vector<unsigned> fair_got(NN, 0);

  auto put_flit = [&](int n, const Flit &f) {
    for (int i = 0; i < 9; i++) m->node_in_flit_i[n * 9 + i] = f.w[i];
  };
  auto get_flit = [&](int n) {
    Flit f;
    for (int i = 0; i < 9; i++) f.w[i] = m->node_out_flit_o[n * 9 + i];
    return f;
  };
  auto make_packet = [&](int s) {
    int d = (hot >= 0 && chance(70)) ? hot : (int)(rnd() % NN);
    while (d == EMPTY) d = (int)(rnd() % NN);
    uint32_t len = chance(80) ? 1 + rnd() % 4 : 1 + rnd() % 24;
    if (fair) { d = hot; len = 1; }
    uint32_t sq = seq_tx[s][d]++;
    uint32_t type = rnd() & 15, r = rnd();
    for (uint32_t i = 0; i < len; i++) {
      Flit f;
      f.w[0] = (uint32_t)s; f.w[1] = (uint32_t)d; f.w[2] = sq; f.w[3] = i; f.w[4] = len;
      f.w[5] = r; f.w[6] = rnd();
      if (fair) f.w[6] = FAIR_MARK;
      f.w[8] = ktpu_flit_pack(d % MESH_W, d / MESH_W, s % MESH_W, s / MESH_W, type, sq, i + 1 == len);
      f.w[7] = csum(f);
      txq[s].push_back(f);
    }
    pkts++;
  };

  m->clk_i = 0; m->rst_i = 1;
  m->node_in_valid_i = 0; m->node_out_ready_i = 0;
  for (int i = 0; i < 4; i++) { m->clk_i = 0; m->eval(); m->clk_i = 1; m->eval(); }
  m->rst_i = 0;

  unsigned long long cyc = 0, last_progress = 0, limit = cycles + 200000;
  bool injecting = true;
  for (; cyc < limit; cyc++) {
    if (cyc == cycles) injecting = false;
    // New phase every 2000 cycles: back-pressure per node, hot spot or not.
    if (cyc % 2000 == 0 && !fair) {
      hot = chance(30) ? (int)(rnd() % NN) : -1;
      if (hot == EMPTY) hot = -1;
      for (int n = 0; n < NN; n++) {
        unsigned k = rnd() % 5;
        ready_pct[n] = k == 0 ? 5 : k == 1 ? 30 : k == 2 ? 70 : 100;
        if (k == 4) ready_pct[n] = 0;  // a stretch of total stall
        inj_pct[n] = 10 + rnd() % 91;
      }
    }
    if (cyc % 2000 == 300)  // total stalls last 300 cycles
      for (int n = 0; n < NN; n++) if (ready_pct[n] == 0) ready_pct[n] = 50;
    if (cycles >= 2 * FAIR && cyc == cycles - FAIR) {
      fair = true;
      hot = fair_hot = EMPTY == 0 ? 1 : 0;
      for (int n = 0; n < NN; n++) { ready_pct[n] = 100; inj_pct[n] = n == hot ? 0 : 100; }
    }
    if (!injecting) { fair = false; for (int n = 0; n < NN; n++) ready_pct[n] = 100; }

    uint32_t v = 0, rdy = 0;
    for (int n = 0; n < NN; n++) {
      if (!presenting[n]) {
        if (txq[n].empty() && injecting && n != EMPTY && chance(inj_pct[n])) make_packet(n);
        if (!txq[n].empty() && chance(inj_pct[n] / 2 + 50)) {
          cur[n] = txq[n].front(); txq[n].pop_front(); presenting[n] = true;
          present_since[n] = cyc;
        }
      }
      if (presenting[n]) { v |= 1u << n; put_flit(n, cur[n]); }
      if (chance(ready_pct[n])) rdy |= 1u << n;
    }
    m->node_in_valid_i = v;
    m->node_out_ready_i = rdy;
    m->clk_i = 0; m->eval();

    uint32_t inr = m->node_in_ready_o, ov = m->node_out_valid_o;
    for (int n = 0; n < NN; n++) {
      bool valid = ov >> n & 1;
      Flit f = valid ? get_flit(n) : Flit{};
      if (was_stalled[n]) {  // hold until taken
        CHECK(valid && !memcmp(&f, &stalled[n], sizeof f), "node %d: output dropped or changed a flit before it was taken (cycle %llu)", n, cyc);
      }
      was_stalled[n] = valid && !(rdy >> n & 1);
      if (was_stalled[n]) stalled[n] = f;
      if (valid && (rdy >> n & 1)) {
        recv++; last_progress = cyc;
        uint32_t s = f.w[0], d = f.w[1];
        CHECK(f.w[7] == csum(f), "node %d: corrupt flit (checksum)", n);
        CHECK(d == (uint32_t)n && (f.w[8] >> 28) == (uint32_t)(n % MESH_W) &&
              (f.w[8] >> 24 & 15) == (uint32_t)(n / MESH_W), "node %d: flit for node %u delivered here", n, d);
        CHECK(s < (uint32_t)NN && (f.w[8] >> 20 & 15) == s % MESH_W && (f.w[8] >> 16 & 15) == s / MESH_W,
              "node %d: src field (%u,%u) is not the sender %u", n, f.w[8] >> 20 & 15, f.w[8] >> 16 & 15, s);
        CHECK((f.w[8] & 7) == 0, "node %d: rsvd bits set", n);
        if (s >= (uint32_t)NN) continue;
        if (f.w[6] == FAIR_MARK && n == fair_hot) fair_got[s]++;
        if (open_src[n] >= 0) {  // mid-packet: must be the next flit of it
          CHECK((int)s == open_src[n] && f.w[3] == open_idx[n],
                "node %d: packet from %d interleaved with a flit from %u (cycle %llu)", n, open_src[n], s, cyc);
        } else {
          CHECK(f.w[3] == 0, "node %d: packet from %u starts at flit %u (flit lost)", n, s, f.w[3]);
          CHECK(f.w[2] == seq_rx[s][n], "node %d: from %u expected packet %u, got %u (lost, duplicated or reordered)",
                n, s, seq_rx[s][n], f.w[2]);
          seq_rx[s][n] = f.w[2] + 1;
          open_len[n] = f.w[4];
        }
        bool last = f.w[8] >> 3 & 1;
        CHECK(last == (f.w[3] + 1 == open_len[n]), "node %d: last bit wrong at flit %u of %u", n, f.w[3], open_len[n]);
        if (last) open_src[n] = -1;
        else { open_src[n] = (int)s; open_idx[n] = f.w[3] + 1; }
      }
    }
    for (int n = 0; n < NN; n++)
      if ((v >> n & 1) && (inr >> n & 1)) {
        presenting[n] = false; sent++; last_progress = cyc;
        if (cyc - present_since[n] > max_wait) max_wait = cyc - present_since[n];
      }
    m->clk_i = 1; m->eval();

    if (!injecting) {
      bool idle = recv == sent;
      for (int n = 0; n < NN; n++) idle = idle && txq[n].empty() && !presenting[n];
      if (idle) break;
    }
    if (cyc - last_progress > 5000) { printf("FAIL: no progress for 5000 cycles at cycle %llu (deadlock?)\n", cyc); fails++; break; }
    if (fails > 10) break;
  }
  CHECK(recv == sent, "flits sent %llu, received %llu", sent, recv);
  for (int s = 0; s < NN; s++)
    for (int d = 0; d < NN; d++)
      CHECK(seq_rx[s][d] == seq_tx[s][d], "pair %d->%d: %u packets sent, %u received", s, d, seq_tx[s][d], seq_rx[s][d]);
  for (int n = 0; n < NN; n++) CHECK(open_src[n] < 0, "node %d: packet left open", n);
  CHECK(m->stray_o == 0, "stray flits: %u", m->stray_o);
  if (cycles >= 2 * FAIR) {
    unsigned lo = ~0u, hi = 0, senders = 0, total = 0;
    for (int n = 0; n < NN; n++)
      if (n != fair_hot && n != EMPTY) { senders++; total += fair_got[n]; }
    for (int n = 0; n < NN; n++) {
      if (n == fair_hot || n == EMPTY) continue;
      int hops = abs(n % MESH_W - fair_hot % MESH_W) + abs(n / MESH_W - fair_hot / MESH_W);
      CHECK((1ull << hops) * senders * fair_got[n] >= total,
            "saturation: node %d, %d hops away, got %u of %u flits through to node %d (starved)", n, hops, fair_got[n],
            total, fair_hot);
      if (fair_got[n] < lo) lo = fair_got[n];
      if (fair_got[n] > hi) hi = fair_got[n];
    }
    printf("saturation of node %d: each sender got %u..%u flits through\n", fair_hot, lo, hi);
  }
  if (EMPTY >= 0) {
    // Flits for outside the mesh (east, south) and for the EMPTY node are
    // consumed at the edge and counted; then the mesh still delivers.
    int far = NN - 1 == EMPTY ? NN - 2 : NN - 1;
    std::vector<Flit> fl;
    auto add = [&](int dx, int dy, int last) {
      Flit f = {};
      f.w[0] = 0; f.w[1] = (uint32_t)far; f.w[8] = ktpu_flit_pack(dx, dy, 0, 0, 1, 0, last);
      f.w[7] = csum(f);
      fl.push_back(f);
    };
    add(MESH_W, 0, 1);
    add(0, MESH_H, 1);
    add(EMPTY % MESH_W, EMPTY / MESH_W, 1);
    add(MESH_W - 1, MESH_H + 2, 0); add(MESH_W - 1, MESH_H + 2, 0); add(MESH_W - 1, MESH_H + 2, 1);
    // then one good packet: node 0 -> far, the next expected sequence number
    Flit g = {};
    g.w[0] = 0; g.w[1] = (uint32_t)far; g.w[2] = seq_tx[0][far]++; g.w[3] = 0; g.w[4] = 1;
    g.w[8] = ktpu_flit_pack(far % MESH_W, far / MESH_W, 0, 0, 2, g.w[2], 1);
    g.w[7] = csum(g);
    fl.push_back(g);
    size_t i = 0;
    bool got = false;
    for (int c = 0; c < 2000 && !(got && i == fl.size()); c++) {
      m->node_in_valid_i = i < fl.size() ? 1u : 0u;
      if (i < fl.size()) put_flit(0, fl[i]);
      m->node_out_ready_i = (1u << NN) - 1;
      m->clk_i = 0; m->eval();
      bool take = i < fl.size() && (m->node_in_ready_o & 1u);
      for (int n = 0; n < NN; n++)
        if (m->node_out_valid_o >> n & 1) {
          Flit f = get_flit(n);
          CHECK(n == far && f.w[8] == g.w[8] && f.w[2] == g.w[2], "stray phase: a flit came out at node %d", n);
          got = true;
        }
      if (take) i++;
      m->clk_i = 1; m->eval();
    }
    CHECK(got, "stray phase: the good packet after the strays was not delivered");
    // stray_o counts a flit three cycles after it is sunk (ktpu_mesh's
    // pipelined counter); the last stray left before the good packet arrived
    m->node_in_valid_i = 0;
    for (int c = 0; c < 3; c++) { m->clk_i = 0; m->eval(); m->clk_i = 1; m->eval(); }
    CHECK(m->stray_o == 6, "stray phase: stray_o %u, expected 6", m->stray_o);
  }
  m->final();
  printf("longest wait of a flit at injection: %llu cycles\n", max_wait);
  printf("mesh %dx%d seed %llu: %llu cycles, %llu packets, %llu flits, %llu checks, %llu failed\n",
         MESH_W, MESH_H, seed, cyc, pkts, recv, checks, fails);
  return fails ? 1 : 0;
}
