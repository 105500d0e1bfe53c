/* ktpu-example: the `make run` demo of the reference until the co-simulator
 * takes over.
 *   ktpu-example gen DIR M K N SEED      writes DIR/A.npy (M x K), DIR/BT.npy
 *                                        (N x K), FP16 from a fixed-seed PRNG
 *   ktpu-example report A.npy BT.npy C.npy
 *                                        shape, a few elements, and the error
 *                                        of C against the FP64 product and the
 *                                        exact product of the MXFP7 operands
 * The generator builds FP16 bit patterns directly (no float conversion).
 * The report uses host doubles (built with -ffp-contract=off): it is a
 * report, not a check. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktpu_npy.h"
#include "ktpu_ref.h"

static uint64_t rng_state;

static uint32_t rng(void)
{
    /* xorshift64*: fixed, portable, reproducible from the seed */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}

/* Magnitudes log-uniform over [2^-4, 2^2), random sign, occasional zero. */
static uint16_t rand_fp16(void)
{
    uint32_t r = rng();
    if ((r & 63u) == 0)
        return 0;
    uint32_t exp = 11u + (r >> 6) % 6u; /* FP16 exponent fields 11..16 */
    uint32_t frac = (r >> 9) & 0x3FFu;
    uint32_t sign = (r >> 31) << 15;
    return (uint16_t)(sign | exp << 10 | frac);
}

static double fp16_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, f = h & 0x3FF;
    double v = e ? ldexp(1024 + f, e - 25) : ldexp(f, -24);
    return (h & 0x8000u) ? -v : v;
}

static int gen(const char *dir, size_t m, size_t k, size_t n, uint64_t seed)
{
    char path[4096], err[KTPU_NPY_ERR_LEN];
    uint16_t *a = malloc(m * k * 2u), *bt = malloc(n * k * 2u);
    if (!a || !bt) {
        fprintf(stderr, "ktpu-example: out of memory\n");
        return 1;
    }
    rng_state = seed * 0x9E3779B97F4A7C15ull + 1u;
    for (size_t i = 0; i < m * k; i++)
        a[i] = rand_fp16();
    for (size_t i = 0; i < n * k; i++)
        bt[i] = rand_fp16();
    snprintf(path, sizeof path, "%s/A.npy", dir);
    int rc = ktpu_npy_write_f16(path, a, 2, (size_t[]){m, k}, err);
    if (rc == 0) {
        snprintf(path, sizeof path, "%s/BT.npy", dir);
        rc = ktpu_npy_write_f16(path, bt, 2, (size_t[]){n, k}, err);
    }
    if (rc != 0)
        fprintf(stderr, "ktpu-example: %s\n", err);
    else
        printf("wrote %s/A.npy (%zu x %zu) and %s/BT.npy (%zu x %zu), seed %llu\n", dir, m, k,
               dir, n, k, (unsigned long long)seed);
    free(a);
    free(bt);
    return rc ? 1 : 0;
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

static void print_error(const char *what, const double *exact, const uint16_t *c, size_t count,
                        int per_element_ulp)
{
    double max_abs = 0, max_ref = 0, max_ulp = 0, sum_sq_err = 0, sum_sq = 0;
    for (size_t e = 0; e < count; e++) {
        double d = fabs(fp16_to_double(c[e]) - exact[e]);
        if (d > max_abs)
            max_abs = d;
        if (fabs(exact[e]) > max_ref)
            max_ref = fabs(exact[e]);
        if (d / ulp16(exact[e]) > max_ulp)
            max_ulp = d / ulp16(exact[e]);
        sum_sq_err += d * d;
        sum_sq += exact[e] * exact[e];
    }
    printf("error against %s: max |diff| %.4g = %.2f FP16 ULP of max |C| (%.4g)", what, max_abs,
           max_abs / ulp16(max_ref), max_ref);
    if (per_element_ulp)
        printf(", max %.2f ULP per element", max_ulp);
    printf(", relative RMS %.3g\n", sum_sq > 0 ? sqrt(sum_sq_err / sum_sq) : 0.0);
}

static int report(const char *pa, const char *pb, const char *pc)
{
    char err[KTPU_NPY_ERR_LEN];
    struct ktpu_npy a, b, c;
    if (ktpu_npy_read_f16(pa, &a, err) || ktpu_npy_read_f16(pb, &b, err) ||
        ktpu_npy_read_f16(pc, &c, err)) {
        fprintf(stderr, "ktpu-example: %s\n", err);
        return 1;
    }
    size_t m = a.shape[0], k = a.shape[1], n = b.shape[0];
    if (a.ndim != 2 || b.ndim != 2 || c.ndim != 2 || b.shape[1] != k || c.shape[0] != m ||
        c.shape[1] != n || k % 32u != 0) {
        fprintf(stderr, "ktpu-example: shapes do not form a GEMM\n");
        return 1;
    }
    int8_t *qa = malloc(m * k), *qb = malloc(n * k);
    uint8_t *sa = malloc(m * k / 32u + 1u), *sb = malloc(n * k / 32u + 1u);
    double *f64 = malloc(m * n * sizeof *f64), *mx = malloc(m * n * sizeof *mx);
    if (!qa || !qb || !sa || !sb || !f64 || !mx) {
        fprintf(stderr, "ktpu-example: out of memory\n");
        return 1;
    }
    (void)ktpu_ref_quant_matrix(a.data, m, k, qa, sa);
    (void)ktpu_ref_quant_matrix(b.data, n, k, qb, sb);
    printf("reference GEMM: M=%zu K=%zu N=%zu (%zu K-blocks per element, one cluster order)\n",
           m, k, n, k / 32u);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++) {
            double e64 = 0, emx = 0;
            for (size_t kk = 0; kk < k; kk++) {
                e64 += fp16_to_double(a.data[i * k + kk]) * fp16_to_double(b.data[j * k + kk]);
                emx += mx_value(qa[i * k + kk], sa[i * (k / 32u) + kk / 32u]) *
                       mx_value(qb[j * k + kk], sb[j * (k / 32u) + kk / 32u]);
            }
            f64[i * n + j] = e64;
            mx[i * n + j] = emx;
            if (i < 2 && j < 4)
                printf("  C[%zu][%zu] = 0x%04x = %-11.6g FP64 %-11.6g exact MXFP7 %-11.6g\n", i,
                       j, (unsigned)c.data[i * n + j], fp16_to_double(c.data[i * n + j]), e64,
                       emx);
        }
    print_error("FP64", f64, c.data, m * n, 0);
    print_error("the exact MXFP7 product", mx, c.data, m * n, 1);
    free(qa);
    free(qb);
    free(sa);
    free(sb);
    free(f64);
    free(mx);
    ktpu_npy_free(&a);
    ktpu_npy_free(&b);
    ktpu_npy_free(&c);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 7 && strcmp(argv[1], "gen") == 0)
        return gen(argv[2], strtoul(argv[3], NULL, 10), strtoul(argv[4], NULL, 10),
                   strtoul(argv[5], NULL, 10), strtoull(argv[6], NULL, 10));
    if (argc == 5 && strcmp(argv[1], "report") == 0)
        return report(argv[2], argv[3], argv[4]);
    fprintf(stderr, "usage: ktpu-example gen DIR M K N SEED | ktpu-example report A.npy BT.npy "
                    "C.npy\n");
    return 2;
}
