// ktpu_quant against ktpu_ref_quant_block(), bit for bit: every q, the scale
// byte and the NONFINITE flag of every block. Block classes:
//   every peak  - one block per finite FP16 magnitude 0..0x7BFF as the peak,
//                 the other 31 elements random below it (every peak exponent
//                 and every peak significand, so every scale the rule makes)
//   random      - random finite bit patterns, and per-block exponent windows
//   subnormal   - all elements subnormal or zero, and subnormal/normal mixes
//   ties        - elements placed exactly on q + 1/2 (round half even)
//   non-finite  - one or more Inf/NaN of either sign anywhere in the block
//   signed zero - blocks of +0 / -0 (no -0 comes out: q is an integer 0)
// The pipe runs with random input gaps and random output stalls; blocks are
// matched in order through the tag.
// Usage: Vktpu_quant [--seed S] [--random N]
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <vector>

#include "Vktpu_quant.h"
#include "verilated.h"

#include "ktpu_tb.h"
extern "C" {
#include "ktpu_ref.h"
}


struct Block { uint16_t x[32]; int cls; };
static const char *cls_name[] = {"every-peak", "random", "subnormal", "ties", "non-finite", "zero"};

// FP16 of N x 2^e2 if exactly representable and finite, else 0xFFFF.
static uint16_t fp16_exact(uint32_t n, int e2) {
  if (n == 0) return 0;
  while (n >= 2048) { if (n & 1) return 0xFFFF; n >>= 1; e2++; }
  while (n < 1024 && e2 > -24) { n <<= 1; e2--; }
  if (n < 1024) return e2 == -24 ? (uint16_t)n : 0xFFFF;   // subnormal: value n x 2^-24
  int ef = e2 + 25;                                       // sig x 2^(ef-25)
  if (ef < 1 || ef > 30) return 0xFFFF;
  return (uint16_t)(ef << 10 | (n - 1024));
}

static uint16_t rand_below(uint16_t peak) {  // random magnitude <= peak
  if (peak == 0) return 0;
  uint32_t r = rnd();
  if (r % 4 == 0) return (uint16_t)(rnd() % (peak + 1u));
  // near the peak's exponent, so rounding is exercised, not just zeros
  int span = 1 + rnd() % 8;
  uint32_t lo = peak > (uint32_t)(span << 10) ? peak - (uint32_t)(span << 10) : 0;
  return (uint16_t)(lo + rnd() % (peak - lo + 1u));
}

int main(int argc, char **argv) {
  unsigned long long seed = 1, nrandom = 20000;
  tb_args(argc, argv, "quant_tb", {{"--seed", &seed}, {"--random", &nrandom}});
  tb_seed(seed, 7);

  std::vector<Block> blocks;
  // every peak magnitude
  for (uint32_t p = 0; p <= 0x7BFF; p++) {
    Block b; b.cls = 0;
    for (int k = 0; k < 32; k++) b.x[k] = (uint16_t)(rand_below((uint16_t)p) | (rnd() & 1) << 15);
    b.x[rnd() % 32] = (uint16_t)(p | (rnd() & 1) << 15);
    blocks.push_back(b);
  }
  for (unsigned long long i = 0; i < nrandom; i++) {
    Block b; b.cls = 1;
    int mode = rnd() % 3;
    int e0 = 1 + rnd() % 30, w = 1 + rnd() % 6;
    for (int k = 0; k < 32; k++) {
      uint16_t v;
      do { v = (uint16_t)rnd(); } while (((v >> 10) & 31) == 31);
      if (mode == 1) {  // exponent window
        int e = e0 - (int)(rnd() % w); if (e < 0) e = 0;
        v = (uint16_t)((v & 0x83FF) | e << 10);
      }
      if (mode == 2 && rnd() % 3 == 0) v = (uint16_t)(v & 0x8000);  // sparse
      b.x[k] = v;
    }
    blocks.push_back(b);
  }
  for (int i = 0; i < 4000; i++) {  // subnormal
    Block b; b.cls = 2;
    for (int k = 0; k < 32; k++) {
      uint16_t v = (uint16_t)((rnd() & 0x3FF) | (rnd() & 1) << 15);
      if (i % 4 == 1 && rnd() % 8 == 0) v = (uint16_t)(v | 1 << 10);       // smallest normals
      if (i % 4 == 2) v = (uint16_t)(v & (0x8000 | (0x3FF >> (rnd() % 10))));  // tiny
      if (i % 4 == 3) v = (uint16_t)((v & 0x8000) | (1009 + rnd() % 15));    // peak 1009..1023: M=1
      b.x[k] = v;
    }
    blocks.push_back(b);
  }
  for (int i = 0; i < 6000; i++) {  // ties: x = (j + 1/2) x scale exactly
    Block b; b.cls = 3;
    uint16_t peak = (uint16_t)(rnd() % 0x7C00);
    uint8_t s = ktpu_ref_scale_for_peak(peak);
    int E = s >> 3, M = s & 7;
    // scale = (8+M) x 2^(E-23); (2j+1)/2 x scale = (2j+1)(8+M) x 2^(E-24)
    for (int k = 0; k < 32; k++) {
      uint16_t v = 0xFFFF;
      for (int tries = 0; tries < 8 && v == 0xFFFF; tries++) {
        uint32_t j = rnd() % 64;
        if (j == 63 || (j == 62 && rnd() % 2)) j = rnd() % 8;
        v = fp16_exact((2 * j + 1) * (uint32_t)(8 + M), E - 24);
        if (v != 0xFFFF && v > peak) v = 0xFFFF;
      }
      if (v == 0xFFFF) v = rand_below(peak);
      b.x[k] = (uint16_t)(v | (rnd() & 1) << 15);
    }
    b.x[rnd() % 32] = (uint16_t)(peak | (rnd() & 1) << 15);
    blocks.push_back(b);
  }
  for (int i = 0; i < 2000; i++) {  // non-finite
    Block b; b.cls = 4;
    for (int k = 0; k < 32; k++) b.x[k] = (uint16_t)(rnd() & 0xFBFF);
    int n = 1 + (i % 3 == 0 ? rnd() % 32 : 0);
    for (int j = 0; j < n; j++) {
      uint16_t frac = (i % 2) ? 0 : (uint16_t)(rnd() & 0x3FF);  // Inf or NaN
      b.x[rnd() % 32] = (uint16_t)(0x7C00 | frac | (rnd() & 1) << 15);
    }
    blocks.push_back(b);
  }
  for (int i = 0; i < 16; i++) {  // signed zeros
    Block b; b.cls = 5;
    for (int k = 0; k < 32; k++) b.x[k] = (uint16_t)((i & 1) ? (rnd() & 1) << 15 : 0);
    blocks.push_back(b);
  }

  auto ctx = tb_context(argc, argv, seed);
  auto m = std::make_unique<Vktpu_quant>(ctx.get());

  unsigned long long cls_count[6] = {0};   // checks, fails: the bench kit's counters (ktpu_tb.h)
  unsigned long long ties[2] = {0, 0};  // ties that rounded to an even / odd q
  m->clk_i = 0; m->rst_i = 1; m->valid_i = 0; m->ready_i = 0;
  for (int i = 0; i < 4; i++) { m->clk_i = 0; m->eval(); m->clk_i = 1; m->eval(); }
  m->rst_i = 0;
  size_t next_in = 0, next_out = 0;
  unsigned long long cyc = 0;
  while (next_out < blocks.size() && cyc < 10 * blocks.size() + 1000) {
    bool v = next_in < blocks.size() && rnd() % 8 != 0;
    m->valid_i = v;
    if (v) {
      for (int k = 0; k < 16; k++)
        m->x_i[k] = (uint32_t)blocks[next_in].x[2 * k] | (uint32_t)blocks[next_in].x[2 * k + 1] << 16;
      m->tag_i = (uint8_t)next_in;
    }
    bool rdy = rnd() % 6 != 0;
    m->ready_i = rdy;
    m->clk_i = 0; m->eval();
    if (m->valid_o && rdy) {
      const Block &b = blocks[next_out];
      int8_t q[32]; uint8_t s;
      unsigned flags = ktpu_ref_quant_block(b.x, q, &s);
      bool ok = m->tag_o == (uint8_t)next_out && m->scale_o == s &&
                (bool)m->nonfinite_o == ((flags & KTPU_FLAG_NONFINITE) != 0);
      int bad_k = -1;
      for (int k = 0; k < 32; k++) {
        uint32_t bit = 7u * k;
        uint32_t w = m->q_o[bit / 32] >> (bit % 32);
        if (bit % 32 > 25) w |= m->q_o[bit / 32 + 1] << (32 - bit % 32);
        int qk = (int)(w & 0x7F); if (qk & 0x40) qk -= 128;
        if (qk != q[k] && bad_k < 0) bad_k = k;
      }
      checks++; cls_count[b.cls]++;
      if (!flags) {  // count exact ties: 2|x| = K (8+M) 2^t, K odd, t = E + 2 - ep
        int E = s >> 3, M = s & 7;
        for (int k = 0; k < 32; k++) {
          uint32_t e = (b.x[k] >> 10) & 31, sig = e ? (b.x[k] & 0x3FF) | 1024 : (b.x[k] & 0x3FF);
          int t = E + 2 - (e ? (int)e : 1);
          if (sig == 0 || t < 1 || t > 40) continue;
          uint64_t den = (uint64_t)(8 + M) << t;
          if ((2ull * sig) % den == 0 && ((2ull * sig) / den) % 2 == 1) ties[(q[k] & 1) != 0]++;
        }
      }
      if (!ok || bad_k >= 0) {
        if (fails++ < 10) {
          printf("FAIL: block %zu (%s): scale rtl %02x ref %02x, nonfinite rtl %d ref %d, tag %u",
                 next_out, cls_name[b.cls], m->scale_o, s, m->nonfinite_o, flags != 0, m->tag_o);
          if (bad_k >= 0) printf(", first bad q[%d] (x = 0x%04x, ref %d)", bad_k, b.x[bad_k], q[bad_k]);
          printf("\n");
        }
      }
      next_out++;
    }
    if (v && m->ready_o) next_in++;
    m->clk_i = 1; m->eval();
    cyc++;
  }
  if (next_out < blocks.size()) { printf("FAIL: pipe stopped after %zu of %zu blocks\n", next_out, blocks.size()); fails++; }
  m->final();
  printf("blocks per class:");
  for (int c = 0; c < 6; c++) printf(" %s %llu", cls_name[c], cls_count[c]);
  printf("\nexact ties: %llu (rounded to even q: %llu, to odd q: %llu)", ties[0] + ties[1], ties[0], ties[1]);
  printf("\nquant: %llu blocks checked bit for bit (32 q + scale + flag each), %llu failed\n", checks, fails);
  return fails ? 1 : 0;
}
