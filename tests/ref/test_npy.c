/* The .npy reader's data paths (SPEC §2): float32 and float64 rounded to
 * FP16 to nearest, ties to even, against an independent model (the nearest
 * of all finite FP16 values, found by comparing with the exact midpoints
 * between neighbours); overflow and non-finite values refused by name; both
 * byte orders; Fortran order transposed. In-memory files through
 * ktpu_npy_parse_f16. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktpu_npy.h"

static long checks, fails;
#define CHECK(c, ...)                                    \
    do {                                                 \
        checks++;                                        \
        if (!(c)) {                                      \
            if (fails++ < 12) {                          \
                printf("FAIL: ");                        \
                printf(__VA_ARGS__);                     \
                printf("\n");                            \
            }                                            \
        }                                                \
    } while (0)

/* the model: value of FP16 bits, and the nearest FP16 to x (ties to even) */
static double f16_value(unsigned h)
{
    unsigned e = (h >> 10) & 31u, m = h & 1023u;
    double v = e ? ldexp(1024.0 + m, (int)e - 25) : ldexp(m, -24);
    return h & 0x8000u ? -v : v;
}
/* -1 when |x| rounds past 65504 (x finite) */
static int model_f16(double x, unsigned *h)
{
    unsigned sign = signbit(x) ? 0x8000u : 0u;
    double a = fabs(x);
    unsigned lo = 0, hi = 0x7BFFu;   /* the finite magnitudes, in order */
    if (a >= 65520.0) return -1;     /* 65504 + half its quantum (16) */
    if (a >= 65504.0) {
        *h = sign | 0x7BFFu;
        return 0;
    }
    while (hi - lo > 1) {            /* f16_value(lo) <= a < f16_value(hi) */
        unsigned mid = (lo + hi) / 2;
        if (f16_value(mid) <= a) lo = mid; else hi = mid;
    }
    double mp = (f16_value(lo) + f16_value(hi)) / 2;   /* exact: 12 significant bits */
    unsigned r = a < mp ? lo : a > mp ? hi : (lo & 1u) ? hi : lo;
    if (f16_value(lo) == a) r = lo;
    *h = sign | r;
    return 0;
}

/* an in-memory .npy: header for descr/fortran/shape, then the raw data */
static size_t make(uint8_t *buf, const char *descr, int fortran, size_t rows, size_t cols, const void *data,
                   size_t bytes)
{
    char dict[128];
    int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': (%zu, %zu), }", descr,
                     fortran ? "True" : "False", rows, cols);
    size_t total = (10 + (size_t)n + 1 + 63) / 64 * 64, hl = total - 10;
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (uint8_t)(hl & 255u);
    buf[9] = (uint8_t)(hl >> 8);
    memset(buf + 10, ' ', hl);
    memcpy(buf + 10, dict, (size_t)n);
    buf[total - 1] = '\n';
    memcpy(buf + total, data, bytes);
    return total + bytes;
}

static void put(uint8_t *d, uint64_t x, unsigned esz, int be)
{
    for (unsigned b = 0; b < esz; b++) d[be ? esz - 1 - b : b] = (uint8_t)(x >> (8 * b));
}

static uint32_t rng = 0x9E3779B9u;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

#define N 4096
static uint8_t file[64 + 8 * N + 256];
static uint8_t data[8 * N];

/* N values of one width through the reader, each against the model */
static void batch(const char *what, const double *v, unsigned esz, int be)
{
    char descr[8], err[KTPU_NPY_ERR_LEN];
    snprintf(descr, sizeof descr, "%cf%u", be ? '>' : '<', esz);
    for (unsigned i = 0; i < N; i++) {
        uint64_t x;
        if (esz == 8) {
            memcpy(&x, &v[i], 8);
        } else {
            float f = (float)v[i];
            uint32_t u;
            memcpy(&u, &f, 4);
            x = u;
        }
        put(data + esz * i, x, esz, be);
    }
    size_t len = make(file, descr, 0, 1, N, data, esz * N);
    struct ktpu_npy a;
    int r = ktpu_npy_parse_f16("t.npy", file, len, &a, err);
    CHECK(r == 0, "%s %s: refused: %s", what, descr, err);
    if (r) return;
    for (unsigned i = 0; i < N; i++) {
        double x = esz == 8 ? v[i] : (double)(float)v[i];
        unsigned want = 0x10000u;
        CHECK(model_f16(x, &want) == 0, "%s: %.17g outside the model's range", what, x);
        CHECK(a.data[i] == want, "%s %s: %.17g -> 0x%04x, model 0x%04x", what, descr, x, a.data[i], want);
    }
    ktpu_npy_free(&a);
}

/* element 2 of a 2 x 2 matrix, named by its [row, col] */
static void refused(const char *what, unsigned esz, uint64_t x, const char *want)
{
    char descr[8], err[KTPU_NPY_ERR_LEN];
    snprintf(descr, sizeof descr, "<f%u", esz);
    memset(data, 0, 4 * esz);
    put(data + 2 * esz, x, esz, 0);
    size_t len = make(file, descr, 0, 2, 2, data, 4 * esz);
    struct ktpu_npy a;
    int r = ktpu_npy_parse_f16("t.npy", file, len, &a, err);
    CHECK(r != 0 && strstr(err, want) && strstr(err, "element [1, 0]"), "%s: %s", what, r ? err : "accepted");
    if (!r) ktpu_npy_free(&a);
}

int main(void)
{
    static double v[N];
    /* every FP16 value, the midpoints beside it and a float32 step either
     * side of them: ties and near-ties, subnormals, the overflow edge */
    for (unsigned pass = 0; pass < 17; pass++) {
        for (unsigned i = 0; i < N; i++) {
            unsigned h = (pass * N + i) % 0x7BFFu, s = i & 1u;   /* h + 1 finite */
            double lo = f16_value(h), hi = f16_value(h + 1u), mid = (lo + hi) / 2, x;
            switch (pass % 4) {
            case 0: x = lo; break;
            case 1: x = mid; break;
            case 2: x = nextafterf((float)mid, 0.0f); break;
            default: x = nextafterf((float)mid, 1e9f); break;
            }
            v[i] = s ? -x : x;
        }
        batch("FP16 grid", v, 4, pass & 1);
        batch("FP16 grid", v, 8, !(pass & 1));
    }
    /* random finite float32 and float64 below the overflow edge */
    for (unsigned pass = 0; pass < 8; pass++) {
        for (unsigned i = 0; i < N; i++) {
            double x = ldexp((double)rnd() / 4294967296.0 + (double)rnd() / 1.8446744073709552e19,
                             (int)(rnd() % 44) - 28);
            v[i] = rnd() & 1u ? -x : x;
        }
        batch("random", v, 4, pass & 1);
        batch("random", v, 8, pass & 1);
    }
    /* float64 exactly half an FP16 quantum above a value, and a hair more:
     * a double rounding through float32 would get the second one wrong */
    for (unsigned i = 0; i < N; i++) {
        double lo = f16_value(i), hi = f16_value(i + 1u);
        v[i] = (lo + hi) / 2 + (i & 1u ? ldexp(1.0, -40) * lo : 0.0);
    }
    batch("float64 near ties", v, 8, 0);

    refused("float32 65520", 4, 0x477FF000u, "overflows FP16");
    refused("float64 1e300", 8, 0x7E37E43C8800759Cull, "overflows FP16");
    refused("float32 Inf", 4, 0x7F800000u, "is not finite");
    refused("float32 NaN", 4, 0x7FC00000u, "is not finite");
    refused("float64 -Inf", 8, 0xFFF0000000000000ull, "is not finite");
    refused("float64 NaN", 8, 0x7FF8000000000001ull, "is not finite");

    /* FP16 big-endian, and Fortran order: the C-order array they describe */
    {
        uint16_t c[3 * 5];
        uint8_t be16[2 * 15], fo[2 * 15];
        char err[KTPU_NPY_ERR_LEN];
        struct ktpu_npy a;
        for (unsigned i = 0; i < 15; i++) c[i] = (uint16_t)(0x3C00u + i);
        for (unsigned i = 0; i < 15; i++) put(be16 + 2 * i, c[i], 2, 1);
        for (unsigned r = 0; r < 3; r++)
            for (unsigned k = 0; k < 5; k++) put(fo + 2 * (k * 3 + r), c[r * 5 + k], 2, 0);
        size_t len = make(file, ">f2", 0, 3, 5, be16, sizeof be16);
        int rr = ktpu_npy_parse_f16("be.npy", file, len, &a, err);
        CHECK(rr == 0 && a.count == 15 && !memcmp(a.data, c, sizeof c), "'>f2': %s", rr ? err : "wrong data");
        if (!rr) ktpu_npy_free(&a);
        len = make(file, "<f2", 1, 3, 5, fo, sizeof fo);
        rr = ktpu_npy_parse_f16("fo.npy", file, len, &a, err);
        CHECK(rr == 0 && a.ndim == 2 && a.shape[0] == 3 && a.shape[1] == 5 && !memcmp(a.data, c, sizeof c),
              "Fortran order: %s", rr ? err : "not the transpose");
        if (!rr) ktpu_npy_free(&a);
    }
    printf("npy: %ld checks, %ld failed\n", checks, fails);
    return fails != 0;
}
