/* A self-contained check of the reference on hand-derived values (see
 * test_gemm.c for the derivations), built twice: for the host (run by
 * make test) and for rv32im/picolibc against build/rv32/libktpuref.a (linked
 * by make test; a firmware self-test runs it on the SoC). No stdio: the
 * number of failed checks is the exit status (the host build also prints
 * the counts). */
#include "ktpu_ref.h"

#ifdef KTPU_SELFTEST_STDIO
#include <stdio.h>
#endif

static int fails, checks;

static void check(int ok)
{
    checks++;
    fails += !ok;
}

static uint16_t a[4 * 64], bt[4 * 64], c[16];
static int8_t qa[4 * 64], qb[4 * 64];
static uint8_t sa[8], sb[8];
static uint32_t tile[16];

static void fill(uint16_t v)
{
    for (int i = 0; i < 4 * 64; i++)
        a[i] = bt[i] = v;
}

int main(void)
{
    unsigned fl;
    fill(0x3C00); /* all ones, K = 32: 32.125 */
    fl = ktpu_ref_gemm_f16(4, 4, 32, a, bt, qa, sa, qb, sb, tile, c);
    for (int e = 0; e < 16; e++)
        check(c[e] == 0x5004);
    check(fl == 0 && sa[0] == 0x71 && qa[0] == 57);
    fill(0x3BE0); /* 63/64, K = 64: 2 x 31.0078125 = 62.015625, R16 tie -> 62.0 */
    fl = ktpu_ref_gemm_f16(4, 4, 64, a, bt, qa, sa, qb, sb, tile, c);
    check(fl == 0 && c[0] == 0x53C0 && tile[0] == ((68u << 14) | (31752u - 16384u)));
    fill(0x7BFF); /* 65504: saturates */
    fl = ktpu_ref_gemm_f16(4, 4, 32, a, bt, qa, sa, qb, sb, tile, c);
    check(fl == KTPU_FLAG_FP16_OVERFLOW && c[15] == 0x7BFF && sa[0] == 0xF1);

    /* the packing worst case and the borrow correction */
    int8_t m64[32], p63[32];
    int32_t lo, hi;
    for (int k = 0; k < 32; k++) {
        m64[k] = -64;
        p63[k] = 63;
    }
    ktpu_ref_block_dot_packed(m64, m64, m64, &lo, &hi);
    check(lo == 131072 && hi == 131072);
    ktpu_ref_block_dot_packed(m64, p63, p63, &lo, &hi);
    check(lo == -129024 && hi == 127008);
    ktpu_ref_extract(-1, &lo, &hi);
    check(lo == -1 && hi == 0);

    /* R22 / R16 corners */
    fl = 0;
    check(ktpu_ref_r22_add(0x1FFFFFu, 0x1FFFFFu, &fl) == 0x1FFFFFu && fl == KTPU_FLAG_ACC_OVERFLOW);
    fl = 0;
    check(ktpu_ref_r22_add(0x004001u, 0x204000u, &fl) == 0 && fl == KTPU_FLAG_ACC_UNDERFLOW);
    check(ktpu_ref_r22_contribution(1, 0xA0, 0xA0, 0) == 0x0FC000u); /* 1.0 */
    check(ktpu_ref_r16(0x0FC000u, 0) == 0x3C00);
    check(ktpu_ref_r16((38u << 14) | 0x2000u, 0) == 0x0001); /* 0.75 x 2^-24: up */
    check(ktpu_ref_r16(38u << 14, 0) == 0x0000);              /* 0.5 x 2^-24: tie to 0 */
    check(ktpu_ref_r16(0x200000u | (39u << 14), 0) == 0x8001); /* -2^-24 */

    /* storage round trip */
    uint8_t st[32], s;
    int8_t back[32];
    ktpu_ref_mx_store(m64, 0xF1, st);
    check(ktpu_ref_mx_load(st, back, &s) == 0 && s == 0xF1 && back[31] == -64 && st[0] == 0x40);
    st[30] = 1;
    check(ktpu_ref_mx_load(st, back, &s) != 0);
#ifdef KTPU_SELFTEST_STDIO
    printf("ref_selftest: %d checks, %d failed\n", checks, fails);
#endif
    return fails;
}
