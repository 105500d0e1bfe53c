/* R16 for every one of the 2^22 FP22 bit patterns (canonical or not),
 * against the definition in model.c: value, saturation, -0 suppression and
 * the FP16_OVERFLOW flag (ORed, never cleared). */
#include <stdio.h>

#include "ktpu_ref.h"
#include "model.h"

int main(void)
{
    unsigned long sub = 0, sat = 0, zero_neg = 0, ties = 0;
    for (uint32_t x = 0; x < (1u << 22); x++) {
        unsigned fr = 0, fm = 0;
        uint16_t r = ktpu_ref_r16(x, &fr);
        uint16_t m = model_r16(x, &fm);
        model_check(r == m && fr == fm, "r16(0x%06x) = 0x%04x flags %u, model 0x%04x flags %u",
                    x, r, fr, m, fm);
        /* sticky: a preset flag stays, nothing else appears */
        unsigned fp = KTPU_FLAG_ACC_OVERFLOW;
        (void)ktpu_ref_r16(x, &fp);
        model_check(fp == (KTPU_FLAG_ACC_OVERFLOW | fm), "r16(0x%06x) cleared or added flags", x);
        unsigned e16 = (m >> 10) & 31u;
        sub += m != 0 && e16 == 0;
        sat += fm != 0;
        zero_neg += (x >> 21) && m == 0;
        /* exactly halfway between two FP16 values: the FP22 significand
         * has a 1 just below the FP16 rounding position and nothing under */
        unsigned e = (x >> 14) & 127u;
        int drop = e >= 49 ? 4 : 4 + (49 - (int)e); /* 14 - 10 (+ subnormal) */
        if (e && drop <= 15) {
            uint32_t sig = 16384u | (x & 0x3FFFu);
            if ((sig & ((1u << drop) - 1u)) == (1u << (drop - 1)))
                ties++;
        }
    }
    printf("patterns 4194304: %lu subnormal results, %lu saturated, %lu negative->+0, "
           "%lu exact ties\n", sub, sat, zero_neg, ties);
    model_check(sub > 0 && sat > 0 && zero_neg > 0 && ties > 0, "a corner class was not reached");
    return model_summary("ref_r16");
}
