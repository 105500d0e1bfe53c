/* Accumulator operations (SPEC §3.5) and whole GEMMs in the one-cluster
 * order: per element, K-blocks in increasing kb, LOAD then ADDs, then EMIT. */
#include "ktpu_ref.h"

#define FP22_WORD_MASK ((uint32_t)((1u << KTPU_FP22_BITS) - 1u))

void ktpu_ref_acc_op(enum ktpu_acc_op op, uint32_t *tile, int32_t p, uint8_t sa, uint8_t sb,
                     uint32_t peer_in, uint32_t *peer_out, uint16_t *out16, unsigned *flags)
{
    switch (op) {
    case KTPU_ACC_LOAD:
        *tile = ktpu_ref_r22_contribution(p, sa, sb, flags);
        break;
    case KTPU_ACC_ADD:
        *tile = ktpu_ref_r22_add_contribution(*tile, p, sa, sb, flags);
        break;
    case KTPU_ACC_ADD_PEER:
        *tile = ktpu_ref_r22_add(*tile, peer_in, flags);
        break;
    case KTPU_ACC_SEND:
        *peer_out = *tile & FP22_WORD_MASK;
        break;
    case KTPU_ACC_FWD:
        *peer_out = ktpu_ref_r22_contribution(p, sa, sb, flags);
        break;
    case KTPU_ACC_EMIT:
        *out16 = ktpu_ref_r16(*tile, flags);
        break;
    case KTPU_ACC_ADD_EMIT:
        *tile = ktpu_ref_r22_add_contribution(*tile, p, sa, sb, flags);
        *out16 = ktpu_ref_r16(*tile, flags);
        break;
    }
}

unsigned ktpu_ref_quant_matrix(const uint16_t *x, size_t rows, size_t k, int8_t *q,
                               uint8_t *s)
{
    unsigned fl = 0;
    size_t nkb = k / KTPU_MX_BLOCK_K;
    for (size_t r = 0; r < rows; r++)
        for (size_t kb = 0; kb < nkb; kb++) {
            size_t off = r * k + kb * KTPU_MX_BLOCK_K;
            fl |= ktpu_ref_quant_block(x + off, q + off, s + r * nkb + kb);
        }
    return fl;
}

unsigned ktpu_ref_gemm_mx_partial(size_t m, size_t n, size_t nkb, const int8_t *qa,
                                  const uint8_t *sa, const int8_t *qb, const uint8_t *sb,
                                  size_t kb0, size_t kb1, int acc, uint32_t *tile)
{
    unsigned fl = 0;
    size_t k = nkb * KTPU_MX_BLOCK_K;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            uint32_t *t = &tile[i * n + j];
            for (size_t kb = kb0; kb < kb1; kb++) {
                int32_t p = ktpu_ref_block_dot(qa + i * k + kb * KTPU_MX_BLOCK_K,
                                               qb + j * k + kb * KTPU_MX_BLOCK_K);
                enum ktpu_acc_op op = (kb == kb0 && !acc) ? KTPU_ACC_LOAD : KTPU_ACC_ADD;
                ktpu_ref_acc_op(op, t, p, sa[i * nkb + kb], sb[j * nkb + kb], 0, NULL, NULL,
                                &fl);
            }
        }
    return fl;
}

unsigned ktpu_ref_tile_add_peer(uint32_t *dst, const uint32_t *src, size_t count)
{
    unsigned fl = 0;
    for (size_t e = 0; e < count; e++)
        ktpu_ref_acc_op(KTPU_ACC_ADD_PEER, &dst[e], 0, 0, 0, src[e], NULL, NULL, &fl);
    return fl;
}

unsigned ktpu_ref_tile_emit(const uint32_t *tile, uint16_t *out16, size_t count)
{
    unsigned fl = 0;
    for (size_t e = 0; e < count; e++) {
        uint32_t t = tile[e];
        ktpu_ref_acc_op(KTPU_ACC_EMIT, &t, 0, 0, 0, 0, NULL, &out16[e], &fl);
    }
    return fl;
}

unsigned ktpu_ref_gemm_mx(size_t m, size_t n, size_t k, const int8_t *qa, const uint8_t *sa,
                          const int8_t *qb, const uint8_t *sb, uint32_t *tile, uint16_t *c)
{
    size_t nkb = k / KTPU_MX_BLOCK_K;
    unsigned fl = 0;
    if (nkb == 0) {
        /* K = 0: no block ever loads the tile; the empty sum is +0 */
        for (size_t e = 0; e < m * n; e++)
            tile[e] = 0;
    } else {
        fl |= ktpu_ref_gemm_mx_partial(m, n, nkb, qa, sa, qb, sb, 0, nkb, 0, tile);
    }
    fl |= ktpu_ref_tile_emit(tile, c, m * n);
    return fl;
}

void ktpu_ref_split_range(size_t nkb, unsigned parts, unsigned part, size_t *kb0, size_t *kb1)
{
    size_t q = nkb / parts, r = nkb % parts;
    *kb0 = part * q + (part < r ? part : r);
    *kb1 = *kb0 + q + (part < r);
}

unsigned ktpu_ref_gemm_mx_split(size_t m, size_t n, size_t k, unsigned parts, const int8_t *qa,
                                const uint8_t *sa, const int8_t *qb, const uint8_t *sb,
                                uint32_t *scratch, uint32_t *tile, uint16_t *c)
{
    size_t nkb = k / KTPU_MX_BLOCK_K, mn = m * n;
    if (parts <= 1 || nkb == 0)
        return ktpu_ref_gemm_mx(m, n, k, qa, sa, qb, sb, tile, c);
    unsigned fl = 0;
    for (unsigned i = 0; i < parts; i++) {
        size_t kb0, kb1;
        ktpu_ref_split_range(nkb, parts, i, &kb0, &kb1);
        fl |= ktpu_ref_gemm_mx_partial(m, n, nkb, qa, sa, qb, sb, kb0, kb1, 0,
                                       i ? scratch + (i - 1) * mn : tile);
    }
    for (unsigned d = 1; d < parts; d *= 2)
        for (unsigned i = 0; i + d < parts; i += 2 * d)
            fl |= ktpu_ref_tile_add_peer(i ? scratch + (i - 1) * mn : tile,
                                         scratch + (i + d - 1) * mn, mn);
    return fl | ktpu_ref_tile_emit(tile, c, mn);
}

unsigned ktpu_ref_gemm_f16(size_t m, size_t n, size_t k, const uint16_t *a, const uint16_t *bt,
                           int8_t *qa, uint8_t *sa, int8_t *qb, uint8_t *sb, uint32_t *tile,
                           uint16_t *c)
{
    unsigned fl = ktpu_ref_quant_matrix(a, m, k, qa, sa);
    fl |= ktpu_ref_quant_matrix(bt, n, k, qb, sb);
    return fl | ktpu_ref_gemm_mx(m, n, k, qa, sa, qb, sb, tile, c);
}
