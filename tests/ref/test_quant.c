/* The quantiser (SPEC §3.2): the scale choice for every non-negative FP16
 * peak pattern against a search over all 256 scale bytes; every element
 * value under the extreme peaks of every reachable scale; exact ties;
 * non-finite blocks; random blocks. */
#include <stdio.h>
#include <string.h>

#include "ktpu_ref.h"
#include "model.h"

/* n x 2^k as FP16, for 0 < n < 2048 and a result in the normal or
 * subnormal range (exact: the caller keeps n within 11 bits) */
static uint16_t enc16(uint32_t n, int k)
{
    while (n < 1024u && k + 25 > 1) { /* normalise up while staying >= 2^-14 */
        n <<= 1;
        k--;
    }
    while (n >= 2048u) {
        if (n & 1u)
            return 0xFFFFu; /* not representable: caller error */
        n >>= 1;
        k++;
    }
    if (n < 1024u) /* subnormal: exact only at the fixed quantum 2^-24 */
        return k == -24 ? (uint16_t)n : 0xFFFFu;
    return (uint16_t)(((uint32_t)(k + 25) << 10) | (n - 1024u));
}

static unsigned long n_elems, n_ties;

/* quantise a block whose peak is `peak` (at position pos) and check every
 * element and the scale against the model */
static void check_block(uint16_t *x, const char *what)
{
    int8_t q[32];
    uint8_t s = 0x55;
    uint16_t peak = 0;
    for (int k = 0; k < 32; k++)
        if ((x[k] & 0x7FFFu) > peak)
            peak = x[k] & 0x7FFFu;
    unsigned fl = ktpu_ref_quant_block(x, q, &s);
    uint8_t ms = model_scale_search(peak);
    model_check(fl == 0 && s == ms, "%s: peak 0x%04x scale 0x%02x flags %u, model 0x%02x", what,
                peak, s, fl, ms);
    for (int k = 0; k < 32; k++) {
        int mq = model_quant_elem(x[k], ms);
        n_elems++;
        model_check(q[k] == mq && q[k] >= -63 && q[k] <= 63,
                    "%s: x=0x%04x scale 0x%02x q=%d, model %d", what, x[k], ms, q[k], mq);
    }
}

int main(void)
{
    model_seed(7);
    /* 1. every non-negative finite peak, alone and with its negative */
    uint16_t lo_peak[256], hi_peak[256];
    int seen[256] = {0};
    for (uint32_t p = 0; p < 0x7C00u; p++) {
        uint8_t ms = model_scale_search((uint16_t)p);
        uint8_t s = ktpu_ref_scale_for_peak((uint16_t)p);
        uint8_t sn = ktpu_ref_scale_for_peak((uint16_t)(p | 0x8000u));
        model_check(s == ms && sn == ms, "scale(0x%04x) = 0x%02x (neg 0x%02x), search 0x%02x",
                    p, s, sn, ms);
        if (!seen[ms])
            lo_peak[ms] = (uint16_t)p;
        hi_peak[ms] = (uint16_t)p;
        seen[ms] = 1;
    }
    int nscales = 0;
    for (int s = 0; s < 256; s++)
        nscales += seen[s];
    printf("scale choice: 31744 peaks (and their negatives), %d distinct scales\n", nscales);

    /* 2. for the smallest and largest peak of every reachable scale, every
     * FP16 magnitude up to the peak, both signs, 31 to a block */
    for (int s = 0; s < 256; s++) {
        if (!seen[s])
            continue;
        for (int which = 0; which < 2; which++) {
            uint16_t pk = which ? hi_peak[s] : lo_peak[s];
            uint16_t x[32];
            int n = 1;
            x[0] = pk;
            for (uint32_t v = 0; v <= pk; v++) {
                x[n++] = (uint16_t)(v | ((v & 1u) ? 0x8000u : 0u));
                if (n == 32 || v == pk) {
                    while (n < 32)
                        x[n++] = 0;
                    check_block(x, "sweep");
                    n = 1;
                }
            }
        }
    }
    printf("element sweep: %lu elements under the extreme peaks of every scale\n", n_elems);

    /* 3. exact ties: x = (2k+1)/2 x scale for k = 0..62 must give the even
     * neighbour, under a peak of exactly 63 x scale */
    for (int s = 0; s < 256; s++) {
        unsigned e = (unsigned)s >> 3, m = (unsigned)s & 7u;
        if (e > 26u)
            continue; /* 63 x scale above 65504 */
        uint16_t pk = enc16(63u * (8u + m), (int)e - 23);
        if (pk == 0xFFFFu || model_scale_search(pk) != s)
            continue;
        for (unsigned k = 0; k < 63; k++) {
            uint16_t x[32] = {0};
            x[0] = pk;
            x[1] = enc16((2u * k + 1u) * (8u + m), (int)e - 24);
            x[2] = (uint16_t)(x[1] | 0x8000u);
            int8_t q[32];
            uint8_t sc;
            (void)ktpu_ref_quant_block(x, q, &sc);
            int want = (int)(k % 2u ? k + 1u : k);
            n_ties++;
            model_check(x[1] != 0xFFFFu && sc == s && q[1] == want && q[2] == -want,
                        "tie (2k+1)/2 k=%u scale 0x%02x x=0x%04x: q=%d/%d, want %d", k, s, x[1],
                        q[1], q[2], want);
            model_check(model_quant_elem(x[1], (uint8_t)s) == want, "model tie k=%u s=0x%02x", k,
                        s);
        }
    }
    printf("ties: %lu half-way elements (q = k + 1/2 to the even k)\n", n_ties);

    /* 4. non-finite: Inf/NaN of either sign at every position */
    static const uint16_t bad[] = {0x7C00, 0xFC00, 0x7E00, 0x7C01, 0xFFFF, 0x7FFF, 0xFE00};
    for (unsigned b = 0; b < sizeof bad / sizeof bad[0]; b++)
        for (int pos = 0; pos < 32; pos++) {
            uint16_t x[32];
            int8_t q[32];
            uint8_t s = 0x55;
            for (int k = 0; k < 32; k++)
                x[k] = (uint16_t)(model_rand() % 0x7C00u);
            x[pos] = bad[b];
            memset(q, 0x55, sizeof q);
            unsigned fl = ktpu_ref_quant_block(x, q, &s);
            int zero = 1;
            for (int k = 0; k < 32; k++)
                zero &= q[k] == 0;
            model_check(fl == KTPU_FLAG_NONFINITE && s == 0xA0 && zero,
                        "non-finite 0x%04x at %d: flags %u scale 0x%02x", bad[b], pos, fl, s);
        }

    /* 5. random blocks: uniform patterns, one binade, wide dynamic range,
     * all zero / negative zero */
    for (int i = 0; i < 20000; i++) {
        uint16_t x[32];
        uint32_t kind = model_rand() % 4u, base = model_rand() % 30u;
        for (int k = 0; k < 32; k++) {
            uint32_t r = model_rand();
            uint32_t mag = kind == 0 ? r % 0x7C00u
                         : kind == 1 ? ((base << 10) | (r & 0x3FFu))
                         : kind == 2 ? (r % 0x7C00u) >> ((r >> 20) % 15u)
                                     : 0u;
            x[k] = (uint16_t)(mag | ((r >> 31) << 15));
        }
        check_block(x, "random");
    }
    return model_summary("ref_quant");
}
