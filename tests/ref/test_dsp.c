/* The packed DSP product and its extraction (seed §2, §3) against plain
 * products: every (w1, w0, a) triple, then whole 32-deep chains including
 * w = -64 everywhere, negative lower fields on every stage, and full scale
 * sums, and hand-computed 48-bit words. */
#include <stdio.h>

#include "ktpu_ref.h"
#include "model.h"

static unsigned long n_neg_lower;

/* the exact 48-bit word a chain of (w1, w0, a) leaves, reduced by hand */
static void check_chain(const int8_t *w1, const int8_t *w0, const int8_t *a, const char *what)
{
    int32_t s1 = 0, s0 = 0;
    for (int k = 0; k < 32; k++) {
        s1 += w1[k] * a[k];
        s0 += w0[k] * a[k];
    }
    int32_t p0, p1;
    ktpu_ref_block_dot_packed(w0, w1, a, &p0, &p1);
    n_neg_lower += s0 < 0;
    model_check(p0 == s0 && p1 == s1, "%s: packed chain gives (%ld, %ld), plain (%ld, %ld)", what,
                (long)p0, (long)p1, (long)s0, (long)s1);
    model_check(ktpu_ref_block_dot(w0, a) == s0 && ktpu_ref_block_dot(w1, a) == s1,
                "%s: block_dot differs from the plain sum", what);
}

static int8_t r7(void)
{
    return (int8_t)((int)(model_rand() % 128u) - 64);
}

int main(void)
{
    model_seed(48);
    /* one mx_mac, every operand triple */
    for (int w1 = -64; w1 <= 63; w1++)
        for (int w0 = -64; w0 <= 63; w0++)
            for (int a = -64; a <= 63; a++) {
                int64_t p = ktpu_ref_dsp_packed(w1, w0, a);
                int64_t want = (int64_t)(w1 * a) * 524288 + (int64_t)(w0 * a);
                int32_t lo, hi;
                ktpu_ref_extract(p, &lo, &hi);
                model_check(p == want && lo == w0 * a && hi == w1 * a,
                            "mx_mac w1=%d w0=%d a=%d: P=%lld (%ld, %ld)", w1, w0, a,
                            (long long)p, (long)lo, (long)hi);
            }
    int8_t w1[32], w0[32], a[32];
    /* w = a = -64 everywhere: both fields +131072, all guard bits */
    for (int k = 0; k < 32; k++)
        w1[k] = w0[k] = a[k] = -64;
    check_chain(w1, w0, a, "all -64");
    /* the most negative sums: -64 x 63 x 32 = -129024 in either field */
    for (int k = 0; k < 32; k++) {
        w1[k] = w0[k] = -64;
        a[k] = 63;
    }
    check_chain(w1, w0, a, "all -64 x 63");
    for (int k = 0; k < 32; k++)
        w1[k] = 63;
    check_chain(w1, w0, a, "upper +, lower -");
    for (int k = 0; k < 32; k++) {
        w1[k] = -64;
        w0[k] = 63;
    }
    check_chain(w1, w0, a, "upper -, lower +");
    /* random chains; then the lower field forced negative at every stage
     * (w0 opposite in sign to a), with random upper weights */
    for (int i = 0; i < 200000; i++) {
        int mode = i % 3;
        for (int k = 0; k < 32; k++) {
            a[k] = r7();
            w1[k] = r7();
            w0[k] = r7();
            if (mode == 1) {
                if (a[k] == 0)
                    a[k] = 1;
                w0[k] = (int8_t)(a[k] > 0 ? -1 - (int)(model_rand() % 64u)
                                          : 1 + (int)(model_rand() % 63u));
            } else if (mode == 2) {
                w0[k] = (int8_t)(model_rand() & 1u ? -64 : 63);
                a[k] = (int8_t)(model_rand() & 1u ? -64 : 63);
                w1[k] = (int8_t)(model_rand() & 1u ? -64 : 63);
            }
        }
        check_chain(w1, w0, a, mode == 1 ? "negative lower" : mode == 2 ? "extremes" : "random");
    }
    /* hand-computed words */
    static const struct {
        int64_t p;
        int32_t lo, hi;
    } words[] = {
        {-1, -1, 0},                                  /* all ones: borrow undone */
        {(int64_t)1 << 18, -262144, 1},               /* lower sign bit only */
        {((int64_t)1 << 19) - 1, -1, 1},              /* 0x7FFFF */
        {(int64_t)1 << 19, 0, 1},                     /* one in the upper field */
        {-((int64_t)1 << 47), 0, -268435456},         /* most negative word */
        {((int64_t)1 << 47) - 1, -1, 268435456},      /* most positive: +P[18] */
        {(int64_t)131072 * 524288 + 131072, 131072, 131072},
        {(int64_t)-129024 * 524288 - 129024, -129024, -129024},
        {(int64_t)((uint64_t)0xABCD << 48) | 5, 5, 0}, /* bits above 47 ignored */
    };
    for (unsigned i = 0; i < sizeof words / sizeof words[0]; i++) {
        int32_t lo, hi;
        ktpu_ref_extract(words[i].p, &lo, &hi);
        model_check(lo == words[i].lo && hi == words[i].hi,
                    "extract(0x%012llx) = (%ld, %ld), want (%ld, %ld)",
                    (unsigned long long)words[i].p & 0xFFFFFFFFFFFFull, (long)lo, (long)hi,
                    (long)words[i].lo, (long)words[i].hi);
    }
    /* the 48-bit wrap of a chain input */
    model_check(ktpu_ref_wrap48((int64_t)1 << 47) == -((int64_t)1 << 47) &&
                    ktpu_ref_wrap48(-((int64_t)1 << 47) - 1) == ((int64_t)1 << 47) - 1 &&
                    ktpu_ref_wrap48(-5) == -5,
                "wrap48");
    printf("mx_mac triples 2097152, chains 200004 (%lu with a negative lower sum)\n",
           n_neg_lower);
    return model_summary("ref_dsp");
}
