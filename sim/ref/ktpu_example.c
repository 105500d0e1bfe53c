/* ktpu-example: the `make run` demo of the reference until the co-simulator
 * takes over.
 *   ktpu-example gen DIR M K N SEED      writes DIR/A.npy (M x K), DIR/BT.npy
 *                                        (N x K), FP16 from a fixed-seed PRNG
 *   ktpu-example report A.npy BT.npy C.npy
 *                                        shape, a few elements, and the error
 *                                        of C against the FP64 product and the
 *                                        exact product of the MXFP7 operands
 * M, K, N are decimal numbers 1..65536, SEED 0..2^64-1 (ktpu_arg.h); the
 * files are written through ktpu_out.h (regular files only).
 * The generator builds FP16 bit patterns directly (no float conversion).
 * The report uses host doubles (built with -ffp-contract=off): it is a
 * report, not a check. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktpu_arg.h"
#include "ktpu_err.h"
#include "ktpu_npy.h"
#include "ktpu_ref.h"
#include "ktpu_rng.h"

static struct ktpu_rng rng_state;
static uint32_t rng(void) { return ktpu_rng_next(&rng_state); }

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

static int gen(const char *dir, size_t m, size_t k, size_t n, uint64_t seed)
{
    char path[4096], err[KTPU_NPY_ERR_LEN];
    uint16_t *a = malloc(m * k * 2u), *bt = malloc(n * k * 2u);
    if (!a || !bt) {
        fprintf(stderr, "ktpu-example: out of memory\n");
        return 1;
    }
    ktpu_rng_seed(&rng_state, seed);
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
    int rc = !qa || !qb || !sa || !sb;
    if (!rc) {
        (void)ktpu_ref_quant_matrix(a.data, m, k, qa, sa);
        (void)ktpu_ref_quant_matrix(b.data, n, k, qb, sb);
        printf("reference GEMM: M=%zu K=%zu N=%zu (%zu K-blocks per element, one cluster order)\n",
               m, k, n, k / 32u);
        rc = ktpu_err_report(stdout, m, n, k, a.data, k, b.data, k, qa, sa, qb, sb, c.data, n, 8);
    }
    if (rc)
        fprintf(stderr, "ktpu-example: out of memory\n");
    free(qa);
    free(qb);
    free(sa);
    free(sb);
    ktpu_npy_free(&a);
    ktpu_npy_free(&b);
    ktpu_npy_free(&c);
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc == 7 && strcmp(argv[1], "gen") == 0) {
        static const char *const names[4] = {"M", "K", "N", "SEED"};
        uint64_t v[4];
        char err[KTPU_ARG_ERR_LEN];
        int bad = ktpu_arg_file("gen: DIR", argv[2], err);
        for (int i = 0; i < 4 && !bad; i++)
            bad = ktpu_arg_u64(names[i], argv[3 + i], i < 3 ? 1 : 0, i < 3 ? 65536 : UINT64_MAX,
                               &v[i], err);
        if (bad) {
            fprintf(stderr, "ktpu-example: %s\n", err);
            return 2;
        }
        return gen(argv[2], (size_t)v[0], (size_t)v[1], (size_t)v[2], v[3]);
    }
    if (argc == 5 && strcmp(argv[1], "report") == 0) {
        char err[KTPU_ARG_ERR_LEN];
        for (int i = 2; i < 5; i++)
            if (ktpu_arg_file("report", argv[i], err) != 0) {
                fprintf(stderr, "ktpu-example: %s\n", err);
                return 2;
            }
        return report(argv[2], argv[3], argv[4]);
    }
    fprintf(stderr, "usage: ktpu-example gen DIR M K N SEED | ktpu-example report A.npy BT.npy "
                    "C.npy\n");
    return 2;
}
