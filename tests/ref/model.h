/* Slow, independent models of SPEC §3 for the reference tests. Nothing here
 * calls the code under test (sim/ref): the definitions are applied directly,
 * by exhaustive search and exact wide-integer comparison, so a bug shared
 * by both would have to be made twice in different ways. */
#ifndef KTPU_REF_TEST_MODEL_H
#define KTPU_REF_TEST_MODEL_H

#include <stdint.h>

/* ---- check counting shared by the test programs --------------------------- */
extern unsigned long model_checks, model_fails;
/* Count one check; print the first 10 failures with the message. */
void model_check(int ok, const char *fmt, ...);
/* Print "NAME: N checks, N failed" and return the exit status. */
int model_summary(const char *name);

/* Deterministic PRNG for test inputs. */
void model_seed(uint64_t s);
uint32_t model_rand(void);
uint64_t model_rand64(void);

/* ---- a 192-bit unsigned integer, little-endian 32-bit limbs -------------- */
#define BIG_LIMBS 6
struct big {
    uint32_t w[BIG_LIMBS];
};
struct big big_shl(uint64_t v, int sh); /* v x 2^sh, sh >= 0 */
struct big big_add(struct big a, struct big b);
struct big big_sub(struct big a, struct big b); /* a >= b */
int big_cmp(struct big a, struct big b);        /* -1, 0, 1 */
int big_is_zero(struct big a);

/* A signed exact value in units of 2^-78 (every FP22 value, every block
 * contribution and every FP22 rounding threshold is an integer there). */
#define MODEL_UNIT_EXP 78
struct sval {
    int neg;
    struct big mag;
};
struct sval model_fp22_value(uint32_t fp22);                 /* exp field 0 -> 0 */
struct sval model_contribution(int32_t p, uint8_t sa, uint8_t sb);
struct sval model_sadd(struct sval a, struct sval b);         /* exact */

/* R22 by definition: thresholds for saturation/underflow, then a binary
 * search for the neighbouring FP22 values and a midpoint comparison. */
uint32_t model_r22(struct sval x, unsigned *flags);
extern unsigned long model_r22_ties; /* exact midpoints met by model_r22 */

/* R16 of an FP22 by definition (binary search over FP16 patterns). */
uint16_t model_r16(uint32_t fp22, unsigned *flags);

/* Quantiser pieces by definition. */
uint8_t model_scale_search(uint16_t peak);          /* smallest scale, min by value */
int model_quant_elem(uint16_t x, uint8_t s);        /* signed q by nearest-even search */

#endif
