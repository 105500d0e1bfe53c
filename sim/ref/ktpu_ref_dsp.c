/* DSP packing, cascade and extraction (seed §2, §3): the integer half of
 * the datapath, modelled at the 48-bit P word the DSP48E2 actually holds. */
#include "ktpu_ref.h"

int64_t ktpu_ref_dsp_packed(int w1, int w0, int a)
{
    /* (A + D) x B with A = w1 << S, D = w0. The pre-adder sum fits 27 bits
     * signed for every int7 pair (worst case -64*2^19 - 64), the product
     * 45 bits: no wrap is possible here. */
    int64_t ad = (int64_t)w1 * ((int64_t)1 << KTPU_MAC_PACK_SHIFT) + (int64_t)w0;
    return ad * (int64_t)a;
}

int64_t ktpu_ref_wrap48(int64_t x)
{
    /* Two's complement reduction modulo 2^48, done on unsigned values so no
     * signed overflow or implementation-defined shift is involved. */
    uint64_t u = (uint64_t)x & (((uint64_t)1 << 48) - 1u);
    if (u & ((uint64_t)1 << 47))
        return -(int64_t)(((uint64_t)1 << 48) - u);
    return (int64_t)u;
}

void ktpu_ref_extract(int64_t p48, int32_t *lower, int32_t *upper)
{
    const unsigned lb = KTPU_LOWER_FIELD_BITS; /* 19 */
    uint64_t u = (uint64_t)p48 & (((uint64_t)1 << 48) - 1u);
    uint32_t lo = (uint32_t)(u & (((uint64_t)1 << lb) - 1u));
    uint32_t hi = (uint32_t)(u >> lb); /* 29 bits */
    uint32_t borrow = (lo >> (lb - 1u)) & 1u;
    int32_t lo_s = borrow ? (int32_t)lo - ((int32_t)1 << lb) : (int32_t)lo;
    int32_t hi_s = (hi >> (KTPU_UPPER_FIELD_BITS - 1)) & 1u
                       ? (int32_t)hi - ((int32_t)1 << (KTPU_UPPER_FIELD_BITS - 1)) -
                             ((int32_t)1 << (KTPU_UPPER_FIELD_BITS - 1))
                       : (int32_t)hi;
    *lower = lo_s;
    *upper = hi_s + (int32_t)borrow;
}

int64_t ktpu_ref_chain(const int8_t *w1, const int8_t *w0, const int8_t *a, size_t n,
                       int64_t c_in)
{
    int64_t p = ktpu_ref_wrap48(c_in);
    for (size_t k = 0; k < n; k++)
        p = ktpu_ref_wrap48(p + ktpu_ref_dsp_packed(w1[k], w0[k], a[k]));
    return p;
}

int32_t ktpu_ref_block_dot(const int8_t qa[32], const int8_t qb[32])
{
    int32_t p = 0;
    for (int k = 0; k < KTPU_MX_BLOCK_K; k++)
        p += (int32_t)qa[k] * (int32_t)qb[k];
    return p;
}

void ktpu_ref_block_dot_packed(const int8_t qa_row0[32], const int8_t qa_row1[32],
                               const int8_t qb[32], int32_t *p_row0, int32_t *p_row1)
{
    /* Four TCUs of 8 stages; each TCU's chain enters the next over C. */
    int64_t p = 0;
    for (int t = 0; t < KTPU_CLUSTER_TCUS; t++) {
        size_t k0 = (size_t)t * KTPU_TCU_DEPTH;
        p = ktpu_ref_chain(qa_row1 + k0, qa_row0 + k0, qb + k0, KTPU_TCU_DEPTH, p);
    }
    ktpu_ref_extract(p, p_row0, p_row1);
}
