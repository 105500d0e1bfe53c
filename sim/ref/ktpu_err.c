/* ktpu_err.c -- error of an FP16 GEMM result against FP64 and the exact
 * MXFP7 product (ktpu_err.h). Built with -ffp-contract=off: no fused or
 * reassociated arithmetic changes a printed number. */
#include "ktpu_err.h"

#include <math.h>
#include <stdlib.h>

double ktpu_err_fp16_value(uint16_t h)
{
    int e = (h >> 10) & 31, f = h & 0x3FF;
    double v = e ? ldexp(1024 + f, e - 25) : ldexp(f, -24);
    return (h & 0x8000u) ? -v : v;
}

/* FP16 ULP at |x| (the subnormal quantum below 2^-14) */
static double ulp16(double x)
{
    int ex;
    (void)frexp(x, &ex);
    return ldexp(1.0, (ex - 1 < -14 ? -14 : ex - 1) - 10);
}

/* the value of q under scale s, exactly (q x 2^(E-23) x (8+M)) */
static double mx_value(int8_t q, uint8_t s)
{
    return ldexp((double)q * (8 + (s & 7u)), (int)(s >> 3) - 23);
}

static void print_error(FILE *out, const char *what, const double *exact, const uint16_t *c,
                        size_t m, size_t n, size_t ldc, int per_element_ulp)
{
    double max_abs = 0, max_ref = 0, max_ulp = 0, sum_sq_err = 0, sum_sq = 0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            double x = exact[i * n + j];
            double d = fabs(ktpu_err_fp16_value(c[i * ldc + j]) - x);
            if (d > max_abs)
                max_abs = d;
            if (fabs(x) > max_ref)
                max_ref = fabs(x);
            if (d / ulp16(x) > max_ulp)
                max_ulp = d / ulp16(x);
            sum_sq_err += d * d;
            sum_sq += x * x;
        }
    fprintf(out, "error against %s: max |diff| %.4g = %.2f FP16 ULP of max |C| (%.4g)", what,
            max_abs, max_abs / ulp16(max_ref), max_ref);
    if (per_element_ulp)
        fprintf(out, ", max %.2f ULP per element", max_ulp);
    fprintf(out, ", relative RMS %.3g\n", sum_sq > 0 ? sqrt(sum_sq_err / sum_sq) : 0.0);
}

/* Every element of an m x k operand as a double, row stride k: from FP16
 * (lda apart) or from MXFP7 (q, scales s). Converted once, not once per
 * product: the sums below are then the same multiply-adds in the same
 * order, and the report the same to the last digit, at a fraction of the
 * time (m x n x k conversions made ~30% of a 256^3 ktpu-sim run). */
static double *fp16_rows(const uint16_t *a, size_t lda, size_t m, size_t k)
{
    double *v = malloc((m * k + 1) * sizeof *v);
    if (v)
        for (size_t i = 0; i < m; i++)
            for (size_t kk = 0; kk < k; kk++) v[i * k + kk] = ktpu_err_fp16_value(a[i * lda + kk]);
    return v;
}

static double *mx_rows(const int8_t *q, const uint8_t *s, size_t m, size_t k)
{
    double *v = malloc((m * k + 1) * sizeof *v);
    if (v)
        for (size_t i = 0; i < m; i++)
            for (size_t kk = 0; kk < k; kk++) v[i * k + kk] = mx_value(q[i * k + kk], s[i * (k / 32u) + kk / 32u]);
    return v;
}

int ktpu_err_report(FILE *out, size_t m, size_t n, size_t k, const uint16_t *a, size_t lda,
                    const uint16_t *bt, size_t ldb, const int8_t *qa, const uint8_t *sa,
                    const int8_t *qb, const uint8_t *sb, const uint16_t *c, size_t ldc,
                    unsigned samples)
{
    int have64 = a != NULL && bt != NULL, rc = -1;
    double *f64 = malloc((m * n + 1) * sizeof *f64), *mx = malloc((m * n + 1) * sizeof *mx);
    double *va = have64 ? fp16_rows(a, lda, m, k) : NULL, *vb = have64 ? fp16_rows(bt, ldb, n, k) : NULL;
    double *xa = mx_rows(qa, sa, m, k), *xb = mx_rows(qb, sb, n, k);
    if (!f64 || !mx || !xa || !xb || (have64 && (!va || !vb)))
        goto out;
    unsigned shown = 0;
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            double e64 = 0, emx = 0;
            for (size_t kk = 0; kk < k; kk++) {
                if (have64)
                    e64 += va[i * k + kk] * vb[j * k + kk];
                emx += xa[i * k + kk] * xb[j * k + kk];
            }
            f64[i * n + j] = e64;
            mx[i * n + j] = emx;
            if (shown < samples && j < 4) {
                shown++;
                fprintf(out, "  C[%zu][%zu] = 0x%04x = %-11.6g", i, j, (unsigned)c[i * ldc + j],
                        ktpu_err_fp16_value(c[i * ldc + j]));
                if (have64)
                    fprintf(out, " FP64 %-11.6g", e64);
                fprintf(out, " exact MXFP7 %-11.6g\n", emx);
            }
        }
    if (have64)
        print_error(out, "FP64", f64, c, m, n, ldc, 0);
    print_error(out, "the exact MXFP7 product", mx, c, m, n, ldc, 1);
    rc = 0;
out:
    free(f64);
    free(mx);
    free(va);
    free(vb);
    free(xa);
    free(xb);
    return rc;
}
