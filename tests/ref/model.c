#include "model.h"

#include <stdarg.h>
#include <stdio.h>

unsigned long model_checks, model_fails;

void model_check(int ok, const char *fmt, ...)
{
    model_checks++;
    if (ok)
        return;
    if (++model_fails <= 10) {
        va_list ap;
        va_start(ap, fmt);
        printf("FAIL: ");
        vprintf(fmt, ap);
        printf("\n");
        va_end(ap);
    }
}

int model_summary(const char *name)
{
    printf("%s: %lu checks, %lu failed\n", name, model_checks, model_fails);
    return model_fails ? 1 : 0;
}

static uint64_t rng_s = 1;

void model_seed(uint64_t s)
{
    rng_s = s * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull;
}

uint64_t model_rand64(void)
{
    /* splitmix64 */
    uint64_t z = (rng_s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint32_t model_rand(void)
{
    return (uint32_t)(model_rand64() >> 32);
}

/* ---- big integers -------------------------------------------------------- */

struct big big_shl(uint64_t v, int sh)
{
    struct big r = {{0}};
    /* place v bit by bit: slow and obviously right */
    for (int b = 0; b < 64; b++)
        if ((v >> b) & 1u) {
            int pos = b + sh;
            if (pos < 32 * BIG_LIMBS)
                r.w[pos / 32] |= (uint32_t)1 << (pos % 32);
            else
                fprintf(stderr, "model: big_shl overflow\n");
        }
    return r;
}

struct big big_add(struct big a, struct big b)
{
    struct big r;
    uint64_t carry = 0;
    for (int i = 0; i < BIG_LIMBS; i++) {
        uint64_t s = (uint64_t)a.w[i] + b.w[i] + carry;
        r.w[i] = (uint32_t)s;
        carry = s >> 32;
    }
    return r;
}

struct big big_sub(struct big a, struct big b)
{
    struct big r;
    uint64_t borrow = 0;
    for (int i = 0; i < BIG_LIMBS; i++) {
        uint64_t d = (uint64_t)a.w[i] - b.w[i] - borrow;
        r.w[i] = (uint32_t)d;
        borrow = (d >> 32) & 1u;
    }
    return r;
}

int big_cmp(struct big a, struct big b)
{
    for (int i = BIG_LIMBS - 1; i >= 0; i--)
        if (a.w[i] != b.w[i])
            return a.w[i] < b.w[i] ? -1 : 1;
    return 0;
}

int big_is_zero(struct big a)
{
    for (int i = 0; i < BIG_LIMBS; i++)
        if (a.w[i])
            return 0;
    return 1;
}

/* ---- exact values ------------------------------------------------------- */

struct sval model_fp22_value(uint32_t x)
{
    struct sval v;
    unsigned e = (x >> 14) & 127u, f = x & 0x3FFFu;
    v.neg = (x >> 21) & 1u;
    if (e == 0) {
        v.neg = 0;
        v.mag = big_shl(0, 0);
        return v;
    }
    /* (2^14 + f) x 2^(e - 63 - 14), in units of 2^-78 */
    v.mag = big_shl(16384u + f, (int)e - 77 + MODEL_UNIT_EXP);
    return v;
}

struct sval model_contribution(int32_t p, uint8_t sa, uint8_t sb)
{
    struct sval v;
    uint64_t ap = p < 0 ? (uint64_t)(-(int64_t)p) : (uint64_t)p;
    unsigned ea = sa >> 3, ma = sa & 7u, eb = sb >> 3, mb = sb & 7u;
    v.neg = p < 0;
    v.mag = big_shl(ap * (8u + ma) * (8u + mb), (int)(ea + eb) - 46 + MODEL_UNIT_EXP);
    return v;
}

struct sval model_sadd(struct sval a, struct sval b)
{
    struct sval r;
    if (a.neg == b.neg) {
        r.neg = a.neg;
        r.mag = big_add(a.mag, b.mag);
    } else if (big_cmp(a.mag, b.mag) >= 0) {
        r.neg = a.neg;
        r.mag = big_sub(a.mag, b.mag);
    } else {
        r.neg = b.neg;
        r.mag = big_sub(b.mag, a.mag);
    }
    if (big_is_zero(r.mag))
        r.neg = 0;
    return r;
}

/* value of a positive FP22 pattern (exp field >= 1) in units of 2^-78 */
static struct big fp22_pos(uint32_t pat)
{
    return model_fp22_value(pat & 0x1FFFFFu).mag;
}

unsigned long model_r22_ties;

uint32_t model_r22(struct sval x, unsigned *flags)
{
    const uint32_t max_pat = 0x1FFFFFu;
    if (big_is_zero(x.mag))
        return 0;
    /* rounded magnitude above (2 - 2^-14) 2^64 <=> |x| >= max + half an ulp
     * of max, (2^15 - 1) 2^128 + 2^127 units (the tie goes up: max is odd) */
    struct big sat = big_add(big_shl(32767u, 128), big_shl(1, 127));
    if (big_cmp(x.mag, sat) >= 0) {
        *flags |= 1u; /* ACC_OVERFLOW */
        return (x.neg ? 0x200000u : 0u) | max_pat;
    }
    /* rounded magnitude below 2^-62 <=> |x| < 2^-62 - 2^-78 (half an ulp of
     * the binade below; the tie rounds to 2^-62, which is even) */
    struct big uf = big_sub(big_shl(1, 16), big_shl(1, 0));
    if (big_cmp(x.mag, uf) < 0) {
        *flags |= 2u; /* ACC_UNDERFLOW */
        return 0;
    }
    uint32_t r;
    if (big_cmp(x.mag, big_shl(1, 16)) < 0) {
        r = 0x4000u; /* between the threshold and 2^-62: rounds up to 2^-62 */
    } else {
        /* largest positive pattern with value <= |x| */
        uint32_t lo = 0x4000u, hi = max_pat;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo + 1u) / 2u;
            if (big_cmp(fp22_pos(mid), x.mag) <= 0)
                lo = mid;
            else
                hi = mid - 1u;
        }
        struct big below = fp22_pos(lo);
        struct big above = lo == max_pat ? big_shl(1, 143) : fp22_pos(lo + 1u);
        struct big twice = big_add(x.mag, x.mag), mids = big_add(below, above);
        int c = big_cmp(twice, mids);
        model_r22_ties += c == 0;
        r = (c < 0 || (c == 0 && (lo & 1u) == 0)) ? lo : lo + 1u;
        if (r > max_pat) { /* excluded by the threshold above */
            fprintf(stderr, "model_r22: inconsistent saturation\n");
            r = max_pat;
        }
    }
    return (x.neg ? 0x200000u : 0u) | r;
}

/* value of a positive FP16 pattern (<= 0x7C00, 0x7C00 standing for 2^16) in
 * units of 2^-40 */
static uint64_t fp16_pos_u40(uint32_t h)
{
    uint32_t e = h >> 10, f = h & 0x3FFu;
    if (e == 0)
        return (uint64_t)f << 16; /* f x 2^-24 */
    return (uint64_t)(1024u + f) << (e + 15u); /* (1024+f) 2^(e-25) */
}

uint16_t model_r16(uint32_t fp22, unsigned *flags)
{
    unsigned e = (fp22 >> 14) & 127u, f = fp22 & 0x3FFFu, neg = (fp22 >> 21) & 1u;
    uint32_t r;
    if (e == 0)
        return 0;
    if (e < 37) {
        r = 0; /* |x| < 2^-26: below half the smallest subnormal */
    } else if (e > 79) {
        r = 0x7C00u; /* |x| >= 2^17: rounds above 65504 */
    } else {
        uint64_t x = (uint64_t)(16384u + f) << (e - 37u); /* units of 2^-40 */
        if (x >= fp16_pos_u40(0x7C00u)) { /* 2^16 or more */
            *flags |= 4u;
            return (uint16_t)((neg ? 0x8000u : 0u) | 0x7BFFu);
        }
        uint32_t lo = 0, hi = 0x7BFFu;
        while (lo < hi) {
            uint32_t mid = lo + (hi - lo + 1u) / 2u;
            if (fp16_pos_u40(mid) <= x)
                lo = mid;
            else
                hi = mid - 1u;
        }
        uint64_t below = fp16_pos_u40(lo), above = fp16_pos_u40(lo + 1u);
        /* 2x vs below + above, compared without overflow */
        uint64_t d1 = x - below, d2 = above - x;
        r = (d1 < d2 || (d1 == d2 && (lo & 1u) == 0)) ? lo : lo + 1u;
    }
    if (r > 0x7BFFu) {
        *flags |= 4u; /* FP16_OVERFLOW */
        r = 0x7BFFu;
    }
    if (r == 0)
        return 0;
    return (uint16_t)((neg ? 0x8000u : 0u) | r);
}

/* FP16 magnitude and a scale, both in units of 2^-25 (integers: the
 * smallest FP16 step is 2^-24, the smallest scale step 2^-23). */
static uint64_t fp16_mag_u25(uint16_t x)
{
    uint32_t e = (x >> 10) & 31u, f = x & 0x3FFu;
    return e ? (uint64_t)(1024u + f) << e : (uint64_t)f << 1;
}

static uint64_t scale_u25(uint8_t s)
{
    return (uint64_t)(8u + (s & 7u)) << ((s >> 3) + 2u); /* (8+M) 2^(E-23) */
}

uint8_t model_scale_search(uint16_t peak)
{
    uint64_t pk = fp16_mag_u25((uint16_t)(peak & 0x7FFFu));
    if (pk == 0)
        return 0xA0u;
    int best = -1;
    for (int s = 0; s < 256; s++)
        if (63u * scale_u25((uint8_t)s) >= pk &&
            (best < 0 || scale_u25((uint8_t)s) < scale_u25((uint8_t)best)))
            best = s;
    return (uint8_t)best;
}

int model_quant_elem(uint16_t x, uint8_t s)
{
    uint64_t mag = fp16_mag_u25(x), sc = scale_u25(s);
    /* the q in 0..64 nearest to mag / sc: |2 mag - 2 q sc| against sc */
    int best = 0;
    for (int q = 1; q <= 64; q++) {
        uint64_t qs = (uint64_t)q * sc, bs = (uint64_t)best * sc;
        uint64_t dq = mag > qs ? mag - qs : qs - mag;
        uint64_t db = mag > bs ? mag - bs : bs - mag;
        if (dq < db || (dq == db && (q % 2) == 0))
            best = q;
    }
    return (x & 0x8000u) ? -best : best;
}
