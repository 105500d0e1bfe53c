/* ktpu_err.h -- how far an FP16 GEMM result is from the true products, for
 * reports (make run, ktpu-sim --gemm). Host only (stdio, malloc, libm; link
 * -lm). Host doubles here decide no result bit: this measures, it does not
 * check (every check is bit for bit against ktpu_ref). */
#ifndef KTPU_ERR_H
#define KTPU_ERR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The value of an FP16 bit pattern (exact in a double). */
double ktpu_err_fp16_value(uint16_t h);

/* Prints to out: `samples` elements of the first rows (C, FP64, exact
 * MXFP7), then one line each for the error of C against the FP64 product of
 * the FP16 operands and against the exact product of their MXFP7 forms:
 * max |diff| in FP16 ULPs of max |C|, max ULPs per element (MXFP7), relative
 * RMS. Operands: A m x k (row stride lda elements), BT n x k (ldb); their
 * MXFP7 forms q (row stride k) and scales s (row stride k/32), k % 32 == 0;
 * C m x n (row stride ldc). a or bt NULL: the FP64 line is left out (e.g.
 * operands given only pre-quantised). Returns 0, or -1 if out of memory. */
int ktpu_err_report(FILE *out, size_t m, size_t n, size_t k, const uint16_t *a, size_t lda,
                    const uint16_t *bt, size_t ldb, const int8_t *qa, const uint8_t *sa,
                    const int8_t *qb, const uint8_t *sb, const uint16_t *c, size_t ldc,
                    unsigned samples);

#ifdef __cplusplus
}
#endif

#endif /* KTPU_ERR_H */
