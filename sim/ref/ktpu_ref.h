/* ktpu_ref.h -- the KohakuTPU C reference: SPEC §3 bit for bit.
 *
 * Portable C99, integer only (the host FPU never decides a bit), no dynamic
 * allocation: every buffer is the caller's. Builds for the host
 * (build/host/libktpuref.a) and for rv32im/picolibc (build/rv32/libktpuref.a)
 * from the same sources. Partitioned like the RTL so that a mismatch points
 * at one stage: packed DSP product and extraction, cascade sum, scale
 * product, R22, R16, accumulator operations, whole GEMM. docs/ref.md has the
 * accumulation order and how the ambiguous corners of §3 were resolved.
 *
 * Value conventions
 *   FP16  uint16_t IEEE binary16 bit pattern.
 *   FP22  uint32_t, bits 21:0 = S1 E7 M14 (bias 63, no subnormals/Inf/NaN).
 *         On input, bits above 21 are ignored and any pattern with exponent
 *         field 0 is zero (whatever its sign and fraction). Every FP22 this
 *         library produces is canonical: < 2^22, zero is 0x000000.
 *   scale uint8_t MXFP7 scale byte {E[4:0], M[2:0]}.
 *   flags unsigned, KTPU_FLAG_* bits from ktpu_defs.h (generated from
 *         data/ktpu.def). Every function taking `unsigned *flags` ORs the
 *         flags it raises into *flags and never clears a bit (sticky, like
 *         the hardware); flags may be NULL when the caller does not care.
 */
#ifndef KTPU_REF_H
#define KTPU_REF_H

#include <stddef.h>
#include <stdint.h>

#include "ktpu_defs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- DSP packing (seed §2, §3.2) ---------------------------------------
 * One mx_mac: (A + D) x B with A = w1 << 19, D = w0, B = a. Weights and
 * activations are int7 ([-64, 63]); the result is the exact 48-bit P
 * contribution w1*a*2^19 + w0*a (as a signed 64-bit integer). */
int64_t ktpu_ref_dsp_packed(int w1, int w0, int a);

/* Reduce x modulo 2^48 to the signed 48-bit two's complement range, as the
 * DSP's 48-bit P register holds it. */
int64_t ktpu_ref_wrap48(int64_t x);

/* Extraction of one chain result: P is taken as a 48-bit two's complement
 * word (bits above 47 of p48 are ignored).
 *   *lower = signed P[18:0]            (row i,   range [-2^18, 2^18))
 *   *upper = signed P[47:19] + P[18]   (row i+1, the borrow correction) */
void ktpu_ref_extract(int64_t p48, int32_t *lower, int32_t *upper);

/* The cascade of one chain: c_in + sum over k < n of the packed products of
 * (w1[k], w0[k], a[k]), wrapped to 48 bits after every stage exactly as
 * PCOUT->PCIN / the C port carry it. n <= 32 for a meaningful result. */
int64_t ktpu_ref_chain(const int8_t *w1, const int8_t *w0, const int8_t *a,
                       size_t n, int64_t c_in);

/* P = sum over 32 k of qa[k] * qb[k], the exact block dot product
 * (|P| <= 131072 for int7 inputs). Plain products, no packing. */
int32_t ktpu_ref_block_dot(const int8_t qa[32], const int8_t qb[32]);

/* The same two block dot products computed the way one cluster chain does:
 * packed (row0 in the lower field, row1 in the upper), cascaded over four
 * TCUs of 8 and extracted. *p_row0 = dot(qa_row0, qb), *p_row1 =
 * dot(qa_row1, qb): equal to ktpu_ref_block_dot for every int7 input. */
void ktpu_ref_block_dot_packed(const int8_t qa_row0[32], const int8_t qa_row1[32],
                               const int8_t qb[32], int32_t *p_row0, int32_t *p_row1);

/* ---- MXFP7 (SPEC §3.1, §3.2) -------------------------------------------- */

/* The scale byte chosen for a block whose largest magnitude is the FP16
 * pattern peak (sign bit ignored; must be finite: exponent field < 31).
 * peak = 0 gives 0xA0. */
uint8_t ktpu_ref_scale_for_peak(uint16_t peak);

/* Quantise one block of 32 FP16 values (§3.2). Returns the flags raised:
 * KTPU_FLAG_NONFINITE if any element is Inf/NaN (then all q = 0 and
 * *scale = 0xA0), else 0. q is in [-63, 63]. */
unsigned ktpu_ref_quant_block(const uint16_t x[32], int8_t q[32], uint8_t *scale);

/* Storage of one block (32 bytes): bytes 0..27 the 7-bit fields
 * little-endian, byte 28 the scale, bytes 29..31 zero. q must be in
 * [-64, 63] (only the low 7 bits are stored). */
void ktpu_ref_mx_store(const int8_t q[32], uint8_t scale, uint8_t out[32]);

/* Inverse of ktpu_ref_mx_store. Returns 0, or non-zero if bytes 29..31 are
 * not zero (q and *scale are still written from bytes 0..28). */
int ktpu_ref_mx_load(const uint8_t in[32], int8_t q[32], uint8_t *scale);

/* ---- block contribution (SPEC §3.3): the scale product ------------------
 * v = P x (8+MA)(8+MB) x 2^(EA+EB-46) exactly: *mant = P x (8+MA)(8+MB)
 * (|mant| <= 131072 x 225 < 2^25 for a real block; every function taking P
 * is exact for any int32 P), *exp2 = EA + EB - 46, v = mant x 2^exp2. */
void ktpu_ref_scale_product(int32_t p, uint8_t sa, uint8_t sb, int64_t *mant, int *exp2);

/* ---- FP22 and FP16 rounding (SPEC §3.4, §3.5) -------------------------- */

/* R22 of an exact value (-1)^neg x mag x 2^exp2, mag < 2^64: round to
 * nearest even at 15 significant bits, then saturate above the largest
 * value (ACC_OVERFLOW) or give +0 below 2^-62 (ACC_UNDERFLOW); zero gives
 * +0 with no flag. The single round-and-pack routine of the FP22 format. */
uint32_t ktpu_ref_r22_pack(int neg, uint64_t mag, int exp2, unsigned *flags);

/* R22(v), v the block contribution of (P, sa, sb). */
uint32_t ktpu_ref_r22_contribution(int32_t p, uint8_t sa, uint8_t sb, unsigned *flags);

/* R22(T + v): the exact sum of an FP22 and a block contribution, one
 * rounding. */
uint32_t ktpu_ref_r22_add_contribution(uint32_t t, int32_t p, uint8_t sa, uint8_t sb,
                                       unsigned *flags);

/* R22(T + p): the exact sum of two FP22 values, one rounding. */
uint32_t ktpu_ref_r22_add(uint32_t t, uint32_t p, unsigned *flags);

/* R16 of an FP22: IEEE binary16, nearest even, subnormals exact; a rounded
 * magnitude above 65504 gives +-65504 (0x7BFF/0xFBFF) and FP16_OVERFLOW; a
 * result that is zero or rounds to zero is 0x0000 (never -0). */
uint16_t ktpu_ref_r16(uint32_t fp22, unsigned *flags);

/* ---- accumulator operations (SPEC §3.5) ---------------------------------
 * One call, one operation, one rounding. v is the contribution of (p, sa,
 * sb). Outputs each op writes (the others are neither read nor written and
 * may be NULL):
 *   LOAD      *tile = R22(v)                              flags: ACC_*
 *   ADD       *tile = R22(*tile + v)                      flags: ACC_*
 *   ADD_PEER  *tile = R22(*tile + peer_in)                flags: ACC_*
 *   SEND      *peer_out = *tile (raw bits 21:0)           flags: none
 *   FWD       *peer_out = R22(v); *tile untouched         flags: ACC_*
 *   EMIT      *out16 = R16(*tile)                         flags: FP16_OVERFLOW
 *   ADD_EMIT  *tile = R22(*tile + v); *out16 = R16(new *tile)
 *                                                         flags: ACC_*, FP16_OVERFLOW
 * p/sa/sb are used by LOAD, ADD, FWD, ADD_EMIT; peer_in only by ADD_PEER.
 * Flags are ORed into *flags (may be NULL). */
enum ktpu_acc_op {
    KTPU_ACC_LOAD,
    KTPU_ACC_ADD,
    KTPU_ACC_ADD_PEER,
    KTPU_ACC_SEND,
    KTPU_ACC_FWD,
    KTPU_ACC_EMIT,
    KTPU_ACC_ADD_EMIT
};

void ktpu_ref_acc_op(enum ktpu_acc_op op, uint32_t *tile, int32_t p, uint8_t sa, uint8_t sb,
                     uint32_t peer_in, uint32_t *peer_out, uint16_t *out16, unsigned *flags);

/* ---- matrices and GEMM ----------------------------------------------------
 * Layouts (all row-major, no padding):
 *   FP16 operand  rows x k uint16_t; k a multiple of 32.
 *   quantised     q: rows x k int8_t; s: rows x (k/32) uint8_t, s[r*(k/32)+kb]
 *                 the scale of row r, K-block kb.
 *   A is m x k, BT (B transposed) is n x k, C / tile are m x n.
 * Accumulation order (one cluster, SPEC §3.5): for every element (i, j),
 * K-blocks in increasing kb: LOAD for kb = 0, ADD for the rest, then EMIT
 * (ADD_EMIT on the last block is the same value). Any m, n >= 1 is fine:
 * each element is computed on its own, so padding to 4 changes nothing. */

/* Quantise every 32-block of an FP16 matrix. Returns the OR of the flags
 * (NONFINITE if any block was invalid; those blocks get q = 0, s = 0xA0). */
unsigned ktpu_ref_quant_matrix(const uint16_t *x, size_t rows, size_t k, int8_t *q,
                               uint8_t *s);

/* Partial GEMM over K-blocks [kb0, kb1) on quantised operands (nkb = k/32
 * blocks per row in qa/sa/qb/sb). acc = 0: the first block LOADs (the tile's
 * old contents are ignored); acc = 1: every block ADDs onto the FP22 tile
 * (the acc bit, a K chunk chained onto a resident tile). kb0 < kb1 <= nkb.
 * Returns the OR of the flags raised. */
unsigned ktpu_ref_gemm_mx_partial(size_t m, size_t n, size_t nkb,
                                  const int8_t *qa, const uint8_t *sa,
                                  const int8_t *qb, const uint8_t *sb,
                                  size_t kb0, size_t kb1, int acc, uint32_t *tile);

/* Split-K reduction step: dst[e] = R22(dst[e] + src[e]) (ADD_PEER) for
 * count elements. Returns the flags raised. */
unsigned ktpu_ref_tile_add_peer(uint32_t *dst, const uint32_t *src, size_t count);

/* out16[e] = R16(tile[e]) (EMIT) for count elements. Returns the flags. */
unsigned ktpu_ref_tile_emit(const uint32_t *tile, uint16_t *out16, size_t count);

/* Whole GEMM on quantised operands in the one-cluster order above; tile is
 * m x n FP22 scratch (also the final accumulator values), c is m x n FP16.
 * Returns the OR of the flags. */
unsigned ktpu_ref_gemm_mx(size_t m, size_t n, size_t k,
                          const int8_t *qa, const uint8_t *sa,
                          const int8_t *qb, const uint8_t *sb,
                          uint32_t *tile, uint16_t *c);

/* Split-K (SPEC §3.5), the order the GEMM firmware's planner runs on
 * `parts` clusters (firmware/gemm/ktpu_plan.c): K's nkb blocks in `parts`
 * contiguous ranges, the first nkb % parts of them one block longer
 * (ktpu_ref_split_range), each a partial tile in the one-cluster order;
 * then a binomial tree, for d = 1, 2, 4, ... < parts: every part i with
 * i % 2d == 0 and i + d < parts adds part i + d (ADD_PEER, one rounding
 * each); part 0 is emitted. 1 <= parts <= nkb (parts = 1 is
 * ktpu_ref_gemm_mx). scratch holds (parts - 1) * m * n FP22 values; tile
 * (part 0, the reduced tile) and c as for ktpu_ref_gemm_mx. Returns the OR
 * of the flags. */
void ktpu_ref_split_range(size_t nkb, unsigned parts, unsigned part, size_t *kb0, size_t *kb1);
unsigned ktpu_ref_gemm_mx_split(size_t m, size_t n, size_t k, unsigned parts,
                                const int8_t *qa, const uint8_t *sa,
                                const int8_t *qb, const uint8_t *sb,
                                uint32_t *scratch, uint32_t *tile, uint16_t *c);

/* Whole GEMM from FP16 operands: quantises A (m x k) and BT (n x k) into the
 * caller's scratch (qa m*k, sa m*k/32, qb n*k, sb n*k/32), then
 * ktpu_ref_gemm_mx. Returns the OR of all flags (NONFINITE included). */
unsigned ktpu_ref_gemm_f16(size_t m, size_t n, size_t k,
                           const uint16_t *a, const uint16_t *bt,
                           int8_t *qa, uint8_t *sa, int8_t *qb, uint8_t *sb,
                           uint32_t *tile, uint16_t *c);

#ifdef __cplusplus
}
#endif

#endif /* KTPU_REF_H */
