// ktpu_tb.h -- what the Verilator benches share: how they start
// (ktpu_tb_main.h: the command line, the simulation context), a
// reproducible random stream, and the check counters every bench prints at
// the end. Header-only, for a single-translation-unit bench.
#ifndef KTPU_TB_H
#define KTPU_TB_H

#include <cstdint>
#include <cstdio>

#include "ktpu_rng.h"
#include "ktpu_tb_main.h"

// ---- the random stream -------------------------------------------------------
// The one generator of every bench, the host tools' (sim/ref/ktpu_rng.h:
// xorshift64*), seeded seed x golden ratio + stream, so a seed gives the
// same run on every host. A bench keeps a TbRng of its own, or uses the
// shared one through tb_seed() and rnd().
struct TbRng {
    ktpu_rng r;
    explicit TbRng(uint64_t seed, uint64_t stream = 1) {
        r.s = seed * 0x9E3779B97F4A7C15ull + stream;
        if (!r.s) r.s = 1;   // xorshift never leaves 0
    }
    uint32_t next32() { return ktpu_rng_next(&r); }
    uint64_t next() { uint64_t hi = next32(); return hi << 32 | next32(); }
    unsigned below(unsigned n) { return next32() % n; }
    int int7() { return (int)below(128) - 64; }  // full range [-64, 63]
};
static TbRng tb_rng(0);
static inline void tb_seed(uint64_t seed, uint64_t stream) { tb_rng = TbRng(seed, stream); }
static inline uint32_t rnd() { return tb_rng.next32(); }
static inline bool chance(unsigned pct) { return rnd() % 100 < pct; }

// ---- the check counters ------------------------------------------------------
// Every check counts; the first few failures are printed with their message,
// after what tb_where() says if the bench set it (e.g. the cycle).
static unsigned long long checks, fails;
static const char *(*tb_where)() = nullptr;
#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        checks++;                                                            \
        if (!(cond) && fails++ < 20) {                                       \
            printf("FAIL%s%s: ", tb_where ? " " : "", tb_where ? tb_where() : ""); \
            printf(__VA_ARGS__);                                             \
            printf("\n");                                                    \
        }                                                                    \
    } while (0)

#endif
