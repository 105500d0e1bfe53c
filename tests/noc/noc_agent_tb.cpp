// The two planes with the memory agent (noc_agent_top): the protocol-level
// no-deadlock argument of docs/noc.md, built and stressed. Every node but the
// agent at once: streaming reads (FP16 and MX) and masked write bursts to the
// agent, read-backs of its own writes, grouped reads (2-4 nodes send the same
// MEM_RD, each when its own queue gets to it: docs/mem.md), multi-flit peer
// packets to other nodes on the request plane and multi-flit notes on the
// response plane; every sink
// under random back-pressure, with stretches where a node stops reading its
// responses altogether. Then everything drains.
// Checks: every MEM_DATA exactly once with the reference's bytes (reads of a
// region nobody writes, or of the node's own region after its own writes:
// both predictable whatever the interleaving), every MEM_ACK with its beat
// count, peer packets and notes in order per pair, whole, never interleaved;
// no flit anywhere for 5000 cycles while work is pending = deadlock = FAIL;
// no strays; the agent's non-finite count equals the model's.
// Usage: Vnoc_agent_top [--cycles N] [--seed S]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "Vnoc_agent_top.h"
#include "Vnoc_agent_top__Dpi.h"
#include "svdpi.h"
#include "verilated.h"

#include "ktpu_tb.h"
extern "C" {
#include "ktpu_ref.h"
}

static const int MW = 3, MH = 3, NN = MW * MH, AX = 1, AY = 0, AG = AY * MW + AX;
struct Flit { uint32_t w[9]; };
// node numbers (y * MW + x) to coordinates
static uint32_t hdr(int d, int s, unsigned type, unsigned txn, int last) {
  return ktpu_flit_pack(d % MW, d / MW, s % MW, s / MW, type, txn, last);
}
static int hsrc(uint32_t h) {
  return (int)((h & KTPU_FLIT_SRC_Y_MASK) >> KTPU_FLIT_SRC_Y_LSB) * MW + (int)((h & KTPU_FLIT_SRC_X_MASK) >> KTPU_FLIT_SRC_X_LSB);
}
static int hdst(uint32_t h) {
  return (int)((h & KTPU_FLIT_DST_Y_MASK) >> KTPU_FLIT_DST_Y_LSB) * MW + (int)((h & KTPU_FLIT_DST_X_MASK) >> KTPU_FLIT_DST_X_LSB);
}
static uint32_t csum(const Flit &f) {
  uint32_t h = 0x811C9DC5u;
  for (int i = 0; i < 7; i++) h = (h ^ f.w[i]) * 0x01000193u;
  return h ^ f.w[8];
}

// ---- memory model: read-only regions and one private region per node -------
static const uint32_t MEMB = 1u << 20, R16 = 0x20000, R16_LEN = 0x20000, RMX = 0x40000, RMX_LEN = 0x10000;
static const uint32_t PRIV = 0x80000, PRIV_LEN = 0x4000;
static std::vector<uint8_t> shadow(MEMB);
static unsigned long long m_nf;

struct Exp { uint8_t b[29]; bool nf; };
static std::map<std::tuple<int, unsigned, unsigned, unsigned>, Exp> exp_data;  // node, txn, entry, word
static std::map<std::pair<int, unsigned>, unsigned> exp_ack;                   // node, txn -> beats
static std::map<std::pair<int, unsigned>, unsigned> remaining;                 // flits still due
struct Node {
  std::deque<Flit> rq, rs;
  bool prq = false, prs = false;
  Flit crq, crs;
  unsigned outstanding = 0, txn = 0;
  std::vector<uint32_t> tx_seq[2], rx_seq[2];
  int open_src[2] = {-1, -1}; uint32_t open_idx[2] = {0, 0}, open_len[2] = {0, 0};
  unsigned rq_ready = 100, rs_ready = 100;
};
static Node nd[NN];
static unsigned long long reads, writes, peers, notes, data_flits, acks;

static unsigned new_txn(int n) {
  for (;;) {
    unsigned t = nd[n].txn++ & 255;
    if (!remaining.count({n, t})) return t;
  }
}
// A read, or one member's request of a grouped read (gn >= 2: the agent
// reads once and sends every member its own copy; a block's non-finite
// count is the agent's once, so only the first member's read counts it).
static unsigned read_req(int n, uint32_t base, uint32_t stride, unsigned groups, unsigned per, unsigned fmt,
                         unsigned gid = 0, unsigned gn = 0, bool count_nf = true) {
  unsigned t = new_txn(n);
  Flit f = {};
  f.w[KTPU_RD_BASE_WORD] = base; f.w[KTPU_RD_STRIDE_WORD] = stride;
  f.w[KTPU_RD_SHAPE_WORD] = groups << KTPU_RD_SHAPE_GROUPS_LSB | per << KTPU_RD_SHAPE_PER_GROUP_LSB;
  f.w[KTPU_RD_CTRL_WORD] = fmt << KTPU_RD_CTRL_FMT_LSB | gid << KTPU_RD_CTRL_GROUP_ID_LSB | gn << KTPU_RD_CTRL_GROUP_N_LSB;
  f.w[8] = hdr(AG, n, KTPU_MSG_MEM_RD, t, 1);
  nd[n].rq.push_back(f);
  unsigned bb = fmt == KTPU_FMT_FP16 ? 64 : 32;
  for (unsigned g = 0; g < groups; g++)
    for (unsigned kb = 0; kb < per; kb++)
      for (unsigned l = 0; l < 4; l++) {
        uint32_t a = base + (4 * g + l) * stride + kb * bb;
        Exp e = {};
        if (fmt == KTPU_FMT_FP16) {
          uint16_t x[32]; int8_t q[32]; uint8_t s, st[32];
          for (int k = 0; k < 32; k++) x[k] = (uint16_t)(shadow[a + 2 * k] | shadow[a + 2 * k + 1] << 8);
          e.nf = ktpu_ref_quant_block(x, q, &s) != 0;
          if (count_nf) m_nf += e.nf;
          ktpu_ref_mx_store(q, s, st);
          memcpy(e.b, st, 29);
        } else {
          memcpy(e.b, &shadow[a], 29);
        }
        exp_data[{n, t, g * per + kb, l}] = e;
      }
  remaining[{n, t}] = 4 * groups * per;
  nd[n].outstanding++; reads++;
  return t;
}

// Grouped reads in flight: each member's (node, txn). At most
// MEM_GROUP_SLOTS at once, so no member is refused for want of a slot and
// no two share a tag.
static std::vector<std::vector<std::pair<int, unsigned>>> groups_open;
static unsigned long long grouped, grouped_members;
static void group_req(int n0) {
  groups_open.erase(std::remove_if(groups_open.begin(), groups_open.end(), [](const auto &g) {
                      for (auto &m : g) if (remaining.count(m)) return false;
                      return true;
                    }), groups_open.end());
  if (groups_open.size() >= KTPU_MEM_GROUP_SLOTS) return;
  std::vector<int> mem = {n0};
  unsigned gn = 2 + rnd() % (KTPU_MEM_GROUP_MAX - 1);
  for (int k = 0; k < 4 * NN && mem.size() < gn; k++) {
    int n = (int)(rnd() % NN);
    if (n != AG && nd[n].outstanding < 4 && std::find(mem.begin(), mem.end(), n) == mem.end()) mem.push_back(n);
  }
  if (mem.size() < 2) return;
  static unsigned gid;
  gid = (gid + 1) & 15;
  unsigned fmt = rnd() % 2, per = 1 + rnd() % 4, bb = fmt == KTPU_FMT_FP16 ? 64 : 32;
  uint32_t base = fmt == KTPU_FMT_FP16 ? R16 + 64 * (rnd() % 1024) : RMX + 32 * (rnd() % 1024);
  uint32_t stride = bb * (per + rnd() % 8);
  unsigned rows = 1 + rnd() % 2;
  std::vector<std::pair<int, unsigned>> g;
  for (size_t i = 0; i < mem.size(); i++)
    g.emplace_back(mem[i], read_req(mem[i], base, stride, rows, per, fmt, gid, (unsigned)mem.size(), i == 0));
  groups_open.push_back(g);
  grouped++;
  grouped_members += g.size();
}
static void write_req(int n) {
  unsigned t = new_txn(n);
  unsigned count = 1 + rnd() % 6;
  uint32_t stride = 8 * (rnd() % 32), mask = chance(40) ? 0xFFFFFFFFu : rnd();
  uint32_t addr = PRIV + n * PRIV_LEN + 8 * (rnd() % ((PRIV_LEN - 32 - (count - 1) * stride) / 8));
  Flit d = {};
  d.w[KTPU_WR_ADDR_WORD] = addr; d.w[KTPU_WR_STRIDE_WORD] = stride;
  d.w[KTPU_WR_CTRL_WORD] = count << KTPU_WR_CTRL_COUNT_LSB; d.w[KTPU_WR_MASK_WORD] = mask;
  d.w[8] = hdr(AG, n, KTPU_MSG_MEM_WR, t, 0);
  nd[n].rq.push_back(d);
  unsigned beats = 0;
  for (unsigned i = 0; i < count; i++) {
    Flit f;
    for (int w = 0; w < 8; w++) f.w[w] = rnd();
    f.w[8] = hdr(AG, n, KTPU_MSG_MEM_WR, t, i + 1 == count);
    nd[n].rq.push_back(f);
    uint32_t a = addr + i * stride;
    for (int b = 0; b < 32; b++) if (mask >> b & 1) shadow[a + b] = (uint8_t)(f.w[b / 4] >> (8 * (b % 4)));
    beats += (a & 31) ? 2 : 1;
  }
  exp_ack[{n, t}] = beats;
  remaining[{n, t}] = 1;
  nd[n].outstanding++; writes++;
}
static void packet(int n, int plane) {  // peer data (request plane) or a note (response plane)
  int d;
  do { d = (int)(rnd() % NN); } while (d == AG || d == n);
  uint32_t len = 1 + rnd() % 8, sq = nd[n].tx_seq[plane][d]++;
  for (uint32_t i = 0; i < len; i++) {
    Flit f;
    f.w[0] = (uint32_t)n; f.w[1] = (uint32_t)d; f.w[2] = sq; f.w[3] = i; f.w[4] = len; f.w[5] = rnd(); f.w[6] = rnd();
    f.w[8] = hdr(d, n, plane ? KTPU_MSG_CL_DONE : KTPU_MSG_PEER_DATA, sq, i + 1 == len);
    f.w[7] = csum(f);
    (plane ? nd[n].rs : nd[n].rq).push_back(f);
  }
  (plane ? notes : peers)++;
}

static void check_packet(int n, int plane, const Flit &f) {
  uint32_t s = f.w[0];
  CHECK(f.w[7] == csum(f) && s < (uint32_t)NN && hsrc(f.w[8]) == (int)s && f.w[1] == (uint32_t)n,
        "node %d plane %d: corrupt or misdelivered packet flit", n, plane);
  if (s >= (uint32_t)NN) return;
  Node &r = nd[n];
  if (r.open_src[plane] >= 0) {
    CHECK((int)s == r.open_src[plane] && f.w[3] == r.open_idx[plane], "node %d plane %d: packets interleaved", n, plane);
  } else {
    CHECK(f.w[3] == 0 && f.w[2] == r.rx_seq[plane][s], "node %d plane %d: from %u packet %u, expected %u (lost/dup/reordered)",
          n, plane, s, f.w[2], r.rx_seq[plane][s]);
    r.rx_seq[plane][s] = f.w[2] + 1; r.open_len[plane] = f.w[4];
  }
  bool last = f.w[8] & KTPU_FLIT_LAST_MASK;
  CHECK(last == (f.w[3] + 1 == r.open_len[plane]), "node %d plane %d: last bit wrong", n, plane);
  if (last) r.open_src[plane] = -1; else { r.open_src[plane] = (int)s; r.open_idx[plane] = f.w[3] + 1; }
}
static void done_one(int n, unsigned t) {
  auto it = remaining.find({n, t});
  if (it != remaining.end() && --it->second == 0) { remaining.erase(it); nd[n].outstanding--; }
}
static void on_rs(int n, const Flit &f) {
  uint32_t h = f.w[8];
  unsigned ty = (h & KTPU_FLIT_TYPE_MASK) >> KTPU_FLIT_TYPE_LSB, t = (h & KTPU_FLIT_TXN_MASK) >> KTPU_FLIT_TXN_LSB;
  CHECK(hdst(h) == n, "node %d: response for node %d", n, hdst(h));
  if (hsrc(h) != AG) { check_packet(n, 1, f); return; }
  if (ty == KTPU_MSG_MEM_DATA) {
    uint32_t tag = f.w[KTPU_DATA_TAG_WORD];
    auto key = std::make_tuple(n, t, (tag & KTPU_DATA_TAG_ENTRY_MASK) >> KTPU_DATA_TAG_ENTRY_LSB,
                               (tag & KTPU_DATA_TAG_WORD_MASK) >> KTPU_DATA_TAG_WORD_LSB);
    auto it = exp_data.find(key);
    CHECK(it != exp_data.end(), "node %d: unexpected MEM_DATA txn %u", n, t);
    if (it == exp_data.end()) return;
    bool ok = ((tag & KTPU_DATA_TAG_NONFINITE_MASK) != 0) == it->second.nf;
    for (int b = 0; b < 29; b++) ok = ok && (uint8_t)(f.w[b / 4] >> (8 * (b % 4))) == it->second.b[b];
    CHECK(ok, "node %d: MEM_DATA txn %u entry %u word %u differs from the reference", n, t, std::get<2>(key), std::get<3>(key));
    exp_data.erase(it); data_flits++;
    done_one(n, t);
  } else if (ty == KTPU_MSG_MEM_ACK) {
    auto it = exp_ack.find({n, t});
    CHECK(it != exp_ack.end(), "node %d: unexpected MEM_ACK txn %u", n, t);
    if (it == exp_ack.end()) return;
    CHECK((f.w[KTPU_ACK_STATUS_WORD] & KTPU_ACK_STATUS_CODE_MASK) == KTPU_MEMST_OK && f.w[KTPU_ACK_COUNT_WORD] == it->second,
          "node %d: MEM_ACK txn %u status %u count %u, expected OK %u", n, t, f.w[0] & 15, f.w[2], it->second);
    exp_ack.erase(it); acks++;
    done_one(n, t);
  } else {
    CHECK(false, "node %d: agent sent type %u", n, ty);
  }
}

int main(int argc, char **argv) {
  unsigned long long cycles = 100000, seed = 1;
  tb_args(argc, argv, "noc_agent_tb", {{"--cycles", &cycles}, {"--seed", &seed}});
  tb_seed(seed, 11);
  auto ctx = tb_context(argc, argv, seed);
  auto m = std::make_unique<Vnoc_agent_top>(ctx.get());
  svSetScope(svGetScopeFromName("TOP.noc_agent_top.u_dram"));
  for (int n = 0; n < NN; n++)
    for (int p = 0; p < 2; p++) { nd[n].tx_seq[p].assign(NN, 0); nd[n].rx_seq[p].assign(NN, 0); }

  for (auto &b : shadow) b = (uint8_t)rnd();
  for (uint32_t a = R16; a < R16 + R16_LEN; a += 64) {  // finite FP16 blocks, a few with Inf/NaN
    int cls = rnd() % 3;
    for (uint32_t k = 0; k < 64; k += 2) {
      uint16_t v;
      do { v = (uint16_t)rnd(); if (cls == 1) v &= 0x83FF; if (cls == 2) v = (uint16_t)((v & 0x83FF) | 15 << 10); }
      while (((v >> 10) & 31) == 31);
      shadow[a + k] = (uint8_t)v; shadow[a + k + 1] = (uint8_t)(v >> 8);
    }
    if (chance(3)) shadow[a + 2 * (rnd() % 32) + 1] = 0x7C;
  }
  for (uint32_t a = 0; a < MEMB; a += 4)
    ktpu_dram_bd_write32(a, (uint32_t)shadow[a] | shadow[a + 1] << 8 | shadow[a + 2] << 16 | (uint32_t)shadow[a + 3] << 24);

  m->clk_i = 0; m->rst_i = 1;
  for (int i = 0; i < 4; i++) { m->clk_i = 0; m->eval(); m->clk_i = 1; m->eval(); }
  m->rst_i = 0;

  unsigned long long cyc = 0, last_move = 0;
  bool inject = true;
  for (; cyc < cycles + 300000; cyc++) {
    if (cyc == cycles) inject = false;
    if (cyc % 3000 == 0)
      for (int n = 0; n < NN; n++) {
        nd[n].rq_ready = 20 + rnd() % 81;
        nd[n].rs_ready = chance(15) ? 0 : 20 + rnd() % 81;  // some nodes stop reading responses
      }
    if (cyc % 3000 == 1500)
      for (int n = 0; n < NN; n++) if (nd[n].rs_ready == 0) nd[n].rs_ready = 50;
    if (!inject) for (int n = 0; n < NN; n++) nd[n].rq_ready = nd[n].rs_ready = 100;

    uint32_t rqv = 0, rsv = 0, rqr = 0, rsr = 0;
    for (int n = 0; n < NN; n++) {
      if (n == AG) continue;
      Node &x = nd[n];
      if (inject && x.rq.empty() && chance(8)) {
        unsigned k = rnd() % 20;
        if (x.outstanding < 4 && k < 6) {
          unsigned per = 1 + rnd() % 4;
          read_req(n, R16 + 64 * (rnd() % 1024), 64 * (per + rnd() % 8), 1 + rnd() % 2, per, KTPU_FMT_FP16);
        } else if (x.outstanding < 4 && k < 10) {
          unsigned per = 1 + rnd() % 6;
          read_req(n, RMX + 32 * (rnd() % 1024), 32 * (per + rnd() % 8), 1 + rnd() % 2, per, KTPU_FMT_MX);
        } else if (x.outstanding < 4 && k < 13) {
          write_req(n);
        } else if (x.outstanding < 4 && k < 15) {
          read_req(n, PRIV + n * PRIV_LEN + 32 * (rnd() % 256), 32 * (1 + rnd() % 8), 1, 1 + rnd() % 4, KTPU_FMT_MX);
        } else if (x.outstanding < 4 && k < 17) {
          group_req(n);
        } else {
          packet(n, 0);
        }
      }
      if (inject && x.rs.empty() && chance(2)) packet(n, 1);
      if (!x.prq && !x.rq.empty() && chance(80)) { x.crq = x.rq.front(); x.rq.pop_front(); x.prq = true; }
      if (!x.prs && !x.rs.empty() && chance(80)) { x.crs = x.rs.front(); x.rs.pop_front(); x.prs = true; }
      if (x.prq) { rqv |= 1u << n; for (int i = 0; i < 9; i++) m->rq_in_flit_i[n * 9 + i] = x.crq.w[i]; }
      if (x.prs) { rsv |= 1u << n; for (int i = 0; i < 9; i++) m->rs_in_flit_i[n * 9 + i] = x.crs.w[i]; }
      if (chance(x.rq_ready)) rqr |= 1u << n;
      if (chance(x.rs_ready)) rsr |= 1u << n;
    }
    rsr |= 1u << AG;  // nothing may arrive there; take it to report it
    m->rq_in_valid_i = rqv; m->rs_in_valid_i = rsv; m->rq_out_ready_i = rqr; m->rs_out_ready_i = rsr;
    m->clk_i = 0; m->eval();
    uint32_t rqi = m->rq_in_ready_o, rsi = m->rs_in_ready_o, rqo = m->rq_out_valid_o, rso = m->rs_out_valid_o;
    for (int n = 0; n < NN; n++) {
      if (n == AG) {
        CHECK(!(rso >> n & 1), "the agent's node received a response-plane flit");
        continue;
      }
      Flit f;
      if ((rqo & rqr) >> n & 1) {
        for (int i = 0; i < 9; i++) f.w[i] = m->rq_out_flit_o[n * 9 + i];
        CHECK(((f.w[8] & KTPU_FLIT_TYPE_MASK) >> KTPU_FLIT_TYPE_LSB) == KTPU_MSG_PEER_DATA, "node %d: request-plane type", n);
        check_packet(n, 0, f); last_move = cyc;
      }
      if ((rso & rsr) >> n & 1) {
        for (int i = 0; i < 9; i++) f.w[i] = m->rs_out_flit_o[n * 9 + i];
        on_rs(n, f); last_move = cyc;
      }
      if ((rqv & rqi) >> n & 1) { nd[n].prq = false; last_move = cyc; }
      if ((rsv & rsi) >> n & 1) { nd[n].prs = false; last_move = cyc; }
    }
    m->clk_i = 1; m->eval();
    bool pending = !remaining.empty();
    for (int n = 0; n < NN; n++) pending = pending || nd[n].prq || nd[n].prs || !nd[n].rq.empty() || !nd[n].rs.empty() ||
                                           nd[n].open_src[0] >= 0 || nd[n].open_src[1] >= 0;
    if (!inject && !pending) break;
    if (pending && cyc - last_move > 5000) { CHECK(false, "no flit moved for 5000 cycles with work pending (deadlock) at cycle %llu", cyc); break; }
    if (fails > 15) break;
  }
  for (int s = 0; s < NN; s++)
    for (int d = 0; d < NN; d++)
      for (int p = 0; p < 2; p++)
        CHECK(nd[s].tx_seq[p][d] == nd[d].rx_seq[p][s], "plane %d pair %d->%d: %u sent, %u received", p, s, d,
              nd[s].tx_seq[p][d], nd[d].rx_seq[p][s]);
  CHECK(exp_data.empty() && exp_ack.empty() && remaining.empty(), "%zu MEM_DATA, %zu MEM_ACK never arrived", exp_data.size(), exp_ack.size());
  CHECK(m->stray_rq_o == 0 && m->stray_rs_o == 0, "strays: %u request plane, %u response plane", m->stray_rq_o, m->stray_rs_o);
  CHECK(m->nonfinite_count_o == m_nf, "non-finite blocks: agent %u, model %llu", m->nonfinite_count_o, m_nf);
  m->final();
  CHECK(grouped > 0, "no grouped read was made");
  printf("noc+agent %dx%d seed %llu: %llu cycles; %llu reads (%llu of them members of %llu grouped reads; %llu "
         "MEM_DATA), %llu writes, %llu peer packets, %llu notes; %llu checks, %llu failed\n", MW, MH, seed, cyc, reads,
         grouped_members, grouped, data_flits, writes, peers, notes, checks, fails);
  return fails ? 1 : 0;
}
