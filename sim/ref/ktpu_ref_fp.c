/* The floating-point half of the datapath (SPEC §3.3-§3.5), SoftFloat
 * style: every value is an integer significand times a power of two, every
 * rounding is an explicit shift with a remainder, and each format has one
 * round-and-pack routine. No host floating point anywhere. */
#include "ktpu_ref.h"

#define FP22_HIDDEN ((uint32_t)1 << KTPU_FP22_FRAC_BITS)        /* 2^14 */
#define FP22_EMAX ((1 << KTPU_FP22_EXP_BITS) - 1)               /* 127 */
#define FP22_SIGN_BIT ((uint32_t)1 << KTPU_FP22_SIGN_LSB)
#define FP22_MAX_MAG (((uint32_t)FP22_EMAX << KTPU_FP22_EXP_LSB) | KTPU_FP22_FRAC_MASK)

/* Index of the most significant set bit of a non-zero x. */
static int msb64(uint64_t x)
{
    int b = 0;
    while (x >> 1) {
        x >>= 1;
        b++;
    }
    return b;
}

/* mag >> sh rounded to nearest, ties to even; sh <= 0 shifts left (the
 * caller guarantees it fits). The remainder decides: above half rounds up,
 * exactly half rounds to the even neighbour, below half truncates. */
static uint64_t shift_rne(uint64_t mag, int sh)
{
    if (sh <= 0)
        return mag << -sh;
    if (sh > 64)
        return 0; /* mag < 2^64 <= half of 2^sh: below half */
    uint64_t kept = sh == 64 ? 0 : mag >> sh;
    uint64_t rem = sh == 64 ? mag : mag & ((((uint64_t)1) << sh) - 1u);
    uint64_t half = (uint64_t)1 << (sh - 1);
    if (rem > half || (rem == half && (kept & 1u)))
        kept++;
    return kept;
}

void ktpu_ref_scale_product(int32_t p, uint8_t sa, uint8_t sb, int64_t *mant, int *exp2)
{
    int32_t ma = 8 + (int32_t)(sa & KTPU_MX_SCALE_M_MASK);
    int32_t mb = 8 + (int32_t)(sb & KTPU_MX_SCALE_M_MASK);
    int ea = (int)((sa & KTPU_MX_SCALE_E_MASK) >> KTPU_MX_SCALE_E_LSB);
    int eb = (int)((sb & KTPU_MX_SCALE_E_MASK) >> KTPU_MX_SCALE_E_LSB);
    *mant = (int64_t)p * (int64_t)(ma * mb);
    *exp2 = ea + eb - (int)KTPU_BLOCK_EXP_OFFSET;
}

uint32_t ktpu_ref_r22_pack(int neg, uint64_t mag, int exp2, unsigned *flags)
{
    unsigned fl = 0;
    uint32_t out;
    if (mag == 0)
        return 0;
    /* Round to 15 significant bits with an unbounded exponent first; the
     * range checks apply to the rounded magnitude (SPEC §3.4). */
    int b = msb64(mag);
    int sh = b - KTPU_FP22_FRAC_BITS;
    uint64_t sig = shift_rne(mag, sh);
    int e = b + exp2; /* value in [2^e, 2^(e+1)) before rounding */
    if (sig >> (KTPU_FP22_FRAC_BITS + 1)) { /* rounded up to 2^15: carry */
        sig >>= 1;
        e++;
    }
    int biased = e + KTPU_FP22_BIAS;
    if (biased > FP22_EMAX) {
        fl = KTPU_FLAG_ACC_OVERFLOW;
        out = FP22_MAX_MAG | (neg ? FP22_SIGN_BIT : 0u);
    } else if (biased < 1) {
        fl = KTPU_FLAG_ACC_UNDERFLOW;
        out = 0;
    } else {
        out = (neg ? FP22_SIGN_BIT : 0u) | ((uint32_t)biased << KTPU_FP22_EXP_LSB) |
              ((uint32_t)sig & KTPU_FP22_FRAC_MASK);
    }
    if (flags)
        *flags |= fl;
    return out;
}

/* A signed exact operand: (-1)^neg x mag x 2^exp, mag < 2^40 (an FP22
 * significand, or P x (8+MA)(8+MB) for any int32 P). */
struct exact {
    int neg;
    uint64_t mag;
    int exp;
};

static struct exact contribution(int32_t p, uint8_t sa, uint8_t sb)
{
    struct exact x;
    int64_t mant;
    ktpu_ref_scale_product(p, sa, sb, &mant, &x.exp);
    x.neg = mant < 0;
    x.mag = (uint64_t)(mant < 0 ? -mant : mant);
    return x;
}

static struct exact fp22_decode(uint32_t t)
{
    struct exact x;
    unsigned e = (t & KTPU_FP22_EXP_MASK) >> KTPU_FP22_EXP_LSB;
    x.neg = (t & FP22_SIGN_BIT) != 0;
    if (e == 0) { /* exponent field 0 is zero, whatever the other bits */
        x.neg = 0;
        x.mag = 0;
        x.exp = 0;
    } else {
        x.mag = FP22_HIDDEN | (t & KTPU_FP22_FRAC_MASK);
        x.exp = (int)e - KTPU_FP22_BIAS - KTPU_FP22_FRAC_BITS;
    }
    return x;
}

/* R22(a + b), both exact with magnitudes < 2^40. Both significands are
 * first normalised to [2^40, 2^41), so the larger exponent is the larger
 * magnitude. The larger operand is then shifted left by at most 21 (it
 * stays below 2^62); any further alignment shifts the other right with its
 * lost bits jammed into bit 0 (round to odd). In that case the larger is at
 * least 2^61 and the smaller below 2^40, so the sum is at least 2^60 and
 * its rounding position (15 significant bits) is far above the jam bit: the
 * single rounding in r22_pack is the exact one. For diff <= 21 nothing is
 * lost at all. */
#define NORM_MSB 40
#define ALIGN_MAX 21

static struct exact normalise(struct exact x)
{
    while (!(x.mag >> NORM_MSB)) {
        x.mag <<= 1;
        x.exp--;
    }
    return x;
}

static uint32_t exact_add_r22(struct exact a, struct exact b, unsigned *flags)
{
    if (a.mag == 0)
        return ktpu_ref_r22_pack(b.neg, b.mag, b.exp, flags);
    if (b.mag == 0)
        return ktpu_ref_r22_pack(a.neg, a.mag, a.exp, flags);
    a = normalise(a);
    b = normalise(b);
    if (a.exp < b.exp) {
        struct exact t = a;
        a = b;
        b = t;
    }
    int diff = a.exp - b.exp;
    uint64_t am, bm;
    int e;
    if (diff <= ALIGN_MAX) {
        am = a.mag << diff;
        bm = b.mag;
        e = b.exp;
    } else {
        int sh = diff - ALIGN_MAX;
        am = a.mag << ALIGN_MAX;
        if (sh >= 64)
            bm = 1; /* b.mag != 0: pure sticky */
        else
            bm = (b.mag >> sh) | ((b.mag & ((((uint64_t)1) << sh) - 1u)) != 0);
        e = a.exp - ALIGN_MAX;
    }
    if (a.neg == b.neg)
        return ktpu_ref_r22_pack(a.neg, am + bm, e, flags);
    if (am >= bm)
        return ktpu_ref_r22_pack(a.neg, am - bm, e, flags); /* 0 packs as +0 */
    return ktpu_ref_r22_pack(b.neg, bm - am, e, flags);
}

uint32_t ktpu_ref_r22_contribution(int32_t p, uint8_t sa, uint8_t sb, unsigned *flags)
{
    struct exact v = contribution(p, sa, sb);
    return ktpu_ref_r22_pack(v.neg, v.mag, v.exp, flags);
}

uint32_t ktpu_ref_r22_add_contribution(uint32_t t, int32_t p, uint8_t sa, uint8_t sb,
                                       unsigned *flags)
{
    return exact_add_r22(fp22_decode(t), contribution(p, sa, sb), flags);
}

uint32_t ktpu_ref_r22_add(uint32_t t, uint32_t p, unsigned *flags)
{
    return exact_add_r22(fp22_decode(t), fp22_decode(p), flags);
}

/* The round-and-pack routine of FP16 (IEEE binary16 with subnormals,
 * saturating): (-1)^neg x mag x 2^exp2. */
static uint16_t r16_pack(int neg, uint64_t mag, int exp2, unsigned *flags)
{
    if (mag == 0)
        return 0;
    int b = msb64(mag);
    int e = b + exp2;
    uint64_t sig;
    uint32_t bits;
    if (e >= -14) {
        /* normal range: 11 significant bits */
        sig = shift_rne(mag, b - 10);
        if (sig >> 11) {
            sig >>= 1;
            e++;
        }
        if (e > 15) {
            if (flags)
                *flags |= KTPU_FLAG_FP16_OVERFLOW;
            return (uint16_t)(KTPU_FP16_MAX_BITS | (neg ? KTPU_FP16_SIGN_MASK : 0u));
        }
        bits = ((uint32_t)(e + 15) << KTPU_FP16_EXP_LSB) | ((uint32_t)sig & KTPU_FP16_FRAC_MASK);
    } else {
        /* subnormal range: a fixed quantum of 2^-24; a carry to 2^10 is the
         * smallest normal, whose encoding is the same integer */
        sig = shift_rne(mag, -24 - exp2);
        if (sig == 0)
            return 0; /* rounds to zero: +0, never -0 */
        bits = (uint32_t)sig;
    }
    return (uint16_t)(bits | (neg ? KTPU_FP16_SIGN_MASK : 0u));
}

uint16_t ktpu_ref_r16(uint32_t fp22, unsigned *flags)
{
    struct exact x = fp22_decode(fp22);
    return r16_pack(x.neg, x.mag, x.exp, flags);
}
