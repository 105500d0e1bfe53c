/* MXFP7: the quantiser (SPEC §3.2) and block storage (§3.1). */
#include "ktpu_ref.h"

#define FP16_EXP_INF 31u

/* An FP16 magnitude as sig x 2^(ep - 25): subnormals decoded exactly as
 * f x 2^-24 (ep = 1, no hidden bit), never flushed. */
static void fp16_decode_mag(uint16_t x, uint32_t *sig, int *ep)
{
    uint32_t e = ((uint32_t)x & KTPU_FP16_EXP_MASK) >> KTPU_FP16_EXP_LSB;
    uint32_t f = (uint32_t)x & KTPU_FP16_FRAC_MASK;
    *sig = e ? (f | (1u << KTPU_FP16_EXP_LSB)) : f;
    *ep = e ? (int)e : 1;
}

static uint8_t scale_byte(int e, int m)
{
    return (uint8_t)(((unsigned)e << KTPU_MX_SCALE_E_LSB) | (unsigned)m);
}

uint8_t ktpu_ref_scale_for_peak(uint16_t peak)
{
    uint32_t sig;
    int ep;
    fp16_decode_mag((uint16_t)(peak & ~KTPU_FP16_SIGN_MASK), &sig, &ep);
    if (sig == 0)
        return KTPU_MX_SCALE_ONE;
    /* 63 x (8+M) x 2^(E-23) >= sig x 2^(ep-25). With E = ep - 1 that is
     * 126 (8+M) >= sig, so m = ceil(sig/126) is the smallest 8+M when it is
     * at most 15 (sig <= 1890); above, E = ep gives 252 (8+M) >= sig: M = 0
     * up to 2016, M = 1 up to 2047. No smaller scale works: 63 x 15 < 1024
     * rules out E = ep - 2 for a normal peak. A subnormal peak (ep = 1,
     * sig < 1024) wants M = m - 8 at E = 0, i.e. M = 0 (the smallest scale,
     * larger than needed) up to sig = 1008 and M = 1 for 1009..1023. */
    uint32_t m = (sig + 125u) / 126u;
    int e, mm;
    if (m <= 15u) {
        e = ep - 1;
        mm = (int)m - 8;
    } else {
        e = ep;
        mm = (int)m - 16;
    }
    if (mm < 0)
        mm = 0; /* subnormal peak: the smallest mantissa is already enough */
    if (e < 0)
        return 0x00u; /* not reached for FP16 (ep >= 1); kept as §3.2 states */
    return scale_byte(e, mm);
}

/* round_half_even(|x| / scale) for one element, exactly: |x| / scale =
 * sig x 2^(ep - E - 2) / (8 + M), an integer division with its remainder. */
static int quant_mag(uint16_t x, uint8_t s)
{
    uint32_t sig;
    int ep;
    fp16_decode_mag(x, &sig, &ep);
    int e = (int)((s & KTPU_MX_SCALE_E_MASK) >> KTPU_MX_SCALE_E_LSB);
    uint64_t num = sig, den = 8u + (uint64_t)(s & KTPU_MX_SCALE_M_MASK);
    int d = ep - e - 2;
    if (d >= 0)
        num <<= d; /* d <= 30 + 2: fits */
    else if (-d > 40)
        return 0; /* sig < 2^11 against den >= 2^43: far below one half */
    else
        den <<= -d;
    uint64_t q = num / den, r = num % den;
    if (2u * r > den || (2u * r == den && (q & 1u)))
        q++;
    return (int)q;
}

unsigned ktpu_ref_quant_block(const uint16_t x[32], int8_t q[32], uint8_t *scale)
{
    uint16_t peak = 0;
    for (int k = 0; k < KTPU_MX_BLOCK_K; k++) {
        uint16_t mag = (uint16_t)(x[k] & ~KTPU_FP16_SIGN_MASK);
        if ((((uint32_t)mag & KTPU_FP16_EXP_MASK) >> KTPU_FP16_EXP_LSB) == FP16_EXP_INF) {
            for (int j = 0; j < KTPU_MX_BLOCK_K; j++)
                q[j] = 0;
            *scale = KTPU_MX_SCALE_ONE;
            return KTPU_FLAG_NONFINITE;
        }
        /* finite FP16 magnitudes order like their bit patterns */
        if (mag > peak)
            peak = mag;
    }
    uint8_t s = ktpu_ref_scale_for_peak(peak);
    for (int k = 0; k < KTPU_MX_BLOCK_K; k++) {
        int m = quant_mag(x[k], s);
        q[k] = (int8_t)((x[k] & KTPU_FP16_SIGN_MASK) ? -m : m);
    }
    *scale = s;
    return 0;
}

void ktpu_ref_mx_store(const int8_t q[32], uint8_t scale, uint8_t out[32])
{
    for (int i = 0; i < KTPU_MX_STORE_BYTES; i++)
        out[i] = 0;
    for (int k = 0; k < KTPU_MX_BLOCK_K; k++) {
        unsigned bit = (unsigned)k * KTPU_MX_ELEM_BITS;
        unsigned v = (unsigned)(uint8_t)q[k] & 0x7Fu;
        out[bit / 8u] |= (uint8_t)(v << (bit % 8u));
        if (bit % 8u > 1u) /* the field spills into the next byte */
            out[bit / 8u + 1u] |= (uint8_t)(v >> (8u - bit % 8u));
    }
    out[KTPU_MX_STORE_SCALE_BYTE] = scale;
}

int ktpu_ref_mx_load(const uint8_t in[32], int8_t q[32], uint8_t *scale)
{
    for (int k = 0; k < KTPU_MX_BLOCK_K; k++) {
        unsigned bit = (unsigned)k * KTPU_MX_ELEM_BITS;
        unsigned v = (unsigned)in[bit / 8u] >> (bit % 8u);
        if (bit % 8u > 1u)
            v |= (unsigned)in[bit / 8u + 1u] << (8u - bit % 8u);
        v &= 0x7Fu;
        q[k] = (int8_t)(v & 0x40u ? (int)v - 128 : (int)v);
    }
    *scale = in[KTPU_MX_STORE_SCALE_BYTE];
    int bad = 0;
    for (int i = KTPU_MX_STORE_SCALE_BYTE + 1; i < KTPU_MX_STORE_BYTES; i++)
        bad |= in[i] != 0;
    return bad;
}
