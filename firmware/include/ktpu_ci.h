/* Cluster instruction encoders and completion decoding (docs/node.md),
 * built only from the field macros generated from data/ktpu.def. Portable
 * C99: also compiled into the host test tests/fw/ci_test.c.
 *
 * Every encoder checks that each value fits its field and returns 0, or -1
 * (nothing is truncated silently: the caller reports a planning error). */
#ifndef KTPU_FW_CI_H
#define KTPU_FW_CI_H

#include <stdint.h>

#include "ktpu_defs.h"

/* payload words of an instruction flit (256 bits) */
#define KTPU_CI_WORDS 8

/* v placed in field F (e.g. CI_OP_CODE) of its word; and whether it fits. */
#define KTPU_FIELD(F, v) ((((uint32_t)(v)) << KTPU_##F##_LSB) & KTPU_##F##_MASK)
#define KTPU_FIELD_FITS(F, v) \
    ((((uint32_t)(v)) & ~(uint32_t)(KTPU_##F##_MASK >> KTPU_##F##_LSB)) == 0u)
#define KTPU_FIELD_GET(F, w) ((((uint32_t)(w)) & KTPU_##F##_MASK) >> KTPU_##F##_LSB)

int ktpu_ci_fill(uint32_t w[KTPU_CI_WORDS], unsigned side, unsigned fmt, unsigned off,
                 uint32_t base, uint32_t stride, unsigned groups, unsigned per_group);
int ktpu_ci_gemm(uint32_t w[KTPU_CI_WORDS], unsigned aoff, unsigned boff, unsigned toff,
                 unsigned gm, unsigned gn, unsigned nk, unsigned acc, unsigned emit,
                 uint32_t cbase, uint32_t cstride);
int ktpu_ci_drain(uint32_t w[KTPU_CI_WORDS], unsigned toff, unsigned gm, unsigned gn,
                  uint32_t cbase, uint32_t cstride);
/* op = KTPU_CLOP_SEND or KTPU_CLOP_RECV; (px, py) the peer, n sub-tiles */
int ktpu_ci_peer(uint32_t w[KTPU_CI_WORDS], unsigned op, unsigned px, unsigned py,
                 unsigned toff, unsigned n);
int ktpu_ci_status(uint32_t w[KTPU_CI_WORDS], unsigned clear);

/* CL_DONE word 0 */
static inline unsigned ktpu_cd_code(uint32_t w0) { return KTPU_FIELD_GET(CD_STATUS_CODE, w0); }
static inline unsigned ktpu_cd_op(uint32_t w0) { return KTPU_FIELD_GET(CD_STATUS_OP, w0); }
static inline unsigned ktpu_cd_memst(uint32_t w0) { return KTPU_FIELD_GET(CD_STATUS_MEMST, w0); }

/* Names from the one table generated from data/ktpu.def: "CLERR_MEM" and
 * its description; "unknown" for a code not in the table. */
const char *ktpu_clerr_name(unsigned code);
const char *ktpu_clerr_doc(unsigned code);
const char *ktpu_memst_name(unsigned code);
const char *ktpu_memst_doc(unsigned code);
const char *ktpu_jobst_name(unsigned code);
const char *ktpu_clop_name(unsigned op);
/* The FLAG_* bits set in flags as "ACC_OVERFLOW FP16_OVERFLOW" into buf
 * (always terminated; "none" for 0). */
const char *ktpu_flag_names(unsigned flags, char *buf, unsigned len);

#endif
