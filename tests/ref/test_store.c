/* MXFP7 block storage (SPEC §3.1): byte layout against a bit-by-bit
 * packer, round trips both ways, and malformed bytes 29..31. */
#include <stdio.h>
#include <string.h>

#include "ktpu_ref.h"
#include "model.h"

/* element k, bit b lands in storage bit 7k + b, little-endian */
static void slow_pack(const int8_t q[32], uint8_t s, uint8_t out[32])
{
    memset(out, 0, 32);
    for (int k = 0; k < 32; k++)
        for (int b = 0; b < 7; b++)
            if (((unsigned)(q[k] + 128) >> b) & 1u) /* two's complement bits of q */
                out[(7 * k + b) / 8] |= (uint8_t)(1u << ((7 * k + b) % 8));
    out[28] = s;
}

static void check_q(const int8_t q[32], uint8_t s, const char *what)
{
    uint8_t a[32], b[32];
    int8_t back[32];
    uint8_t sb = 0;
    ktpu_ref_mx_store(q, s, a);
    slow_pack(q, s, b);
    model_check(memcmp(a, b, 32) == 0, "%s: stored bytes differ from the bit-by-bit layout",
                what);
    int r = ktpu_ref_mx_load(a, back, &sb);
    model_check(r == 0 && sb == s && memcmp(back, q, 32) == 0, "%s: load(store) is not identity",
                what);
}

int main(void)
{
    model_seed(3);
    int8_t q[32];
    /* every element value at every position, every scale byte */
    for (int v = -64; v <= 63; v++) {
        memset(q, 0, sizeof q);
        for (int k = 0; k < 32; k++)
            q[k] = (int8_t)(((v + 64 + k * 37) % 128) - 64);
        check_q(q, (uint8_t)(v + 64), "rotating");
        memset(q, v, sizeof q);
        check_q(q, (uint8_t)(v + 192), "constant");
    }
    for (int i = 0; i < 100000; i++) {
        for (int k = 0; k < 32; k++)
            q[k] = (int8_t)((int)(model_rand() % 128u) - 64);
        check_q(q, (uint8_t)model_rand(), "random");
    }
    /* any well-formed 32 bytes decode to int7 and store back unchanged */
    for (int i = 0; i < 100000; i++) {
        uint8_t in[32], out[32], s;
        for (int j = 0; j < 32; j++)
            in[j] = j < 29 ? (uint8_t)model_rand() : 0;
        int r = ktpu_ref_mx_load(in, q, &s);
        int range = 1;
        for (int k = 0; k < 32; k++)
            range &= q[k] >= -64 && q[k] <= 63;
        ktpu_ref_mx_store(q, s, out);
        model_check(r == 0 && range && memcmp(in, out, 32) == 0, "store(load(bytes)) differs");
    }
    /* a set bit anywhere in bytes 29..31 is malformed */
    for (int bit = 29 * 8; bit < 32 * 8; bit++) {
        uint8_t in[32] = {0}, s;
        in[bit / 8] = (uint8_t)(1u << (bit % 8));
        model_check(ktpu_ref_mx_load(in, q, &s) != 0, "byte %d bit %d not reported", bit / 8,
                    bit % 8);
    }
    return model_summary("ref_store");
}
