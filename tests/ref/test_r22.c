/* R22 of block contributions (LOAD/FWD) and of exact sums (ADD, ADD_PEER,
 * ADD_EMIT's first half) against model.c's exact 192-bit arithmetic:
 * exhaustive P for a few scale pairs, random cases, and directed ones for
 * carries into the exponent, exact ties, cancellation (to zero and to below
 * 2^-62), saturation, non-canonical zero operands, and the flags. */
#include <stdio.h>

#include "ktpu_ref.h"
#include "model.h"

static unsigned long n_load, n_add, n_peer, n_zero, n_uf, n_of, n_carry;

static unsigned exp_of(uint32_t x)
{
    return (x >> 14) & 127u;
}

static void check_load(int32_t p, uint8_t sa, uint8_t sb)
{
    unsigned fr = 0, fm = 0;
    uint32_t r = ktpu_ref_r22_contribution(p, sa, sb, &fr);
    uint32_t m = model_r22(model_contribution(p, sa, sb), &fm);
    n_load++;
    model_check(r == m && fr == fm, "R22(v) P=%ld sa=0x%02x sb=0x%02x: 0x%06x flags %u, model "
                "0x%06x flags %u", (long)p, sa, sb, r, fr, m, fm);
}

static void check_add(uint32_t t, int32_t p, uint8_t sa, uint8_t sb)
{
    unsigned fr = 0, fm = 0;
    uint32_t r = ktpu_ref_r22_add_contribution(t, p, sa, sb, &fr);
    uint32_t m = model_r22(model_sadd(model_fp22_value(t), model_contribution(p, sa, sb)), &fm);
    n_add++;
    n_zero += m == 0 && fm == 0;
    unsigned fv = 0;
    uint32_t v22 = model_r22(model_contribution(p, sa, sb), &fv);
    n_carry += exp_of(m) > exp_of(t) && exp_of(m) > exp_of(v22); /* rounding or sum carried */
    model_check(r == m && fr == fm, "R22(T+v) T=0x%06x P=%ld sa=0x%02x sb=0x%02x: 0x%06x "
                "flags %u, model 0x%06x flags %u", t, (long)p, sa, sb, r, fr, m, fm);
}

static void check_peer(uint32_t t, uint32_t q)
{
    unsigned fr = 0, fm = 0;
    uint32_t r = ktpu_ref_r22_add(t, q, &fr);
    uint32_t m = model_r22(model_sadd(model_fp22_value(t), model_fp22_value(q)), &fm);
    n_peer++;
    n_zero += m == 0 && fm == 0;
    n_uf += (fm & 2u) != 0;
    n_of += (fm & 1u) != 0;
    model_check(r == m && fr == fm, "R22(T+p) T=0x%06x p=0x%06x: 0x%06x flags %u, model 0x%06x "
                "flags %u", t, q, r, fr, m, fm);
    /* the sum is symmetric */
    unsigned fs = 0;
    model_check(ktpu_ref_r22_add(q, t, &fs) == r && fs == fr, "R22(p+T) != R22(T+p) for 0x%06x "
                "0x%06x", t, q);
}

static uint32_t rand_p(void)
{
    /* P spread over all magnitudes, not just large ones */
    uint32_t r = model_rand();
    int32_t mag = (int32_t)((r >> 8) & ((1u << (1u + (r & 15u) + 2u)) - 1u));
    if (mag > 131072)
        mag = 131072;
    return (uint32_t)((r >> 7) & 1u ? -mag : mag);
}

static uint32_t pat(unsigned neg, unsigned e, unsigned f)
{
    return (neg ? 0x200000u : 0u) | (e & 127u) << 14 | (f & 0x3FFFu);
}

/* an FP22 pattern with exponent field near the given one (clamped 1..127) */
static uint32_t rand_near(unsigned e, int spread)
{
    int ee = (int)e + (int)(model_rand() % (uint32_t)(2 * spread + 1)) - spread;
    if (ee < 1)
        ee = 1;
    if (ee > 127)
        ee = 127;
    uint32_t r = model_rand();
    return pat(r & 1u, (unsigned)ee, r >> 8);
}

int main(void)
{
    model_seed(22);
    static const uint8_t pairs[][2] = {{0xA0, 0xA0}, {0xFF, 0xFF}, {0x00, 0x00}, {0x3B, 0xC4}};
    /* LOAD: every P for four scale pairs (min, max, unit and mixed) */
    for (unsigned i = 0; i < 4; i++)
        for (int32_t p = -131072; p <= 131072; p++)
            check_load(p, pairs[i][0], pairs[i][1]);
    /* LOAD: random P and scales, every scale byte reached */
    for (int i = 0; i < 200000; i++) {
        uint32_t r = model_rand();
        check_load((int32_t)rand_p(), (uint8_t)r, (uint8_t)(r >> 8));
    }
    /* ADD: T random within +-20 binades of v */
    for (int i = 0; i < 300000; i++) {
        uint32_t r = model_rand();
        int32_t p = (int32_t)rand_p();
        uint8_t sa = (uint8_t)r, sb = (uint8_t)(r >> 8);
        uint32_t v22 = model_r22(model_contribution(p, sa, sb), &(unsigned){0});
        check_add(rand_near(exp_of(v22) ? exp_of(v22) : 63u, 20), p, sa, sb);
    }
    /* ADD: T any 22-bit pattern (non-canonical zeros included) */
    for (int i = 0; i < 100000; i++) {
        uint32_t r = model_rand();
        check_add(model_rand() & 0x3FFFFFu, (int32_t)rand_p(), (uint8_t)r, (uint8_t)(r >> 8));
    }
    /* ADD: cancellation. T = -R22(v) plus k ulps, k in [-8, 8]: exact zero
     * (must be +0, no flag) and results far below T */
    for (int i = 0; i < 100000; i++) {
        uint32_t r = model_rand();
        int32_t p = (int32_t)rand_p();
        uint8_t sa = (uint8_t)r, sb = (uint8_t)(r >> 8);
        uint32_t v22 = model_r22(model_contribution(p, sa, sb), &(unsigned){0});
        if (v22 == 0)
            continue;
        int k = (int)(model_rand() % 17u) - 8;
        uint32_t t = (v22 ^ 0x200000u);
        t = (t & 0x200000u) | (uint32_t)((int32_t)(t & 0x1FFFFFu) + k);
        if ((t & 0x1FFFFFu) < 0x4000u || (t & 0x1FFFFFu) > 0x1FFFFFu)
            continue;
        check_add(t, p, sa, sb);
    }
    /* ADD: ties and carries. With M = 0, v = P x 2^(EA+EB-40); choosing
     * EA+EB = e - 38 makes v = P half-ulps of a T with exponent field e:
     * for odd P the exact sum is a midpoint (unless it changes binade);
     * T's fraction all ones makes a positive sum carry into the exponent. */
    for (int i = 0; i < 200000; i++) {
        uint32_t r = model_rand();
        unsigned e = 38u + (r % 63u); /* EA+EB in 0..62 */
        unsigned ea = (e - 38u) / 2u, eb = e - 38u - ea;
        int32_t p = (int32_t)(((model_rand() % 64u) * 2u + 1u));
        if ((r >> 9) & 1u)
            p = (int32_t)((model_rand() % 65536u) | 1u);
        if ((r >> 10) & 1u)
            p = -p;
        unsigned f = (r >> 11) & 1u ? 0x3FFFu - ((r >> 12) & 3u) : model_rand();
        check_add(pat((r >> 14) & 1u, e, f), p, (uint8_t)(ea << 3), (uint8_t)(eb << 3));
    }
    /* P beyond a real block (any int32: the API promises exactness there
     * too, and an RTL bench may feed it): LOAD, ADD near v, and ADD with T
     * = -R22(v) +- k ulps, where a wide v cancels against a narrow T */
    for (int i = 0; i < 150000; i++) {
        uint32_t r = model_rand();
        int32_t p = (int32_t)(model_rand() >> (r % 31u));
        uint8_t sa = (uint8_t)(r >> 8), sb = (uint8_t)(r >> 16);
        uint32_t v22 = model_r22(model_contribution(p, sa, sb), &(unsigned){0});
        if (i % 3 == 0)
            check_load(p, sa, sb);
        else if (i % 3 == 1)
            check_add(rand_near(exp_of(v22) ? exp_of(v22) : 63u, 30), p, sa, sb);
        else if (v22 != 0) {
            int32_t mag = (int32_t)(v22 & 0x1FFFFFu) + (int)(model_rand() % 9u) - 4;
            if (mag >= 0x4000 && mag <= 0x1FFFFF)
                check_add(((v22 ^ 0x200000u) & 0x200000u) | (uint32_t)mag, p, sa, sb);
        }
    }
    /* ADD_PEER: random pairs within +-40 binades, and any patterns */
    for (int i = 0; i < 300000; i++) {
        uint32_t t = rand_near(1u + model_rand() % 127u, 0);
        check_peer(t, rand_near(exp_of(t), 40));
    }
    for (int i = 0; i < 100000; i++)
        check_peer(model_rand() & 0x3FFFFFu, model_rand() & 0x3FFFFFu);
    /* ADD_PEER: cancellation at every exponent (exact zero; below 2^-62 is
     * ACC_UNDERFLOW), and ties with p exactly half an ulp of T (frac 0,
     * exponent 15 below) */
    for (int i = 0; i < 100000; i++) {
        uint32_t t = rand_near(1u + model_rand() % 127u, 0);
        int k = (int)(model_rand() % 9u) - 4;
        int32_t mag = (int32_t)(t & 0x1FFFFFu) + k;
        if (mag >= 0x4000 && mag <= 0x1FFFFF)
            check_peer(t, ((t ^ 0x200000u) & 0x200000u) | (uint32_t)mag);
        unsigned e = exp_of(t);
        if (e > 15u)
            check_peer(t, pat(model_rand() & 1u, e - 15u, 0));
    }
    /* ADD_PEER: saturation, same-sign operands near the top */
    for (int i = 0; i < 50000; i++) {
        uint32_t r = model_rand(), s = (r & 1u) ? 0x200000u : 0u;
        check_peer(s | (rand_near(126u, 1) & 0x1FFFFFu), s | (rand_near(126u, 1) & 0x1FFFFFu));
    }
    /* directed: the largest value plus itself, plus half an ulp (a tie that
     * saturates), plus zero; the smallest value minus itself (+0) and minus
     * its neighbour (2^-76: underflow) */
    check_peer(0x1FFFFFu, 0x1FFFFFu);
    check_peer(0x3FFFFFu, 0x3FFFFFu);
    check_peer(0x1FFFFFu, pat(0, 127u - 15u, 0));
    check_peer(0x1FFFFEu, pat(0, 127u - 15u, 0));
    check_peer(0x1FFFFFu, 0);
    check_peer(0x004000u, 0x204000u);
    check_peer(0x004001u, 0x204000u);
    check_peer(0x008000u, 0x204001u);
    check_peer(0x000000u, 0x200000u);
    check_add(0x1FFFFFu, 131072, 0xFF, 0xFF);
    check_add(0x004000u, -131072, 0x00, 0x00);
    check_load(131072, 0xFF, 0xFF);
    check_load(-131072, 0xFF, 0xFF);
    check_load(0, 0xFF, 0xFF);

    /* sticky flags: ORed into *flags, never cleared */
    unsigned f = KTPU_FLAG_NONFINITE | KTPU_FLAG_FP16_OVERFLOW;
    (void)ktpu_ref_r22_add(0x1FFFFFu, 0x1FFFFFu, &f);
    (void)ktpu_ref_r22_add(0x004001u, 0x204000u, &f);
    (void)ktpu_ref_r22_add(0x004000u, 0x004000u, &f);
    model_check(f == (KTPU_FLAG_NONFINITE | KTPU_FLAG_FP16_OVERFLOW | KTPU_FLAG_ACC_OVERFLOW |
                      KTPU_FLAG_ACC_UNDERFLOW), "flags not sticky: 0x%x", f);
    (void)ktpu_ref_r22_add(0x004000u, 0x004000u, NULL); /* NULL flags allowed */

    printf("LOAD %lu, ADD %lu, ADD_PEER %lu cases: %lu exact ties, %lu carries into the "
           "exponent, %lu exact zeros, %lu underflows, %lu saturations\n",
           n_load, n_add, n_peer, model_r22_ties, n_carry, n_zero, n_uf, n_of);
    model_check(model_r22_ties > 1000 && n_carry > 1000 && n_zero > 100 && n_uf > 100 &&
                    n_of > 100, "a directed class was not reached");
    return model_summary("ref_r22");
}
