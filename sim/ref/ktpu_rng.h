/* The host tools' reproducible random stream, for generated operands
 * (ktpu-example gen, ktpu-sim --gemm-gen): xorshift64* seeded through a
 * golden-ratio multiply, integer arithmetic only, so a seed gives the same
 * operands on every host. The Verilator benches draw from it too
 * (tests/common/ktpu_tb.h, seeded with a stream number of their own). */
#ifndef KTPU_RNG_H
#define KTPU_RNG_H

#include <stdint.h>

struct ktpu_rng {
    uint64_t s;
};

static inline void ktpu_rng_seed(struct ktpu_rng *r, uint64_t seed)
{
    r->s = seed * 0x9E3779B97F4A7C15ull + 1u;
}

static inline uint32_t ktpu_rng_next(struct ktpu_rng *r)
{
    r->s ^= r->s >> 12;
    r->s ^= r->s << 25;
    r->s ^= r->s >> 27;
    return (uint32_t)((r->s * 0x2545F4914F6CDD1Dull) >> 32);
}

#endif
