/* Cluster instruction encoders (layouts: data/ktpu.def, section "cluster
 * node") and the code-name tables (generated lists). Portable C99. */
#include "ktpu_ci.h"

#include <string.h>

/* Put v into field F of word w; clears ok when v does not fit. */
#define PUT(w, F, v, ok)                          \
    do {                                          \
        if (!KTPU_FIELD_FITS(F, v)) (ok) = 0;     \
        (w) |= KTPU_FIELD(F, v);                  \
    } while (0)

static void clear(uint32_t w[KTPU_CI_WORDS])
{
    for (unsigned i = 0; i < KTPU_CI_WORDS; i++) w[i] = 0;
}

int ktpu_ci_fill(uint32_t w[KTPU_CI_WORDS], unsigned side, unsigned fmt, unsigned off,
                 uint32_t base, uint32_t stride, unsigned groups, unsigned per_group)
{
    int ok = 1;
    clear(w);
    PUT(w[KTPU_CI_OP_WORD], CI_OP_CODE, KTPU_CLOP_FILL, ok);
    PUT(w[KTPU_CI_OP_WORD], CI_OP_SIDE, side, ok);
    PUT(w[KTPU_CI_OP_WORD], CI_OP_FMT, fmt, ok);
    PUT(w[KTPU_CI_OFF_WORD], CI_OFF_AOFF, off, ok);
    PUT(w[KTPU_CI_SHAPE_WORD], CI_SHAPE_GM, groups, ok);
    PUT(w[KTPU_CI_NK_WORD], CI_NK_NK, per_group, ok);
    w[KTPU_CI_BASE_WORD] = base;
    w[KTPU_CI_STRIDE_WORD] = stride;
    return ok ? 0 : -1;
}

int ktpu_ci_gemm(uint32_t w[KTPU_CI_WORDS], unsigned aoff, unsigned boff, unsigned toff,
                 unsigned gm, unsigned gn, unsigned nk, unsigned acc, unsigned emit,
                 uint32_t cbase, uint32_t cstride)
{
    int ok = 1;
    clear(w);
    PUT(w[KTPU_CI_OP_WORD], CI_OP_CODE, KTPU_CLOP_GEMM, ok);
    PUT(w[KTPU_CI_OP_WORD], CI_OP_ACC, acc, ok);
    PUT(w[KTPU_CI_OP_WORD], CI_OP_EMIT, emit, ok);
    PUT(w[KTPU_CI_OFF_WORD], CI_OFF_AOFF, aoff, ok);
    PUT(w[KTPU_CI_OFF_WORD], CI_OFF_BOFF, boff, ok);
    PUT(w[KTPU_CI_TOFF_WORD], CI_TOFF_TOFF, toff, ok);
    PUT(w[KTPU_CI_SHAPE_WORD], CI_SHAPE_GM, gm, ok);
    PUT(w[KTPU_CI_SHAPE_WORD], CI_SHAPE_GN, gn, ok);
    PUT(w[KTPU_CI_NK_WORD], CI_NK_NK, nk, ok);
    w[KTPU_CI_BASE_WORD] = cbase;
    w[KTPU_CI_STRIDE_WORD] = cstride;
    return ok ? 0 : -1;
}

int ktpu_ci_drain(uint32_t w[KTPU_CI_WORDS], unsigned toff, unsigned gm, unsigned gn,
                  uint32_t cbase, uint32_t cstride)
{
    int ok = 1;
    clear(w);
    PUT(w[KTPU_CI_OP_WORD], CI_OP_CODE, KTPU_CLOP_DRAIN, ok);
    PUT(w[KTPU_CI_TOFF_WORD], CI_TOFF_TOFF, toff, ok);
    PUT(w[KTPU_CI_SHAPE_WORD], CI_SHAPE_GM, gm, ok);
    PUT(w[KTPU_CI_SHAPE_WORD], CI_SHAPE_GN, gn, ok);
    w[KTPU_CI_BASE_WORD] = cbase;
    w[KTPU_CI_STRIDE_WORD] = cstride;
    return ok ? 0 : -1;
}

int ktpu_ci_peer(uint32_t w[KTPU_CI_WORDS], unsigned op, unsigned px, unsigned py,
                 unsigned toff, unsigned n)
{
    int ok = op == KTPU_CLOP_SEND || op == KTPU_CLOP_RECV;
    clear(w);
    PUT(w[KTPU_CI_OP_WORD], CI_OP_CODE, op, ok);
    PUT(w[KTPU_CI_OP_WORD], CI_OP_PX, px, ok);
    PUT(w[KTPU_CI_OP_WORD], CI_OP_PY, py, ok);
    PUT(w[KTPU_CI_TOFF_WORD], CI_TOFF_TOFF, toff, ok);
    PUT(w[KTPU_CI_SHAPE_WORD], CI_SHAPE_GM, 1u, ok);
    PUT(w[KTPU_CI_SHAPE_WORD], CI_SHAPE_GN, n, ok);
    return ok ? 0 : -1;
}

int ktpu_ci_status(uint32_t w[KTPU_CI_WORDS], unsigned clear_after)
{
    int ok = 1;
    clear(w);
    PUT(w[KTPU_CI_OP_WORD], CI_OP_CODE, KTPU_CLOP_STATUS, ok);
    PUT(w[KTPU_CI_OP_WORD], CI_OP_CLEAR, clear_after, ok);
    return ok ? 0 : -1;
}

/* ---- names: one switch per generated list ---- */
#define CASE_CLERR(n, v, d) case v: return "CLERR_" #n;
#define DOC_CLERR(n, v, d) case v: return d;
#define CASE_MEMST(n, v, d) case v: return "MEMST_" #n;
#define DOC_MEMST(n, v, d) case v: return d;
#define CASE_JOBST(n, v, d) case v: return "JOBST_" #n;
#define CASE_CLOP(n, v, d) case v: return #n;

const char *ktpu_clerr_name(unsigned code)
{
    switch (code) { KTPU_CLERR_LIST(CASE_CLERR) default: return "unknown CLERR code"; }
}
const char *ktpu_clerr_doc(unsigned code)
{
    switch (code) { KTPU_CLERR_LIST(DOC_CLERR) default: return "not in data/ktpu.def"; }
}
const char *ktpu_memst_name(unsigned code)
{
    switch (code) { KTPU_MEMST_LIST(CASE_MEMST) default: return "unknown MEMST code"; }
}
const char *ktpu_memst_doc(unsigned code)
{
    switch (code) { KTPU_MEMST_LIST(DOC_MEMST) default: return "not in data/ktpu.def"; }
}
const char *ktpu_jobst_name(unsigned code)
{
    switch (code) { KTPU_JOBST_LIST(CASE_JOBST) default: return "unknown JOBST code"; }
}
const char *ktpu_clop_name(unsigned op)
{
    switch (op) { KTPU_CLOP_LIST(CASE_CLOP) default: return "unknown opcode"; }
}

const char *ktpu_flag_names(unsigned flags, char *buf, unsigned len)
{
    static const struct { unsigned bit; const char *name; } tab[] = {
#define FLAG_ENTRY(n, v, d) {v, #n},
        KTPU_FLAG_LIST(FLAG_ENTRY)
#undef FLAG_ENTRY
    };
    unsigned pos = 0;
    if (!len) return buf;
    buf[0] = '\0';
    for (unsigned i = 0; i < sizeof tab / sizeof tab[0]; i++) {
        if (!(flags & tab[i].bit)) continue;
        unsigned n = (unsigned)strlen(tab[i].name);
        if (pos + n + 2 > len) break;
        if (pos) buf[pos++] = ' ';
        memcpy(buf + pos, tab[i].name, n + 1);
        pos += n;
    }
    if (!pos && len > 4) memcpy(buf, "none", 5);
    return buf;
}
