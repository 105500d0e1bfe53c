// Memory agent bench: ktpu_mem_agent on ktpu_dram (latency 64 unless
// +ktpu_dram_latency=N), the harness playing the mesh on both planes.
//
// A shadow copy of DRAM is the model. The agent applies requests in arrival
// order, so each request's expected answer is computed against the shadow at
// the time it is sent; expected answers are keyed by (requester, txn, entry,
// lane) because arrival order carries no meaning. Checks:
//   MEM_DATA  every (entry, lane) of every read exactly once; bytes 0..27 =
//             the reference quantiser's storage of the block (FP16) or the
//             stored bytes (MX), scale, NONFINITE tag bit; header dst = the
//             requester, src = the agent, txn echoed, last = 1, rsvd = 0.
//   MEM_ACK   status, op, address and count of every write, job and refusal.
//   DRAM      after every write burst and job, the affected bytes (and their
//             neighbours) read through the backdoor equal the shadow; a
//             refused request leaves DRAM untouched.
//   counters  window refusals, other refusals, non-finite blocks (and the
//             latest address) equal the model's.
//   link      a response flit not taken is held unchanged.
// Phases: FP16 reads (random, subnormal, tie-heavy, non-finite blocks), MX
// reads (including -64), several requests in flight from several
// requesters, write bursts with masks at every 8-byte offset, quantise jobs,
// window / alignment / malformed refusals, a random mix of all of them, and a
// fill-rate measurement (cycles per L1 entry, printed and optionally CSV).
// Usage: Vmem_agent_top [--seed S] [--csv FILE] [+ktpu_dram_latency=N]
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "Vmem_agent_top.h"
#include "Vmem_agent_top__Dpi.h"
#include "svdpi.h"
#include "verilated.h"

#include "ktpu_tb.h"
extern "C" {
#include "ktpu_ref.h"
}


// ---- constants from the single source of truth ------------------------------
static const int AGENT_X = 1, AGENT_Y = 0;
static const uint32_t MEMB = 1u << 20;      // bytes of DRAM the bench uses
static uint32_t win_base = 0x1000, win_limit = MEMB - 0x1000;

struct Flit { uint32_t w[9]; };
static unsigned fld(uint32_t w, uint32_t mask, uint32_t lsb) { return (w & mask) >> lsb; }

// ---- model --------------------------------------------------------------------
static std::vector<uint8_t> shadow(MEMB);
static uint16_t sh16(uint32_t a) { return (uint16_t)(shadow[a] | shadow[a + 1] << 8); }

struct Key {
  int x, y; unsigned txn; unsigned entry, lane;
  bool operator<(const Key &o) const {
    return std::tie(x, y, txn, entry, lane) < std::tie(o.x, o.y, o.txn, o.entry, o.lane);
  }
};
// pos: the flit's place in its read's walk, K-block-major (for kb, g, lane):
// a node starts each K pass as soon as that block is in, so one read's
// flits must arrive in this order (reads of different requests interleave).
struct Expect { uint8_t bytes[29]; bool nf; uint32_t addr; long pos; };
static std::map<Key, Expect> exp_data;          // MEM_DATA still due
static std::map<std::tuple<int, int, unsigned>, long> last_pos;   // per (requester, txn)
// A job's non-finite blocks in its (row-major) order: the last one, if any,
// is the agent's "latest" once the job is answered.
struct AckExp { unsigned code, op; uint32_t addr, count; bool nf_any = false; uint32_t nf_last = 0; };
static std::map<Key, AckExp> exp_ack;           // MEM_ACK still due (entry = lane = 0)
static unsigned long long m_win_err, m_bad_req, m_nf;
// The latest non-finite block the agent quantised: reads interleave, so it
// is the one named by the latest NONFINITE MEM_DATA (or job answer) seen.
static uint32_t m_nf_addr;
static unsigned long long data_flits, ack_flits;

static Vmem_agent_top *M;
static VerilatedContext *CTX;
static std::deque<Flit> txq;
static unsigned long long cyc;
static bool was_stalled; static Flit stalled;
static unsigned ready_pct = 100, valid_pct = 100;

static void bd_sync_region(uint32_t a, uint32_t n);
static void model_quant_block(uint32_t addr, uint8_t out[29], bool *nf) {
  uint16_t x[32];
  for (int k = 0; k < 32; k++) x[k] = sh16(addr + 2 * k);
  int8_t q[32]; uint8_t s; uint8_t st[32];
  unsigned f = ktpu_ref_quant_block(x, q, &s);
  ktpu_ref_mx_store(q, s, st);
  memcpy(out, st, 29);
  *nf = (f & KTPU_FLAG_NONFINITE) != 0;
  if (*nf) m_nf++;
}

static bool in_window(uint64_t lo, uint64_t hi) {  // [lo, hi)
  uint64_t lim = win_limit < (1u << 24) ? win_limit : (1u << 24);
  return lo >= win_base && hi <= lim;
}
// The first byte of [lo, hi) outside the window (SPEC §8, docs/mem.md).
static uint32_t bad_addr(uint64_t lo, uint64_t hi) {
  uint64_t lim = win_limit < (1u << 24) ? win_limit : (1u << 24);
  (void)hi;
  return (uint32_t)(lo < win_base ? lo : std::max<uint64_t>(lo, lim));
}

// ---- request builders (each applies itself to the model) --------------------
// A read's MEM_DATA, due to one requester (every member of a grouped read).
static void expect_read(int sx, int sy, unsigned txn, uint32_t base, uint32_t stride, unsigned groups,
                        unsigned per, unsigned fmt) {
  unsigned bb = fmt == KTPU_FMT_FP16 ? 64 : 32;
  last_pos[std::make_tuple(sx, sy, txn)] = -1;
  long pos = 0;
  for (unsigned kb = 0; kb < per; kb++)
    for (unsigned g = 0; g < groups; g++)
      for (unsigned l = 0; l < 4; l++) {
        uint32_t a = base + (4 * g + l) * stride + kb * bb;
        Expect e;
        if (fmt == KTPU_FMT_FP16) model_quant_block(a, e.bytes, &e.nf);
        else { memcpy(e.bytes, &shadow[a], 29); e.nf = false; }
        e.addr = a;
        e.pos = pos++;
        exp_data[{sx, sy, txn, g * per + kb, l}] = e;
      }
}

// The agent's gather slots as the model sees them: a grouped read is read
// (and its data computed) when its last member arrives.
struct Group {
  unsigned gid, gn, fmt, groups, per;
  uint32_t base, stride;
  std::vector<std::tuple<int, int, unsigned>> members;
};
static std::vector<Group> partial;
static unsigned long long group_refusals;
static void refuse_member(int sx, int sy, unsigned txn, uint32_t base) {
  exp_ack[{sx, sy, txn, 0, 0}] = {KTPU_MEMST_GROUP, KTPU_MSG_MEM_RD, base, 0};
  group_refusals++;
}
// Every partial group's members are refused once MEM_GROUP_WAIT passes
// (the caller then drains for longer than the bench's wait).
static void expire_partials() {
  for (auto &g : partial)
    for (auto &m : g.members) refuse_member(std::get<0>(m), std::get<1>(m), std::get<2>(m), g.base);
  partial.clear();
}

static void send_rd(int sx, int sy, unsigned txn, uint32_t base, uint32_t stride, unsigned groups,
                    unsigned per, unsigned fmt, int last = 1, unsigned gid = 0, unsigned gn = 0) {
  Flit f = {};
  f.w[KTPU_RD_BASE_WORD] = base;
  f.w[KTPU_RD_STRIDE_WORD] = stride;
  f.w[KTPU_RD_SHAPE_WORD] = groups << KTPU_RD_SHAPE_GROUPS_LSB | per << KTPU_RD_SHAPE_PER_GROUP_LSB;
  f.w[KTPU_RD_CTRL_WORD] = fmt << KTPU_RD_CTRL_FMT_LSB | gid << KTPU_RD_CTRL_GROUP_ID_LSB |
                           gn << KTPU_RD_CTRL_GROUP_N_LSB;
  f.w[8] = ktpu_flit_pack(AGENT_X, AGENT_Y, sx, sy, KTPU_MSG_MEM_RD, txn, last);
  txq.push_back(f);
  if (!last) { Flit g = f; g.w[8] |= 1u << KTPU_FLIT_LAST_LSB; txq.push_back(g); }
  unsigned bb = fmt == KTPU_FMT_FP16 ? 64 : 32;
  uint64_t lo = base, hi = base + (uint64_t)(4 * groups - 1) * stride + (uint64_t)per * bb;
  unsigned code = KTPU_MEMST_OK;
  if (!last || fmt > 1 || groups == 0 || per == 0 || (uint64_t)groups * per > KTPU_RD_MAX_ENTRIES ||
      gn > KTPU_MEM_GROUP_MAX)
    code = KTPU_MEMST_BADREQ;
  else if ((base | stride) & 31) code = KTPU_MEMST_ALIGN;
  else if (!in_window(lo, hi)) code = KTPU_MEMST_WINDOW;
  Key k = {sx, sy, txn, 0, 0};
  if (code != KTPU_MEMST_OK) {
    exp_ack[k] = {code, KTPU_MSG_MEM_RD, code == KTPU_MEMST_WINDOW ? bad_addr(lo, hi) : 0, 0};
    if (code == KTPU_MEMST_WINDOW) m_win_err++; else m_bad_req++;
    return;
  }
  if (gn < 2) {
    expect_read(sx, sy, txn, base, stride, groups, per, fmt);
    return;
  }
  auto g = std::find_if(partial.begin(), partial.end(), [&](const Group &p) {
    return p.gid == gid && p.gn == gn && p.fmt == fmt && p.base == base && p.stride == stride &&
           p.groups == groups && p.per == per;
  });
  if (g == partial.end()) {
    if (partial.size() == KTPU_MEM_GROUP_SLOTS) { refuse_member(sx, sy, txn, base); return; }
    partial.push_back({gid, gn, fmt, groups, per, base, stride, {}});
    g = partial.end() - 1;
  }
  g->members.emplace_back(sx, sy, txn);
  if (g->members.size() < gn) return;
  unsigned long long nf0 = m_nf;
  for (auto &m : g->members) {
    m_nf = nf0;   // the agent counts a non-finite block once, however many members it goes to
    expect_read(std::get<0>(m), std::get<1>(m), std::get<2>(m), base, stride, groups, per, fmt);
  }
  partial.erase(g);
}

struct WrCheck { uint32_t lo, hi; };
static std::deque<WrCheck> wr_checks;  // regions to compare once the ack arrived

static void send_wr(int sx, int sy, unsigned txn, uint32_t addr, uint32_t stride, unsigned count,
                    uint32_t mask, int nflits = -1, unsigned rows = 0, unsigned cols = 0,
                    uint32_t stride2 = 0) {   // rows != 0: a 2-D burst (cols columns of rows flits)
  if (nflits < 0) nflits = (int)count;
  Flit d = {};
  d.w[KTPU_WR_ADDR_WORD] = addr;
  d.w[KTPU_WR_STRIDE_WORD] = stride;
  d.w[KTPU_WR_CTRL_WORD] = count << KTPU_WR_CTRL_COUNT_LSB | rows << KTPU_WR_CTRL_ROWS_LSB | cols << KTPU_WR_CTRL_COLS_LSB;
  d.w[KTPU_WR_STRIDE2_WORD] = stride2;
  d.w[KTPU_WR_MASK_WORD] = mask;
  d.w[8] = ktpu_flit_pack(AGENT_X, AGENT_Y, sx, sy, KTPU_MSG_MEM_WR, txn, nflits == 0);
  txq.push_back(d);
  std::vector<Flit> data(nflits);
  for (int i = 0; i < nflits; i++) {
    for (int w = 0; w < 8; w++) data[i].w[w] = rnd();
    data[i].w[8] = ktpu_flit_pack(AGENT_X, AGENT_Y, sx, sy, KTPU_MSG_MEM_WR, txn, i + 1 == nflits);
    txq.push_back(data[i]);
  }
  int lo_b = -1, hi_b = -1;
  for (int b = 0; b < 32; b++) if (mask >> b & 1) { if (lo_b < 0) lo_b = b; hi_b = b; }
  uint64_t lo = (uint64_t)addr + (lo_b < 0 ? 0 : lo_b);
  uint64_t hi = rows ? (uint64_t)addr + (uint64_t)(rows - 1) * stride + (uint64_t)(cols ? cols - 1 : 0) * stride2
                     : (uint64_t)addr + (uint64_t)(count ? count - 1 : 0) * stride;
  hi += (hi_b < 0 ? 0 : hi_b) + 1;
  auto at = [&](int i) { return rows ? addr + (uint32_t)(i % rows) * stride + (uint32_t)(i / rows) * stride2
                                     : addr + (uint32_t)i * stride; };
  unsigned code = KTPU_MEMST_OK;
  if (nflits == 0 || count == 0 || (rows && rows * cols != count)) code = KTPU_MEMST_BADREQ;
  else if ((addr | stride | (rows ? stride2 : 0)) & 7) code = KTPU_MEMST_ALIGN;
  else if (mask && !in_window(lo, hi)) code = KTPU_MEMST_WINDOW;
  Key k = {sx, sy, txn, 0, 0};
  if (code != KTPU_MEMST_OK) {
    exp_ack[k] = {code, KTPU_MSG_MEM_WR, code == KTPU_MEMST_WINDOW ? bad_addr(lo, hi) : 0, 0};
    if (code == KTPU_MEMST_WINDOW) m_win_err++; else m_bad_req++;
    if (mask) wr_checks.push_back({(uint32_t)(lo > 64 ? lo - 64 : 0), (uint32_t)std::min<uint64_t>(hi + 64, MEMB)});
    return;
  }
  unsigned beats = 0;
  for (int i = 0; i < nflits && i < (int)count; i++) {
    uint32_t a = at(i);
    for (int b = 0; b < 32; b++)
      if (mask >> b & 1) shadow[a + b] = (uint8_t)(data[i].w[b / 4] >> (8 * (b % 4)));
    beats += (a & 31) ? 2 : 1;
  }
  exp_ack[k] = {nflits == (int)count ? (unsigned)KTPU_MEMST_OK : (unsigned)KTPU_MEMST_BADREQ,
                KTPU_MSG_MEM_WR, 0, beats};
  wr_checks.push_back({(uint32_t)(addr > 64 ? addr - 64 : 0), (uint32_t)std::min<uint64_t>(hi + 64, MEMB)});
}

static void send_qjob(int sx, int sy, unsigned txn, uint32_t src, uint32_t sstride, uint32_t dst,
                      uint32_t dstride, unsigned rows, unsigned blocks) {
  Flit f = {};
  f.w[KTPU_QJ_SRC_WORD] = src; f.w[KTPU_QJ_SSTRIDE_WORD] = sstride;
  f.w[KTPU_QJ_DST_WORD] = dst; f.w[KTPU_QJ_DSTRIDE_WORD] = dstride;
  f.w[KTPU_QJ_SHAPE_WORD] = rows << KTPU_QJ_SHAPE_ROWS_LSB | blocks << KTPU_QJ_SHAPE_BLOCKS_LSB;
  f.w[8] = ktpu_flit_pack(AGENT_X, AGENT_Y, sx, sy, KTPU_MSG_MEM_QJOB, txn, 1);
  txq.push_back(f);
  uint64_t slo = src, shi = src + (uint64_t)(rows ? rows - 1 : 0) * sstride + (uint64_t)blocks * 64;
  uint64_t dlo = dst, dhi = dst + (uint64_t)(rows ? rows - 1 : 0) * dstride + (uint64_t)blocks * 32;
  unsigned code = KTPU_MEMST_OK;
  if (rows == 0 || blocks == 0 || (slo < dhi && dlo < shi)) code = KTPU_MEMST_BADREQ;
  else if ((src | sstride | dst | dstride) & 31) code = KTPU_MEMST_ALIGN;
  else if (!in_window(slo, shi) || !in_window(dlo, dhi)) code = KTPU_MEMST_WINDOW;
  Key k = {sx, sy, txn, 0, 0};
  if (code != KTPU_MEMST_OK) {
    uint32_t ba = !in_window(slo, shi) ? bad_addr(slo, shi) : bad_addr(dlo, dhi);
    exp_ack[k] = {code, KTPU_MSG_MEM_QJOB, code == KTPU_MEMST_WINDOW ? ba : 0, 0};
    if (code == KTPU_MEMST_WINDOW) m_win_err++; else m_bad_req++;
    return;
  }
  unsigned nf = 0; uint32_t nf_first = 0, nf_last = 0;
  for (unsigned r = 0; r < rows; r++)
    for (unsigned b = 0; b < blocks; b++) {
      uint8_t st[29]; bool nonfinite;
      uint32_t a = src + r * sstride + b * 64;
      model_quant_block(a, st, &nonfinite);
      if (nonfinite && nf++ == 0) nf_first = a;
      if (nonfinite) nf_last = a;
      uint32_t d = dst + r * dstride + b * 32;
      memcpy(&shadow[d], st, 29);
      shadow[d + 29] = shadow[d + 30] = shadow[d + 31] = 0;
    }
  exp_ack[k] = {nf ? (unsigned)KTPU_MEMST_NONFINITE : (unsigned)KTPU_MEMST_OK, KTPU_MSG_MEM_QJOB, nf_first, nf,
                nf != 0, nf_last};
  wr_checks.push_back({(uint32_t)(dlo > 64 ? dlo - 64 : 0), (uint32_t)std::min<uint64_t>(dhi + 64, MEMB)});
}

static void send_other(int sx, int sy, unsigned txn, unsigned type, int nflits) {
  for (int i = 0; i < nflits; i++) {
    Flit f = {};
    for (int w = 0; w < 8; w++) f.w[w] = rnd();
    f.w[8] = ktpu_flit_pack(AGENT_X, AGENT_Y, sx, sy, type, txn, i + 1 == nflits);
    txq.push_back(f);
  }
  exp_ack[{sx, sy, txn, 0, 0}] = {KTPU_MEMST_BADREQ, type, 0, 0};
  m_bad_req++;
}

// ---- DRAM backdoor --------------------------------------------------------------
static void bd_load_all() {
  for (uint32_t a = 0; a < MEMB; a += 4)
    ktpu_dram_bd_write32(a, (uint32_t)shadow[a] | shadow[a + 1] << 8 | shadow[a + 2] << 16 |
                                (uint32_t)shadow[a + 3] << 24);
}
static void bd_check(uint32_t lo, uint32_t hi) {
  lo &= ~3u;
  uint32_t bad = 0, first = 0;
  for (uint32_t a = lo; a < hi && a < MEMB; a += 4) {
    uint32_t v = ktpu_dram_bd_read32(a);
    uint32_t s = (uint32_t)shadow[a] | shadow[a + 1] << 8 | shadow[a + 2] << 16 | (uint32_t)shadow[a + 3] << 24;
    if (v != s && bad++ == 0) first = a;
  }
  CHECK(bad == 0, "DRAM differs from the model at 0x%x (%u words in [0x%x, 0x%x))", first, bad, lo, hi);
}
static void bd_sync_region(uint32_t, uint32_t) {}

// ---- the clock ---------------------------------------------------------------------
static bool presenting = false;
static Flit cur;
static void on_response(const Flit &f) {
  uint32_t h = f.w[8];
  int dx = fld(h, KTPU_FLIT_DST_X_MASK, KTPU_FLIT_DST_X_LSB), dy = fld(h, KTPU_FLIT_DST_Y_MASK, KTPU_FLIT_DST_Y_LSB);
  unsigned ty = fld(h, KTPU_FLIT_TYPE_MASK, KTPU_FLIT_TYPE_LSB), txn = fld(h, KTPU_FLIT_TXN_MASK, KTPU_FLIT_TXN_LSB);
  CHECK(fld(h, KTPU_FLIT_SRC_X_MASK, KTPU_FLIT_SRC_X_LSB) == AGENT_X &&
        fld(h, KTPU_FLIT_SRC_Y_MASK, KTPU_FLIT_SRC_Y_LSB) == AGENT_Y && (h & KTPU_FLIT_LAST_MASK) &&
        (h & KTPU_FLIT_RSVD_MASK) == 0, "response header 0x%08x: src, last or rsvd wrong", h);
  if (ty == KTPU_MSG_MEM_DATA) {
    data_flits++;
    uint32_t tag = f.w[KTPU_DATA_TAG_WORD];
    Key k = {dx, dy, txn, fld(tag, KTPU_DATA_TAG_ENTRY_MASK, KTPU_DATA_TAG_ENTRY_LSB),
             fld(tag, KTPU_DATA_TAG_WORD_MASK, KTPU_DATA_TAG_WORD_LSB)};
    auto it = exp_data.find(k);
    CHECK(it != exp_data.end(), "unexpected MEM_DATA to (%d,%d) txn %u entry %u word %u (duplicate or wrong tag)",
          dx, dy, txn, k.entry, k.lane);
    if (it == exp_data.end()) return;
    uint8_t got[29];
    for (int b = 0; b < 29; b++) got[b] = (uint8_t)(f.w[b / 4] >> (8 * (b % 4)));
    int bad_b = -1;
    for (int b = 0; b < 29; b++) if (got[b] != it->second.bytes[b]) { bad_b = b; break; }
    CHECK(bad_b < 0, "MEM_DATA (%d,%d) txn %u entry %u word %u: byte %d is 0x%02x, expected 0x%02x", dx, dy, txn,
          k.entry, k.lane, bad_b, bad_b < 0 ? 0 : got[bad_b], bad_b < 0 ? 0 : it->second.bytes[bad_b]);
    CHECK(((tag & KTPU_DATA_TAG_NONFINITE_MASK) != 0) == it->second.nf && (tag & KTPU_DATA_TAG_RSVD_MASK) == 0,
          "MEM_DATA entry %u word %u: NONFINITE tag %d, expected %d", k.entry, k.lane,
          (tag & KTPU_DATA_TAG_NONFINITE_MASK) != 0, it->second.nf);
    long &lp = last_pos[std::make_tuple(dx, dy, txn)];
    CHECK(it->second.pos > lp, "MEM_DATA (%d,%d) txn %u entry %u word %u: walk position %ld after %ld (not K-block-major)",
          dx, dy, txn, k.entry, k.lane, it->second.pos, lp);
    lp = it->second.pos;
    if (it->second.nf) m_nf_addr = it->second.addr;
    exp_data.erase(it);
  } else if (ty == KTPU_MSG_MEM_ACK) {
    ack_flits++;
    Key k = {dx, dy, txn, 0, 0};
    auto it = exp_ack.find(k);
    CHECK(it != exp_ack.end(), "unexpected MEM_ACK to (%d,%d) txn %u", dx, dy, txn);
    if (it == exp_ack.end()) return;
    uint32_t st = f.w[KTPU_ACK_STATUS_WORD];
    unsigned code = fld(st, KTPU_ACK_STATUS_CODE_MASK, KTPU_ACK_STATUS_CODE_LSB);
    unsigned op = fld(st, KTPU_ACK_STATUS_OP_MASK, KTPU_ACK_STATUS_OP_LSB);
    CHECK(code == it->second.code && op == it->second.op && f.w[KTPU_ACK_ADDR_WORD] == it->second.addr &&
              f.w[KTPU_ACK_COUNT_WORD] == it->second.count,
          "MEM_ACK (%d,%d) txn %u: code %u op %u addr 0x%x count %u, expected code %u op %u addr 0x%x count %u", dx,
          dy, txn, code, op, f.w[KTPU_ACK_ADDR_WORD], f.w[KTPU_ACK_COUNT_WORD], it->second.code, it->second.op,
          it->second.addr, it->second.count);
    if (it->second.nf_any) m_nf_addr = it->second.nf_last;
    exp_ack.erase(it);
  } else {
    CHECK(false, "response of type %u", ty);
  }
}

static void tick() {
  if (!presenting && !txq.empty() && chance(valid_pct)) { cur = txq.front(); txq.pop_front(); presenting = true; }
  M->req_valid_i = presenting;
  for (int i = 0; i < 9; i++) M->req_flit_i[i] = cur.w[i];
  bool rdy = chance(ready_pct);
  M->rsp_ready_i = rdy;
  M->clk_i = 0; M->eval();
  if (M->rsp_valid_o || was_stalled) {
    Flit f;
    for (int i = 0; i < 9; i++) f.w[i] = M->rsp_flit_o[i];
    if (was_stalled) CHECK(M->rsp_valid_o && !memcmp(&f, &stalled, sizeof f), "response flit changed before taken");
    was_stalled = M->rsp_valid_o && !rdy;
    if (was_stalled) stalled = f;
    if (M->rsp_valid_o && rdy) on_response(f);
  }
  if (presenting && M->req_ready_o) presenting = false;
  M->clk_i = 1; M->eval();
  cyc++;
}

static bool drain(unsigned long long limit = 400000) {  // until everything expected has arrived
  unsigned long long start = cyc;
  while ((!txq.empty() || presenting || !exp_data.empty() || !exp_ack.empty()) && cyc - start < limit) tick();
  for (int i = 0; i < 200; i++) tick();  // nothing extra may arrive
  bool ok = exp_data.empty() && exp_ack.empty();
  CHECK(ok, "timeout: %zu MEM_DATA and %zu MEM_ACK still due", exp_data.size(), exp_ack.size());
  for (auto &w : wr_checks) bd_check(w.lo, w.hi);
  wr_checks.clear();
  CHECK(M->win_err_count_o == m_win_err && M->bad_req_count_o == m_bad_req,
        "counters: window %u (model %llu), refused %u (model %llu)", M->win_err_count_o, m_win_err,
        M->bad_req_count_o, m_bad_req);
  CHECK(M->nonfinite_count_o == m_nf && (m_nf == 0 || M->nonfinite_addr_o == m_nf_addr),
        "non-finite: count %u addr 0x%x, model %llu addr 0x%x", M->nonfinite_count_o, M->nonfinite_addr_o, m_nf,
        m_nf_addr);
  exp_data.clear(); exp_ack.clear();
  return ok;
}

// ---- data generators ----------------------------------------------------------------
static uint16_t rand_fp16(int cls) {
  uint16_t v;
  switch (cls) {
    case 0: do { v = (uint16_t)rnd(); } while (((v >> 10) & 31) == 31); return v;  // any finite
    case 1: return (uint16_t)((rnd() & 0x83FF));                                    // subnormal
    case 2: return (uint16_t)((rnd() & 0x8000) | (14 + rnd() % 3) << 10 | (rnd() & 0x3FF));  // narrow
    default: return (uint16_t)((rnd() & 0x8000) | (15 << 10) | ((rnd() % 8) << 7));  // coarse: ties
  }
}
static void fill_fp16(uint32_t a, uint32_t n, bool with_nonfinite) {
  for (uint32_t i = 0; i < n; i += 64) {  // per 32-element block, one class
    int cls = rnd() % 4;
    for (uint32_t k = 0; k < 64 && i + k < n; k += 2) {
      uint16_t v = rand_fp16(cls);
      shadow[a + i + k] = (uint8_t)v; shadow[a + i + k + 1] = (uint8_t)(v >> 8);
    }
    if (with_nonfinite && chance(4)) {
      uint32_t k = (rnd() % 32) * 2;
      uint16_t v = (uint16_t)(0x7C00 | (rnd() & 1) << 15 | (chance(50) ? rnd() & 0x3FF : 0));
      shadow[a + i + k] = (uint8_t)v; shadow[a + i + k + 1] = (uint8_t)(v >> 8);
    }
  }
}
static void fill_mx(uint32_t a, uint32_t n) {
  for (uint32_t i = 0; i < n; i += 32) {
    int8_t q[32]; uint8_t st[32];
    for (int k = 0; k < 32; k++) q[k] = (int8_t)(chance(10) ? -64 : (int)(rnd() % 128) - 64);
    ktpu_ref_mx_store(q, (uint8_t)rnd(), st);
    st[29] = (uint8_t)rnd(); st[30] = (uint8_t)rnd(); st[31] = (uint8_t)rnd();  // overwritten by the tag
    memcpy(&shadow[a + i], st, 32);
  }
}

static unsigned txn_ctr;
static unsigned next_txn() { return (txn_ctr++) & 255; }

// Cycles from the request to the last MEM_DATA flit of a read of `entries`
// entries, no back-pressure.
static double fill_rate(unsigned fmt, unsigned entries, unsigned long long *cycles) {
  ready_pct = valid_pct = 100;
  uint32_t base = 0x10000;
  unsigned bb = fmt == KTPU_FMT_FP16 ? 64 : 32;
  send_rd(2, 1, next_txn(), base, entries * bb, 1, entries, fmt);
  unsigned long long start = cyc;
  unsigned long long last_data = cyc;
  unsigned long long before = data_flits;
  while ((!exp_data.empty() || !txq.empty() || presenting) && cyc - start < 200000) {
    tick();
    if (data_flits != before) { last_data = cyc; before = data_flits; }
  }
  drain();
  *cycles = last_data - start;
  return (double)*cycles / entries;
}

int main(int argc, char **argv) {
  unsigned long long seed = 1;
  const char *csv = nullptr;
  tb_args(argc, argv, "mem_agent_tb", {{"--seed", &seed}, {"--csv", &csv}});
  tb_seed(seed, 3);
  auto ctx = tb_context(argc, argv, seed);
  CTX = ctx.get();
  auto m = std::make_unique<Vmem_agent_top>(ctx.get());
  M = m.get();
  svSetScope(svGetScopeFromName("TOP.mem_agent_top.u_dram"));

  for (auto &b : shadow) b = (uint8_t)rnd();
  M->win_base_i = win_base; M->win_limit_i = win_limit;
  M->clk_i = 0; M->rst_i = 1; M->req_valid_i = 0; M->rsp_ready_i = 0;
  for (int i = 0; i < 4; i++) { M->clk_i = 0; M->eval(); M->clk_i = 1; M->eval(); }
  M->rst_i = 0;

  // Regions: FP16 source at 0x20000.., MX storage at 0x60000.., scratch for
  // writes and job outputs at 0x80000...
  fill_fp16(0x20000, 0x40000, true);
  fill_mx(0x60000, 0x20000);
  bd_load_all();

  const char *phase[] = {"fp16 reads", "mx reads", "in flight", "writes", "jobs", "refusals", "mix", "groups"};
  unsigned long long pc[8] = {0};
  auto mark = [&](int p, unsigned long long c0) { pc[p] += checks - c0; };

  // 1. FP16 reads: random shapes, strides, back-pressure.
  unsigned long long c0 = checks;
  for (int r = 0; r < 40; r++) {
    ready_pct = 30 + rnd() % 71; valid_pct = 50 + rnd() % 51;
    unsigned groups = 1 + rnd() % 3, per = 1 + rnd() % 6;
    uint32_t stride = 32 * (per * 2 + rnd() % 8);
    if (chance(20)) stride = 32 * (1 + rnd() % 4);  // rows overlapping: still exact
    send_rd(2, 1, next_txn(), 0x20000 + 32 * (rnd() % 2048), stride, groups, per, KTPU_FMT_FP16);
    if (r % 4 == 3) drain();
  }
  drain(); mark(0, c0);

  // 2. MX reads.
  c0 = checks;
  for (int r = 0; r < 40; r++) {
    ready_pct = 30 + rnd() % 71;
    unsigned groups = 1 + rnd() % 4, per = 1 + rnd() % 8;
    uint32_t stride = 32 * (per + rnd() % 8);
    send_rd(0, 1, next_txn(), 0x60000 + 32 * (rnd() % 1024), stride, groups, per, KTPU_FMT_MX);
  }
  drain(); mark(1, c0);

  // 3. Several requests in flight from several requesters, both formats,
  //    sent back to back, heavy back-pressure on the responses.
  c0 = checks;
  for (int rep = 0; rep < 6; rep++) {
    ready_pct = rep % 2 ? 20 : 90; valid_pct = 100;
    for (int r = 0; r < 8; r++) {
      int sx = rnd() % 3, sy = rnd() % 3;
      unsigned fmt = chance(50) ? KTPU_FMT_FP16 : KTPU_FMT_MX;
      uint32_t base = fmt == KTPU_FMT_FP16 ? 0x20000 + 32 * (rnd() % 4096) : 0x60000 + 32 * (rnd() % 2048);
      send_rd(sx, sy, next_txn(), base, 32 * (4 + rnd() % 16), 1 + rnd() % 2, 1 + rnd() % 4, fmt);
    }
    drain();
  }
  mark(2, c0);

  // 4. Write bursts: every 8-byte offset, random strides and masks; each
  //    followed by a read-back through the agent (in-order semantics).
  c0 = checks;
  for (int r = 0; r < 60; r++) {
    ready_pct = 40 + rnd() % 61; valid_pct = 40 + rnd() % 61;
    uint32_t addr = 0x80000 + 8 * (rnd() % 4096);
    uint32_t stride = 8 * (rnd() % 64);
    unsigned count = 1 + rnd() % (r < 50 ? 8 : 40);
    uint32_t mask = chance(30) ? 0xFFFFFFFFu : chance(30) ? 0xFFu << (8 * (rnd() % 4)) : rnd();
    if (r == 5) mask = 0;
    send_wr(rnd() % 4, rnd() % 4, next_txn(), addr, stride, count, mask);
    if (chance(50))
      send_rd(1, 1, next_txn(), 0x80000 + 32 * ((addr - 0x80000) / 32 / 32 * 32), 32, 1, 2, KTPU_FMT_MX);
    if (r % 5 == 4) drain();
  }
  // 2-D bursts (ROWS != 0): random rows, columns and both strides, every
  // 8-byte offset; the node's shape (4 rows at the C stride, columns 32 apart).
  for (int r = 0; r < 40; r++) {
    ready_pct = 40 + rnd() % 61; valid_pct = 40 + rnd() % 61;
    uint32_t addr = 0x80000 + 8 * (rnd() % 4096);
    unsigned rows = r < 10 ? 4 : 1 + rnd() % 6, cols = 1 + rnd() % (r < 35 ? 8 : 40);
    uint32_t stride = r < 10 ? 8 * (36 + rnd() % 64) : 8 * (rnd() % 64);
    uint32_t stride2 = r < 10 ? 32 : 8 * (rnd() % 64);
    uint32_t mask = chance(50) ? 0xFFFFFFFFu : rnd();
    send_wr(rnd() % 4, rnd() % 4, next_txn(), addr, stride, rows * cols, mask, -1, rows, cols, stride2);
    if (r % 5 == 4) drain();
  }
  // A read that waits in the issue queue for a stream (every stream busy
  // with a long read: 4 on this agent, 8 on the two-agent machine's), then
  // a write over its rows: the read must not see it (the queue's bound
  // must hold the read from the cycle after its push, when it is not yet
  // at the queue's head; a bound that waited for the head let the write by).
  for (unsigned busy : {4u, 8u})
    for (int r = 0; r < 4; r++) {
      ready_pct = valid_pct = 100;
      for (unsigned q = 0; q < busy; q++)
        send_rd(0, 3, next_txn(), 0x60000 + 0x1000 * q, 256, 4, 8, KTPU_FMT_MX);
      uint32_t a = 0x90000 + 0x1000 * (uint32_t)r;
      send_rd(1, 3, next_txn(), a, 64, 1, 2, KTPU_FMT_MX);
      send_wr(2, 3, next_txn(), a + 8 * (rnd() % 8), 8, 4, 0xFFFFFFFFu);
      drain();
    }
  drain(); mark(3, c0);

  // 5. Quantise jobs, then MX reads of what they wrote.
  c0 = checks;
  for (int r = 0; r < 12; r++) {
    ready_pct = 50 + rnd() % 51;
    unsigned rows = 1 + rnd() % 8, blocks = 1 + rnd() % 6;
    uint32_t src = 0x20000 + 32 * (rnd() % 2048), dst = 0xA0000 + 32 * (rnd() % 1024);
    send_qjob(3, 2, next_txn(), src, 64 * (blocks + rnd() % 4), dst, 32 * (blocks + rnd() % 3), rows, blocks);
    send_rd(3, 2, next_txn(), dst, 32 * (blocks + 0), 1, 1, KTPU_FMT_MX);
    drain();
  }
  mark(4, c0);

  // 6. Refusals: window (below, above, straddling the limit, past the DRAM),
  //    alignment, malformed; DRAM must stay untouched (checked by drain()).
  c0 = checks;
  send_rd(0, 0, next_txn(), 0x0, 32, 1, 1, KTPU_FMT_MX);                      // below the window
  send_rd(0, 0, next_txn(), win_limit - 64, 32, 1, 4, KTPU_FMT_MX);           // straddles the limit
  send_rd(0, 0, next_txn(), win_limit - 256, 64, 1, 2, KTPU_FMT_FP16);        // rows 1..3 beyond
  send_rd(0, 0, next_txn(), win_limit - 128, 0, 1, 2, KTPU_FMT_FP16);         // exactly fits
  send_rd(0, 0, next_txn(), 0xFFFFFFE0u, 32, 1, 1, KTPU_FMT_MX);              // far beyond
  send_rd(0, 0, next_txn(), 0x20000, 0x40000000u, 2, 1, KTPU_FMT_MX);         // stride wraps 32 bits
  send_rd(0, 0, next_txn(), 0x20000, 0x55555560u, 1, 1, KTPU_FMT_MX);         // 3 x stride = 2^32 + 32: wrapped, inside
  send_wr(1, 0, next_txn(), 0x80000, 0x40000000u, 5, 0xFFFFFFFFu);           // 4 x stride = 2^32: wrapped, inside
  send_rd(0, 0, next_txn(), 0x20010, 64, 1, 1, KTPU_FMT_FP16);                // misaligned base
  send_rd(0, 0, next_txn(), 0x20000, 48, 1, 1, KTPU_FMT_MX);                  // misaligned stride
  send_rd(0, 0, next_txn(), 0x20000, 64, 1, 1, 2);                            // bad format
  send_rd(0, 0, next_txn(), 0x20000, 64, 0, 1, KTPU_FMT_MX);                  // no groups
  send_rd(0, 0, next_txn(), 0x20000, 64, 300, 300, KTPU_FMT_MX);              // > 65535 entries
  send_rd(0, 0, next_txn(), 0x20000, 64, 1, 1, KTPU_FMT_MX, 0);               // two-flit MEM_RD
  send_wr(1, 0, next_txn(), win_limit - 16, 0, 1, 0xFFFFFFFFu);               // straddles the limit
  send_wr(1, 0, next_txn(), win_limit - 16, 0, 1, 0x0000FFFFu);               // mask keeps it inside
  send_wr(1, 0, next_txn(), win_base - 8, 8, 3, 0xFF00FF00u);                 // below
  send_wr(1, 0, next_txn(), 0x80004, 8, 2, 0xFFFFFFFFu);                      // misaligned
  send_wr(1, 0, next_txn(), 0x80000, 8, 0, 0xFFFFFFFFu, 2);                   // count 0
  send_wr(1, 0, next_txn(), 0x80000, 8, 3, 0xFFFFFFFFu, 0);                   // no data flits
  send_wr(1, 0, next_txn(), 0x80100, 40, 4, 0xFFFFFFFFu, 2);                  // fewer data flits
  send_wr(1, 0, next_txn(), 0x80300, 40, 2, 0xFFFFFFFFu, 5);                  // more data flits
  send_wr(1, 0, next_txn(), 0x80000, 64, 6, 0xFFFFFFFFu, -1, 4, 2, 32);       // 2-D: ROWS x COLS != COUNT
  send_wr(1, 0, next_txn(), 0x80000, 64, 4, 0xFFFFFFFFu, -1, 4, 0, 32);       // 2-D: no columns
  send_wr(1, 0, next_txn(), 0x80000, 64, 8, 0xFFFFFFFFu, -1, 4, 2, 36);       // 2-D: STRIDE2 misaligned
  send_wr(1, 0, next_txn(), win_limit - 512, 24, 8, 0xFFFFFFFFu, -1, 2, 4, 160); // 2-D: last column 24 bytes past the limit
  send_wr(1, 0, next_txn(), win_limit - 512, 24, 8, 0xFFFFFFFFu, -1, 2, 4, 152); // 2-D: exactly fits
  send_wr(1, 0, next_txn(), 0x80000, 0, 4, 0xFFFFFFFFu, -1, 1, 4, 0x7FFFFFF8u); // 2-D: column step far out
  send_qjob(2, 0, next_txn(), 0x20000, 64, win_limit - 32, 32, 2, 1);         // dst beyond
  send_qjob(2, 0, next_txn(), 0x20000, 64, 0x20040, 32, 2, 2);                // in place: overlap
  send_qjob(2, 0, next_txn(), 0x20000, 64, 0xA0000, 32, 0, 2);                // no rows
  send_qjob(2, 0, next_txn(), 0x20000, 64, 0xA0010, 32, 1, 1);                // misaligned dst
  send_other(3, 3, next_txn(), KTPU_MSG_CL_INSTR, 1);                         // not for the agent
  send_other(3, 3, next_txn(), KTPU_MSG_PEER_DATA, 3);
  send_other(3, 3, next_txn(), KTPU_MSG_MEM_DATA, 1);                         // a response type
  send_other(3, 3, next_txn(), 0, 2);
  ready_pct = 70; valid_pct = 80;
  drain();
  // The window moves: what was fine is now refused, and the other way round.
  win_base = 0x60000; win_limit = 0x70000;
  M->win_base_i = win_base; M->win_limit_i = win_limit;
  send_rd(0, 2, next_txn(), 0x20000, 64, 1, 1, KTPU_FMT_FP16);
  send_rd(0, 2, next_txn(), 0x60000, 64, 1, 1, KTPU_FMT_MX);
  send_wr(0, 2, next_txn(), 0x80000, 8, 1, 0xFFu);
  drain();
  win_base = 0x1000; win_limit = MEMB - 0x1000;
  M->win_base_i = win_base; M->win_limit_i = win_limit;
  mark(5, c0);

  // 7. A random mix of everything, many in flight, random back-pressure.
  c0 = checks;
  for (int r = 0; r < 300; r++) {
    ready_pct = 20 + rnd() % 81; valid_pct = 30 + rnd() % 71;
    int sx = rnd() % 4, sy = rnd() % 4;
    unsigned k = rnd() % 10;
    if (k < 4) {
      unsigned fmt = rnd() % 2;
      uint32_t base = 0x20000 + 32 * (rnd() % 16384);
      send_rd(sx, sy, next_txn(), base, 32 * (rnd() % 64), 1 + rnd() % 3, 1 + rnd() % 5, fmt);
    } else if (k < 8) {
      send_wr(sx, sy, next_txn(), 0x20000 + 8 * (rnd() % 60000), 8 * (rnd() % 128), 1 + rnd() % 6,
              chance(50) ? 0xFFFFFFFFu : rnd());
    } else if (k < 9) {
      unsigned rows = 1 + rnd() % 4, blocks = 1 + rnd() % 4;
      send_qjob(sx, sy, next_txn(), 0x20000 + 32 * (rnd() % 4096), 64 * blocks, 0xC0000 + 32 * (rnd() % 2048),
                32 * blocks, rows, blocks);
    } else {
      send_rd(sx, sy, next_txn(), win_limit - 32 * (rnd() % 4), 32, 1, 1 + rnd() % 4, KTPU_FMT_MX);
    }
    if (r % 25 == 24) drain();
  }
  drain(); mark(6, c0);

  // 8. Grouped reads (docs/mem.md): groups that never complete, or whose
  //    members disagree on the read, are refused to every member that came
  //    (after the bench's 20,000-cycle wait), a member that comes after that
  //    starts a group of its own; more partial groups than slots: the extra
  //    member is refused at once; a group larger than MEM_GROUP_MAX is
  //    BADREQ; then groups of 2..MEM_GROUP_MAX members from different
  //    requesters, two at a time, among ordinary reads and writes (some into
  //    the group's rows: the read sees DRAM as it is when its last member
  //    arrives), random back-pressure: every member gets every MEM_DATA
  //    once, in walk order, with its own txn.
  c0 = checks;
  ready_pct = 70; valid_pct = 80;
  unsigned long long gref0 = group_refusals;
  send_rd(0, 0, next_txn(), 0x60000, 64, 2, 2, KTPU_FMT_MX, 1, 9, 3);
  send_rd(1, 0, next_txn(), 0x60000, 64, 2, 2, KTPU_FMT_MX, 1, 9, 3);          // the third never comes
  send_rd(2, 0, next_txn(), 0x60020, 64, 2, 2, KTPU_FMT_MX, 1, 9, 3);          // same tag, another read
  expire_partials();
  drain();
  send_rd(3, 0, next_txn(), 0x60000, 64, 2, 2, KTPU_FMT_MX, 1, 9, 3);          // too late: a group of its own
  expire_partials();
  drain();
  for (unsigned g = 0; g <= KTPU_MEM_GROUP_SLOTS; g++)                         // the last finds no slot
    send_rd(0, 1, next_txn(), 0x20000 + 0x400 * g, 128, 1, 2, KTPU_FMT_FP16, 1, g, 2);
  for (unsigned g = 0; g < KTPU_MEM_GROUP_SLOTS; g++)
    send_rd(1, 1, next_txn(), 0x20000 + 0x400 * g, 128, 1, 2, KTPU_FMT_FP16, 1, g, 2);
  send_rd(2, 2, next_txn(), 0x60000, 64, 1, 1, KTPU_FMT_MX, 1, 3, KTPU_MEM_GROUP_MAX + 1);
  send_rd(2, 2, next_txn(), 0x60000, 64, 1, 1, KTPU_FMT_MX, 1, 3, 7);
  drain();
  CHECK(group_refusals - gref0 == 5, "grouped reads: %llu refusals modelled, 5 meant", group_refusals - gref0);
  for (int r = 0; r < 40; r++) {
    ready_pct = 20 + rnd() % 81; valid_pct = 30 + rnd() % 71;
    struct { unsigned gn, fmt, groups, per, gid; uint32_t base, stride; } gr[2];
    for (auto &q : gr) {
      q.gn = 2 + rnd() % (KTPU_MEM_GROUP_MAX - 1);
      q.fmt = rnd() % 2;
      q.groups = 1 + rnd() % 3;
      q.per = 1 + rnd() % 4;
      q.gid = rnd() % 16;
      q.base = q.fmt == KTPU_FMT_FP16 ? 0x20000 + 32 * (rnd() % 4096) : 0x60000 + 32 * (rnd() % 2048);
      q.stride = 32 * (4 + rnd() % 16);
    }
    for (unsigned mb = 0; mb < KTPU_MEM_GROUP_MAX; mb++)
      for (int i = 0; i < 2; i++) {
        if (mb >= gr[i].gn) continue;
        // the last member behind a full issue queue, then a write into the
        // group's rows: the group's read must not see it
        bool late_write = mb + 1 == gr[i].gn && chance(30);
        for (int q = 0; late_write && q < 8; q++)
          send_rd(3, 1, next_txn(), 0x60000 + 32 * (rnd() % 2048), 128, 2, 4, KTPU_FMT_MX);
        send_rd((int)mb, 2 + i, next_txn(), gr[i].base, gr[i].stride, gr[i].groups, gr[i].per, gr[i].fmt, 1,
                gr[i].gid, gr[i].gn);
        if (late_write) send_wr(3, 0, next_txn(), gr[i].base + 8 * (rnd() % 16), 8, 1 + rnd() % 4, 0xFFFFFFFFu);
        if (chance(30))
          send_rd(3, 3, next_txn(), 0x60000 + 32 * (rnd() % 2048), 32 * (4 + rnd() % 8), 1, 1 + rnd() % 3,
                  KTPU_FMT_MX);
        if (chance(20) && mb + 1 < gr[i].gn)   // into the group's rows, before its last member
          send_wr(3, 0, next_txn(), gr[i].base + 8 * (rnd() % 16), 8, 1 + rnd() % 4, 0xFFFFFFFFu);
      }
    if (r % 8 == 7) drain();
  }
  drain(); mark(7, c0);

  // Fill rate: cycles per L1 entry (4 MEM_DATA flits) for a 256-entry fill.
  unsigned long long cyc_mx, cyc_f16;
  double mx = fill_rate(KTPU_FMT_MX, 256, &cyc_mx);
  double f16 = fill_rate(KTPU_FMT_FP16, 256, &cyc_f16);
  printf("fill 256 entries: MX %llu cycles (%.2f per entry, floor 4), FP16 %llu cycles (%.2f per entry, floor 8)\n",
         cyc_mx, mx, cyc_f16, f16);
  if (csv) {
    FILE *f = fopen(csv, "w");
    if (!f) { perror(csv); return 2; }
    fprintf(f, "fill,entries,cycles,cycles_per_entry,floor\nmx,256,%llu,%.3f,4\nfp16,256,%llu,%.3f,8\n", cyc_mx, mx,
            cyc_f16, f16);
    fclose(f);
  }

  // the agent's clock gate closed in the idle stretches (drains, fill-rate
  // gaps) and every check above held with it
  CHECK(m->gated_o > 0, "clock gate: never closed");
  printf("clock gate: %u cycles gated\n", m->gated_o);
  m->final();
  printf("checks per phase:");
  for (int p = 0; p < 8; p++) printf(" %s %llu;", phase[p], pc[p]);
  printf("\nmem_agent: %llu MEM_DATA + %llu MEM_ACK flits checked, %llu checks, %llu failed\n", data_flits,
         ack_flits, checks, fails);
  return fails ? 1 : 0;
}
