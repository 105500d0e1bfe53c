// ktpu_tb.h -- what the Verilator benches share: how they start
// (ktpu_tb_main.h: the command line, the simulation context), a
// reproducible random stream, and the check counters every bench prints at
// the end. Header-only, for a single-translation-unit bench.
#ifndef KTPU_TB_H
#define KTPU_TB_H

#include <cstdint>
#include <cstdio>

#include "ktpu_tb_main.h"

// ---- the random stream -------------------------------------------------------
// xorshift64*: the same seed and stream give the same run on every host.
static uint64_t tb_rng_state;
static inline void tb_seed(uint64_t seed, uint64_t stream) {
    tb_rng_state = seed * 0x9E3779B97F4A7C15ull + stream;  // never 0 for stream > 0
}
static inline uint32_t rnd() {
    tb_rng_state ^= tb_rng_state >> 12;
    tb_rng_state ^= tb_rng_state << 25;
    tb_rng_state ^= tb_rng_state >> 27;
    return (uint32_t)((tb_rng_state * 2685821657736338717ull) >> 32);
}
static inline bool chance(unsigned pct) { return rnd() % 100 < pct; }

// ---- the check counters ------------------------------------------------------
// Every check counts; the first few failures are printed with their message.
static unsigned long long checks, fails;
#define CHECK(cond, ...)                                                \
    do {                                                                \
        checks++;                                                       \
        if (!(cond)) {                                                  \
            if (fails++ < 15) { printf("FAIL: " __VA_ARGS__); printf("\n"); } \
        }                                                               \
    } while (0)

#endif
