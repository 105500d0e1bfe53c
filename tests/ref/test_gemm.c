/* Whole GEMMs and the accumulator operations (SPEC §3.3-§3.5): small cases
 * computed by hand (the expected bit patterns below are derived in the
 * comments), the accumulation order, which outputs each accumulator op
 * writes, split-K and acc-bit chaining, and random GEMMs against a model
 * built only from model.c (quantiser, exact sums, R22, R16). */
#include <stdio.h>
#include <string.h>

#include "ktpu_ref.h"
#include "model.h"

#define MAXM 12
#define MAXN 12
#define MAXK 256

static uint16_t A[MAXM * MAXK], BT[MAXN * MAXK], C[MAXM * MAXN];
static int8_t QA[MAXM * MAXK], QB[MAXN * MAXK];
static uint8_t SA[MAXM * MAXK / 32], SB[MAXN * MAXK / 32];
static uint32_t TILE[MAXM * MAXN];

static unsigned gemm16(size_t m, size_t n, size_t k)
{
    return ktpu_ref_gemm_f16(m, n, k, A, BT, QA, SA, QB, SB, TILE, C);
}

static void fill(uint16_t *x, size_t count, uint16_t v)
{
    for (size_t i = 0; i < count; i++)
        x[i] = v;
}

/* small integers as FP16 (|n| < 2048), by hand: n = 1.f x 2^e */
static uint16_t i2h(int n)
{
    unsigned mag = (unsigned)(n < 0 ? -n : n), e = 0;
    if (mag == 0)
        return 0;
    while ((mag >> e) > 1u)
        e++;
    unsigned frac = (mag << (10u - e)) & 0x3FFu;
    return (uint16_t)((n < 0 ? 0x8000u : 0u) | (e + 15u) << 10 | frac);
}

static void hand_cases(void)
{
    unsigned fl;
    /* all ones, 4 x 32 x 4. Peak 1.0 (sig 1024, ep 15): m = ceil(1024/126)
     * = 9, so E = 14, M = 1: scale 9/8 x 2^-6, q = round(56.89) = 57.
     * P = 32 x 57^2 = 103968; v = 103968 x 81 x 2^(28-46) = 32.12506...;
     * R22 (ulp 2^-9 in [32, 64)): 16448.03 ulps -> 32.125; R16 (ulp 1/32):
     * exact, 32.125 = 0x5004. */
    fill(A, 4 * 32, 0x3C00);
    fill(BT, 4 * 32, 0x3C00);
    fl = gemm16(4, 4, 32);
    for (int e = 0; e < 16; e++)
        model_check(C[e] == 0x5004 && fl == 0, "all ones: C[%d] = 0x%04x flags %u, want 0x5004",
                    e, C[e], fl);
    model_check(SA[0] == 0x71 && QA[0] == 57, "all ones: s 0x%02x q %d", SA[0], QA[0]);

    /* 63/64 everywhere (0x3BE0: sig 2016, ep 14): m = 16 so E = 14, M = 0,
     * scale 2^-6, q = 63 exactly. v = 32 x 63^2 x 64 x 2^-18 = 31.0078125 =
     * 31752 x 2^-10 (exact in FP22); in FP16 that is 1984.5 ulps of 2^-6:
     * a tie, to the even 1984: 31.0 = 0x4FC0. */
    fill(A, 4 * 32, 0x3BE0);
    fill(BT, 4 * 32, 0x3BE0);
    fl = gemm16(4, 4, 32);
    for (int e = 0; e < 16; e++)
        model_check(C[e] == 0x4FC0 && TILE[e] == ((67u << 14) | (31752u - 16384u)) && fl == 0,
                    "63/64: C[%d] = 0x%04x tile 0x%06x, want 0x4FC0", e, C[e], TILE[e]);

    /* 3 x 64 x 5 (M, N not multiples of 4). A[i] has 63/64 at k = i and
     * k = 32 + i (scale 2^-6, q 63); BT[j][k] = k - 16 + j for k < 31 and
     * 63 at k = 31, both blocks (peak 63: scale 1.0, q = the integer).
     * Each block gives v = 63 n / 64 with n = i + j - 16, exact, and the
     * two blocks sum to 63 n / 32: n = -16 .. -10 -> -31.5, -29.53125,
     * -27.5625, -25.59375, -23.625, -21.65625, -19.6875, which in [16, 32)
     * are 0xCC00 | (|x|/16 - 1) x 1024. */
    static const uint16_t want35[7] = {0xCFE0, 0xCF62, 0xCEE4, 0xCE66, 0xCDE8, 0xCD6A, 0xCCEC};
    memset(A, 0, sizeof A);
    for (int i = 0; i < 3; i++)
        A[i * 64 + i] = A[i * 64 + 32 + i] = 0x3BE0;
    for (int j = 0; j < 5; j++)
        for (int k = 0; k < 64; k++)
            BT[j * 64 + k] = (k % 32) == 31 ? i2h(63) : i2h(k % 32 - 16 + j);
    fl = gemm16(3, 5, 64);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++)
            model_check(C[i * 5 + j] == want35[i + j] && fl == 0,
                        "3x64x5: C[%d][%d] = 0x%04x, want 0x%04x", i, j, C[i * 5 + j],
                        want35[i + j]);

    /* 65504 everywhere: sig 2047, ep 30: m = 17, E = 30, M = 1 (0xF1), q =
     * round(65504/1152) = 57; v = 103968 x 81 x 2^14 ~ 1.4e11: saturates to
     * 65504 with FP16_OVERFLOW (FP22 holds it: no ACC flag). Negative A
     * gives -65504. */
    fill(A, 4 * 32, 0x7BFF);
    fill(BT, 4 * 32, 0x7BFF);
    fl = gemm16(4, 4, 32);
    model_check(C[5] == 0x7BFF && fl == KTPU_FLAG_FP16_OVERFLOW && SA[0] == 0xF1,
                "65504: C = 0x%04x flags %u s 0x%02x", C[5], fl, SA[0]);
    fill(A, 4 * 32, 0xFBFF);
    fl = gemm16(4, 4, 32);
    model_check(C[5] == 0xFBFF && fl == KTPU_FLAG_FP16_OVERFLOW, "-65504: C = 0x%04x flags %u",
                C[5], fl);

    /* zeros: all-zero and negative-zero operands give +0, scale 1.0 */
    fill(A, 4 * 32, 0x8000);
    fill(BT, 4 * 32, 0x3C00);
    fl = gemm16(4, 4, 32);
    model_check(C[0] == 0 && TILE[0] == 0 && SA[0] == 0xA0 && fl == 0,
                "-0 x 1: C 0x%04x tile 0x%06x s 0x%02x", C[0], TILE[0], SA[0]);

    /* FP16 subnormal outputs and ties, on quantised operands: with M = 0,
     * v = P x 2^(EA+EB-40); EA+EB = 16 gives P x 2^-24 (exact subnormals),
     * EA+EB = 15 gives P/2 x 2^-24 (ties to even), EA = EB = 0 gives P x
     * 2^-40 (rounds to zero). Signed results, never -0. */
    static const struct {
        int p;
        uint8_t sa, sb;
        uint16_t want;
    } sub[] = {
        {-3, 0x40, 0x40, 0x8003}, {1, 0x40, 0x40, 0x0001},  {-5, 0x40, 0x38, 0x8002},
        {-3, 0x40, 0x38, 0x8002}, {-1, 0x40, 0x38, 0x0000}, {1, 0x40, 0x38, 0x0000},
        {3, 0x40, 0x38, 0x0002},  {-1, 0x00, 0x00, 0x0000}, {2047, 0x40, 0x38, 0x0400},
        {2046, 0x40, 0x38, 0x03FF},
    };
    for (unsigned c = 0; c < sizeof sub / sizeof sub[0]; c++) {
        int8_t qa[32] = {0}, qb[32] = {0};
        int p = sub[c].p;
        /* P = qa . qb with |q| <= 63: 63 x b lanes, then the remainder */
        for (int k = 0; k < 32 && p != 0; k++) {
            int mag = p < 0 ? -p : p, sgn = p < 0 ? -1 : 1;
            int b = mag >= 63 ? (mag / 63 > 63 ? 63 : mag / 63) : 1;
            int aa = mag >= 63 ? 63 : mag;
            qa[k] = (int8_t)(sgn * aa);
            qb[k] = (int8_t)b;
            p -= sgn * aa * b;
        }
        model_check(p == 0, "split of P=%d", sub[c].p);
        uint32_t t;
        uint16_t c16;
        fl = ktpu_ref_gemm_mx(1, 1, 32, qa, &sub[c].sa, qb, &sub[c].sb, &t, &c16);
        model_check(c16 == sub[c].want && fl == 0, "P=%d sa 0x%02x sb 0x%02x: 0x%04x, want 0x%04x",
                    sub[c].p, sub[c].sa, sub[c].sb, c16, sub[c].want);
    }

    /* the order: blocks of v = 1, 2^-15, 2^-15 in increasing kb leave T = 1
     * (each 2^-15 is half an ulp of 1: a tie to the even 1.0, 0x0FC000);
     * the reverse order sums the small ones first and ends at 1 + 2^-14
     * (0x0FC001). v = P x 2^(EA+EB-40): 1 = (EA+EB = 40), 2^-15 = (25). */
    {
        int8_t qa[96] = {0}, qb[96] = {0};
        qa[0] = qa[32] = qa[64] = 1;
        qb[0] = qb[32] = qb[64] = 1;
        uint8_t sa_f[3] = {0xA0, 0x60, 0x60}, sb_f[3] = {0xA0, 0x68, 0x68};
        uint8_t sa_r[3] = {0x60, 0x60, 0xA0}, sb_r[3] = {0x68, 0x68, 0xA0};
        uint32_t t;
        uint16_t c16;
        ktpu_ref_gemm_mx(1, 1, 96, qa, sa_f, qb, sb_f, &t, &c16);
        model_check(t == 0x0FC000u && c16 == 0x3C00, "order 1, 2^-15, 2^-15: tile 0x%06x", t);
        ktpu_ref_gemm_mx(1, 1, 96, qa, sa_r, qb, sb_r, &t, &c16);
        model_check(t == 0x0FC001u && c16 == 0x3C00, "order 2^-15, 2^-15, 1: tile 0x%06x", t);
    }
}

/* every accumulator op writes exactly what docs/ref.md says */
static void acc_ops(void)
{
    const uint32_t S32 = 0xDEADBEEFu;
    const uint16_t S16 = 0xBEEF;
    for (int i = 0; i < 20000; i++) {
        uint32_t t0 = model_rand() & 0x3FFFFFu, pin = model_rand() & 0x3FFFFFu;
        int32_t p = (int32_t)(model_rand() % 262145u) - 131072;
        uint8_t sa = (uint8_t)model_rand(), sb = (uint8_t)model_rand();
        unsigned f0 = 0, f1 = 0, f2 = 0;
        uint32_t t, po;
        uint16_t o;

        t = t0; po = S32; o = S16; f0 = 0;
        ktpu_ref_acc_op(KTPU_ACC_LOAD, &t, p, sa, sb, pin, &po, &o, &f0);
        f1 = 0;
        model_check(t == ktpu_ref_r22_contribution(p, sa, sb, &f1) && f0 == f1 && po == S32 &&
                        o == S16, "LOAD");
        t = t0; po = S32; o = S16; f0 = 0; f1 = 0;
        ktpu_ref_acc_op(KTPU_ACC_ADD, &t, p, sa, sb, pin, &po, &o, &f0);
        model_check(t == ktpu_ref_r22_add_contribution(t0, p, sa, sb, &f1) && f0 == f1 &&
                        po == S32 && o == S16, "ADD");
        t = t0; po = S32; o = S16; f0 = 0; f1 = 0;
        ktpu_ref_acc_op(KTPU_ACC_ADD_PEER, &t, p, sa, sb, pin, &po, &o, &f0);
        model_check(t == ktpu_ref_r22_add(t0, pin, &f1) && f0 == f1 && po == S32 && o == S16,
                    "ADD_PEER");
        t = t0 | 0xFFC00000u; po = S32; o = S16; f0 = 0;
        ktpu_ref_acc_op(KTPU_ACC_SEND, &t, p, sa, sb, pin, &po, &o, &f0);
        model_check(po == t0 && t == (t0 | 0xFFC00000u) && o == S16 && f0 == 0, "SEND");
        t = t0; po = S32; o = S16; f0 = 0; f1 = 0;
        ktpu_ref_acc_op(KTPU_ACC_FWD, &t, p, sa, sb, pin, &po, &o, &f0);
        model_check(po == ktpu_ref_r22_contribution(p, sa, sb, &f1) && t == t0 && o == S16 &&
                        f0 == f1, "FWD");
        t = t0; po = S32; o = S16; f0 = 0; f1 = 0;
        ktpu_ref_acc_op(KTPU_ACC_EMIT, &t, p, sa, sb, pin, &po, &o, &f0);
        model_check(o == ktpu_ref_r16(t0, &f1) && t == t0 && po == S32 && f0 == f1, "EMIT");
        t = t0; po = S32; o = S16; f0 = 0; f1 = 0; f2 = 0;
        ktpu_ref_acc_op(KTPU_ACC_ADD_EMIT, &t, p, sa, sb, pin, &po, &o, &f0);
        uint32_t tn = ktpu_ref_r22_add_contribution(t0, p, sa, sb, &f1);
        model_check(t == tn && o == ktpu_ref_r16(tn, &f2) && po == S32 && f0 == (f1 | f2),
                    "ADD_EMIT");
        /* unused outputs may be NULL */
        t = t0;
        ktpu_ref_acc_op(KTPU_ACC_ADD, &t, p, sa, sb, 0, NULL, NULL, NULL);
        ktpu_ref_acc_op(KTPU_ACC_EMIT, &t, 0, 0, 0, 0, NULL, &o, NULL);
        /* peer round trip: SEND T, ADD_PEER it onto T: exactly 2T */
        t = t0;
        ktpu_ref_acc_op(KTPU_ACC_SEND, &t, 0, 0, 0, 0, &po, NULL, NULL);
        f0 = 0;
        ktpu_ref_acc_op(KTPU_ACC_ADD_PEER, &t, 0, 0, 0, po, NULL, NULL, &f0);
        unsigned e = (t0 >> 14) & 127u;
        uint32_t twice = e == 0 ? 0 : e == 127 ? ((t0 & 0x200000u) | 0x1FFFFFu) : t0 + 0x4000u;
        model_check(t == twice && f0 == (e == 127 ? KTPU_FLAG_ACC_OVERFLOW : 0u),
                    "T + T: 0x%06x -> 0x%06x", t0, t);
    }
}

/* model-only GEMM element: quantiser, plain dot products, exact sums */
static uint16_t model_element(size_t i, size_t j, size_t k, unsigned *flags)
{
    struct sval t = {0, {{0}}};
    uint32_t t22 = 0;
    for (size_t kb = 0; kb < k / 32; kb++) {
        uint16_t pa = 0, pb = 0;
        for (int l = 0; l < 32; l++) {
            if ((A[i * k + kb * 32 + l] & 0x7FFFu) > pa)
                pa = A[i * k + kb * 32 + l] & 0x7FFFu;
            if ((BT[j * k + kb * 32 + l] & 0x7FFFu) > pb)
                pb = BT[j * k + kb * 32 + l] & 0x7FFFu;
        }
        uint8_t sa = model_scale_search(pa), sb = model_scale_search(pb);
        int32_t p = 0;
        for (int l = 0; l < 32; l++)
            p += model_quant_elem(A[i * k + kb * 32 + l], sa) *
                 model_quant_elem(BT[j * k + kb * 32 + l], sb);
        struct sval v = model_contribution(p, sa, sb);
        t22 = model_r22(kb == 0 ? v : model_sadd(t, v), flags);
        t = model_fp22_value(t22);
    }
    return model_r16(t22, flags);
}

static uint16_t rand_h(unsigned kind)
{
    uint32_t r = model_rand();
    uint32_t mag = kind == 0 ? r % 0x7C00u                           /* any finite */
                 : kind == 1 ? (12u + (r >> 20) % 6u) << 10 | (r & 0x3FFu) /* ~N(0,1) range */
                 : kind == 2 ? (r % 0x7C00u) >> ((r >> 16) % 16u)     /* wide range */
                             : ((r >> 8) & 1u) ? 0x7BFFu - (r & 7u) : 0u; /* extremes */
    return (uint16_t)(mag | ((r >> 31) << 15));
}

static void random_gemms(void)
{
    unsigned long elems = 0;
    for (int g = 0; g < 300; g++) {
        size_t m = 1 + model_rand() % MAXM, n = 1 + model_rand() % MAXN;
        size_t k = 32 * (1 + model_rand() % (MAXK / 32));
        unsigned kind = model_rand() % 4u;
        for (size_t e = 0; e < m * k; e++)
            A[e] = rand_h(kind);
        for (size_t e = 0; e < n * k; e++)
            BT[e] = rand_h(kind);
        unsigned fl = gemm16(m, n, k), fm = 0;
        for (size_t i = 0; i < m; i++)
            for (size_t j = 0; j < n; j++) {
                uint16_t want = model_element(i, j, k, &fm);
                elems++;
                model_check(C[i * n + j] == want, "random %zux%zux%zu C[%zu][%zu] = 0x%04x, "
                            "model 0x%04x", m, k, n, i, j, C[i * n + j], want);
            }
        model_check(fl == fm, "random GEMM flags %u, model %u", fl, fm);

        /* the acc bit and split-K: [0, a) then [a, nkb) with acc = 1 is the
         * same GEMM; the peer sum of two partials is one R22 per element */
        size_t nkb = k / 32, a = model_rand() % nkb;
        static uint32_t t1[MAXM * MAXN], t2[MAXM * MAXN], t3[MAXM * MAXN];
        if (a > 0) {
            ktpu_ref_gemm_mx_partial(m, n, nkb, QA, SA, QB, SB, 0, a, 0, t1);
            ktpu_ref_gemm_mx_partial(m, n, nkb, QA, SA, QB, SB, a, nkb, 1, t1);
            model_check(memcmp(t1, TILE, m * n * 4) == 0, "acc-bit chain differs from one sweep");
            ktpu_ref_gemm_mx_partial(m, n, nkb, QA, SA, QB, SB, 0, a, 0, t2);
            ktpu_ref_gemm_mx_partial(m, n, nkb, QA, SA, QB, SB, a, nkb, 0, t3);
            memcpy(t1, t2, sizeof t1);
            ktpu_ref_tile_add_peer(t1, t3, m * n);
            for (size_t e = 0; e < m * n; e++) {
                unsigned f = 0;
                model_check(t1[e] == model_r22(model_sadd(model_fp22_value(t2[e]),
                                                          model_fp22_value(t3[e])), &f),
                            "split-K peer sum element %zu", e);
            }
        }

        /* ktpu_ref_gemm_mx_split: the parts' ranges tile K (the first
         * nkb mod parts one longer), and C is the tree of the model's
         * R22 additions over the partials, then R16 */
        unsigned parts = 1 + model_rand() % (nkb < 5 ? nkb : 5);
        static uint32_t part[5][MAXM * MAXN], scratch[4 * MAXM * MAXN], tsplit[MAXM * MAXN];
        static uint16_t csplit[MAXM * MAXN];
        size_t next = 0;
        for (unsigned i = 0; i < parts; i++) {
            size_t kb0, kb1, len = nkb / parts + (i < nkb % parts);
            ktpu_ref_split_range(nkb, parts, i, &kb0, &kb1);
            model_check(kb0 == next && kb1 == kb0 + len, "split range %u of %u over %zu blocks: [%zu, %zu)", i,
                        parts, nkb, kb0, kb1);
            next = kb1;
            ktpu_ref_gemm_mx_partial(m, n, nkb, QA, SA, QB, SB, kb0, kb1, 0, part[i]);
        }
        for (unsigned d = 1; d < parts; d *= 2)
            for (unsigned i = 0; i + d < parts; i += 2 * d)
                for (size_t e = 0; e < m * n; e++) {
                    unsigned f = 0;
                    part[i][e] = model_r22(model_sadd(model_fp22_value(part[i][e]),
                                                      model_fp22_value(part[i + d][e])), &f);
                }
        ktpu_ref_gemm_mx_split(m, n, k, parts, QA, SA, QB, SB, scratch, tsplit, csplit);
        for (size_t e = 0; e < m * n; e++) {
            unsigned f = 0;
            model_check(tsplit[e] == part[0][e] && csplit[e] == model_r16(part[0][e], &f),
                        "split-K %u parts, element %zu: tile 0x%06x C 0x%04x, model 0x%06x", parts, e,
                        (unsigned)tsplit[e], (unsigned)csplit[e], (unsigned)part[0][e]);
        }
        if (parts == 1)
            model_check(memcmp(csplit, C, m * n * 2) == 0, "split-K in 1 part is not the one-cluster GEMM");
    }
    printf("random GEMMs: 300 (M, N 1..12, K 32..256), %lu elements against the model\n", elems);
}

int main(void)
{
    model_seed(11);
    hand_cases();
    acc_ops();
    random_gemms();
    return model_summary("ref_gemm");
}
