/* .npy FP16 reader/writer (host only). The header is a Python dict literal;
 * this parses the subset NumPy writes (and a little more: either quote,
 * any key order, optional trailing commas) and rejects anything else with
 * a one-line message naming the file (a key or dtype in it with its
 * control bytes escaped, ktpu_arg_quote). Data as numpy writes it (SPEC
 * §2): FP16, float32 or float64, either byte order, C or Fortran order;
 * float32/float64 rounded to FP16 to nearest, ties to even, in one step. */
#include "ktpu_npy.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktpu_arg.h"
#include "ktpu_defs.h"
#include "ktpu_in.h"
#include "ktpu_out.h"

static const uint8_t npy_magic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* sig * 2^q (sig < 2^62) as an FP16 magnitude, to nearest, ties to even:
 * 0, or -1 if it rounds past 65504. The quantum is 2^-24 below 2^-14
 * (subnormals, whose bits are the count of quanta: 1024 is the smallest
 * normal), else 2^(e-10) for a value in [2^e, 2^(e+1)). */
static int round_f16(uint64_t sig, int q, uint16_t *h, int *inexact)
{
    *inexact = 0;
    if (!sig) {
        *h = 0;
        return 0;
    }
    int bits = 0;
    while (bits < 64 && sig >> bits) bits++;
    int e = q + bits - 1, unit = e < -14 ? -24 : e - 10, shift = unit - q;
    if (e > 15) return -1;
    uint64_t n;
    if (shift <= 0) {
        n = sig << -shift;   /* exact: at most 11 significant bits */
    } else if (shift >= 64) {
        n = 0;               /* below half a quantum */
        *inexact = 1;
    } else {
        uint64_t rem = sig & ((1ull << shift) - 1u), half = 1ull << (shift - 1);
        *inexact = rem != 0;
        n = sig >> shift;
        if (rem > half || (rem == half && (n & 1u))) n++;
    }
    if (unit == -24) {       /* subnormal, or rounded up to 2^-14 */
        *h = (uint16_t)n;
        return 0;
    }
    if (n == 2048) {         /* rounded up to the next binade */
        n = 1024;
        unit++;
    }
    int biased = unit + 25;  /* exponent field: e + 15 */
    if (biased > 30) return -1;
    *h = (uint16_t)(biased << 10 | (n - 1024));
    return 0;
}

/* A float32 or float64 element's value (for messages). */
static double element_double(const uint8_t *d, unsigned esz, int be)
{
    uint64_t x = 0;
    for (unsigned b = 0; b < esz; b++) x |= (uint64_t)d[be ? esz - 1 - b : b] << (8 * b);
    if (esz == 4) {
        uint32_t u = (uint32_t)x;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    double v;
    memcpy(&v, &x, sizeof v);
    return v;
}

/* One element of size esz (2, 4, 8) at d, big-endian if be, as FP16 bits:
 * 0, 1 not finite, 2 overflows FP16 (float32/float64 only; an FP16 Inf or
 * NaN is kept, the tools refuse it by name with its position); *changed:
 * the rounding changed the value. */
static int element_f16(const uint8_t *d, unsigned esz, int be, uint16_t *h, int *changed)
{
    *changed = 0;
    uint64_t x = 0;
    for (unsigned b = 0; b < esz; b++) x |= (uint64_t)d[be ? esz - 1 - b : b] << (8 * b);
    if (esz == 2) {
        *h = (uint16_t)x;
        return 0;
    }
    unsigned sign, ebits = esz == 4 ? 8 : 11, mbits = esz == 4 ? 23 : 52;
    unsigned emax = (1u << ebits) - 1u, bias = emax >> 1;
    sign = (unsigned)(x >> (ebits + mbits)) & 1u;
    unsigned ex = (unsigned)(x >> mbits) & emax;
    uint64_t m = x & ((1ull << mbits) - 1u);
    if (ex == emax) return 1;
    uint64_t sig = ex ? m | 1ull << mbits : m;
    int q = (ex ? (int)ex : 1) - (int)bias - (int)mbits;
    if (round_f16(sig, q, h, changed) != 0) return 2;
    *h |= (uint16_t)(sign << 15);
    return 0;
}

static int fail(char *err, const char *name, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(err, KTPU_NPY_ERR_LEN, "%s: ", name);
    if (n < 0 || n >= KTPU_NPY_ERR_LEN)
        n = 0;
    va_start(ap, fmt);
    vsnprintf(err + n, (size_t)(KTPU_NPY_ERR_LEN - n), fmt, ap);
    va_end(ap);
    return -1;
}

/* A message that already names the file. */
static int copy_err(char *err, const char *msg)
{
    snprintf(err, KTPU_NPY_ERR_LEN, "%s", msg);
    return -1;
}

/* ---- header dict parser --------------------------------------------------- */

struct cursor {
    const char *p, *end;
};

static void skip_ws(struct cursor *c)
{
    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
        c->p++;
}

static int eat(struct cursor *c, char ch)
{
    skip_ws(c);
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

/* A quoted string without escapes, into buf. 0 on success. */
static int parse_str(struct cursor *c, char *buf, size_t cap)
{
    skip_ws(c);
    if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
        return -1;
    char q = *c->p++;
    size_t n = 0;
    while (c->p < c->end && *c->p != q) {
        if (*c->p == '\\' || n + 1 >= cap)
            return -1;
        buf[n++] = *c->p++;
    }
    if (c->p >= c->end)
        return -1;
    c->p++;
    buf[n] = '\0';
    return 0;
}

static int parse_word(struct cursor *c, const char *w)
{
    size_t n = strlen(w);
    skip_ws(c);
    if ((size_t)(c->end - c->p) >= n && memcmp(c->p, w, n) == 0) {
        c->p += n;
        return 1;
    }
    return 0;
}

int ktpu_npy_parse_f16(const char *name, const uint8_t *buf, size_t len, struct ktpu_npy *out,
                       char err[KTPU_NPY_ERR_LEN])
{
    memset(out, 0, sizeof *out);
    if (len < 10)
        return fail(err, name, "truncated: too short for a .npy header (%zu bytes)", len);
    if (memcmp(buf, npy_magic, sizeof npy_magic) != 0)
        return fail(err, name, "not a .npy file (bad magic)");
    unsigned major = buf[6], minor = buf[7];
    size_t hlen, hoff;
    if (major == 1) {
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8;
        hoff = 10;
    } else if (major == 2 || major == 3) {
        if (len < 12)
            return fail(err, name, "truncated: too short for a version %u.%u header", major,
                        minor);
        hlen = (size_t)buf[8] | (size_t)buf[9] << 8 | (size_t)buf[10] << 16 |
               (size_t)buf[11] << 24;
        hoff = 12;
    } else {
        return fail(err, name, "unsupported .npy format version %u.%u", major, minor);
    }
    if (hlen > len - hoff)
        return fail(err, name, "truncated: header says %zu header bytes, file has %zu", hlen,
                    len - hoff);

    struct cursor c = {(const char *)buf + hoff, (const char *)buf + hoff + hlen};
    char key[32], descr[64], q[KTPU_ARG_QUOTE_LEN];   /* q: a key or dtype shown in a message */
    int have_descr = 0, have_fortran = 0, have_shape = 0, fortran = 0;
    if (!eat(&c, '{'))
        return fail(err, name, "header is not a dict");
    for (;;) {
        if (eat(&c, '}'))
            break;
        if (parse_str(&c, key, sizeof key) != 0 || !eat(&c, ':'))
            return fail(err, name, "malformed header dict");
        if ((strcmp(key, "descr") == 0 && have_descr) || (strcmp(key, "fortran_order") == 0 && have_fortran) ||
            (strcmp(key, "shape") == 0 && have_shape))
            return fail(err, name, "header has the key '%s' twice", ktpu_arg_quote(q, key));
        if (strcmp(key, "descr") == 0) {
            if (parse_str(&c, descr, sizeof descr) != 0)
                return fail(err, name, "dtype is not a simple type string (structured?)");
            have_descr = 1;
        } else if (strcmp(key, "fortran_order") == 0) {
            if (parse_word(&c, "True"))
                fortran = 1;
            else if (parse_word(&c, "False"))
                fortran = 0;
            else
                return fail(err, name, "fortran_order is neither True nor False");
            have_fortran = 1;
        } else if (strcmp(key, "shape") == 0) {
            if (!eat(&c, '('))
                return fail(err, name, "shape is not a tuple");
            out->ndim = 0;
            while (!eat(&c, ')')) {
                skip_ws(&c);
                if (c.p >= c.end || *c.p < '0' || *c.p > '9')
                    return fail(err, name, "shape is not a tuple of non-negative integers");
                size_t v = 0;
                while (c.p < c.end && *c.p >= '0' && *c.p <= '9') {
                    size_t d = (size_t)(*c.p++ - '0');
                    if (v > ((size_t)-1 - d) / 10u)
                        return fail(err, name, "shape dimension too large");
                    v = v * 10u + d;
                }
                if (c.p < c.end && *c.p == 'L') /* Python 2 long suffix */
                    c.p++;
                if (out->ndim == KTPU_NPY_MAX_DIMS)
                    return fail(err, name, "more than %d dimensions", KTPU_NPY_MAX_DIMS);
                out->shape[out->ndim++] = v;
                if (!eat(&c, ',')) {
                    if (!eat(&c, ')'))
                        return fail(err, name, "malformed shape tuple");
                    break;
                }
            }
            have_shape = 1;
        } else {
            return fail(err, name, "unexpected header key '%s'", ktpu_arg_quote(q, key));
        }
        if (!eat(&c, ',')) {
            if (!eat(&c, '}'))
                return fail(err, name, "malformed header dict");
            break;
        }
    }
    skip_ws(&c);
    if (c.p != c.end)
        return fail(err, name, "junk after the header dict");
    if (!have_descr || !have_fortran || !have_shape)
        return fail(err, name, "header lacks %s",
                    !have_descr ? "'descr'" : !have_fortran ? "'fortran_order'" : "'shape'");
    /* '<f2' '>f2' '<f4' '>f4' '<f8' '>f8' ('=' and '|' as numpy allows for them) */
    unsigned esz = 0;
    int be = 0;
    if (strlen(descr) == 3 && strchr("<>=|", descr[0]) && descr[1] == 'f' && strchr("248", descr[2])) {
        esz = (unsigned)(descr[2] - '0');
        be = descr[0] == '>';
    }
    if (!esz)
        return fail(err, name, "dtype '%s' is not FP16, float32 or float64 ('<f2', '<f4', '<f8', or '>'): "
                    "save it as one, e.g. np.save(path, x.astype(np.float16))", ktpu_arg_quote(q, descr));

    size_t count = 1;
    for (int i = 0; i < out->ndim; i++) {
        if (out->shape[i] != 0 && count > ((size_t)-1 / 8u) / out->shape[i])
            return fail(err, name, "shape too large");
        count *= out->shape[i];
    }
    size_t have = len - hoff - hlen;
    if (have < count * esz)
        return fail(err, name, "truncated: shape needs %zu data bytes, file has %zu",
                    count * esz, have);
    if (have > count * esz)
        return fail(err, name, "%zu bytes after the data the shape describes",
                    have - count * esz);
    out->count = count;
    out->data = malloc(count ? count * sizeof *out->data : 1u);
    if (!out->data)
        return fail(err, name, "out of memory for %zu elements", count);
    const uint8_t *d = buf + hoff + hlen;
    for (size_t i = 0; i < count; i++) {
        /* element i of the file; in Fortran order the first index runs fastest */
        size_t at = i;
        if (fortran && out->ndim > 1) {
            size_t rest = i, idx[KTPU_NPY_MAX_DIMS];
            for (int k = 0; k < out->ndim; k++) {
                idx[k] = rest % out->shape[k];
                rest /= out->shape[k];
            }
            at = 0;
            for (int k = 0; k < out->ndim; k++) at = at * out->shape[k] + idx[k];
        }
        uint16_t h;
        int changed, r = element_f16(d + esz * i, esz, be, &h, &changed);
        if (r) {
            double v = element_double(d + esz * i, esz, be);
            char pos[64];
            if (out->ndim == 2)
                snprintf(pos, sizeof pos, "[%zu, %zu]", at / out->shape[1], at % out->shape[1]);
            else
                snprintf(pos, sizeof pos, "%zu (C order)", at);
            ktpu_npy_free(out);
            return fail(err, name, "element %s (%g) %s", pos, v,
                        r == 1 ? "is not finite: replace it before the GEMM"
                               : "overflows FP16 (largest 65504): scale the operand into FP16's range");
        }
        out->data[at] = h;
        out->rounded += (size_t)changed;
    }
    return 0;
}

/* The messages every tool gives for the same mistake: here, once. */
int ktpu_npy_check_matrix(const char *path, const char *what, const struct ktpu_npy *m,
                          char err[KTPU_NPY_ERR_LEN])
{
    if (m->ndim != 2)
        return fail(err, path, "rank %d, %s must be a 2-D matrix", m->ndim, what);
    if (m->shape[0] == 0 || m->shape[1] == 0)
        return fail(err, path, "empty matrix (%zu x %zu)", m->shape[0], m->shape[1]);
    for (size_t i = 0; i < m->count; i++)
        if ((m->data[i] & KTPU_FP16_EXP_MASK) == KTPU_FP16_EXP_MASK)
            return fail(err, path, "non-finite value 0x%04x (%s) at [%zu, %zu] (NONFINITE): replace it before "
                        "the GEMM", (unsigned)m->data[i], (m->data[i] & KTPU_FP16_FRAC_MASK) ? "NaN" : "Inf",
                        i / m->shape[1], i % m->shape[1]);
    return 0;
}

int ktpu_npy_read_gemm(const char *pa, const char *pb, struct ktpu_npy *a, struct ktpu_npy *b, FILE *notes,
                       char err[KTPU_NPY_ERR_LEN])
{
    memset(b, 0, sizeof *b);
    if (ktpu_npy_read_f16(pa, a, err) || ktpu_npy_check_matrix(pa, "A (M x K)", a, err) ||
        ktpu_npy_read_f16(pb, b, err) || ktpu_npy_check_matrix(pb, "BT (N x K, B transposed)", b, err))
        goto bad;
    size_t k = a->shape[1];
    if (b->shape[1] != k) {
        if (b->shape[0] == k)   /* B itself, K x N */
            fail(err, pb, "K = %zu differs from %s's K = %zu: BT must be N x K (B transposed); this looks like "
                 "B (%zu x %zu): save its transpose, np.save(path, B.T)", b->shape[1], pa, k, b->shape[0],
                 b->shape[1]);
        else
            fail(err, pb, "K = %zu differs from %s's K = %zu (A is M x K, BT is N x K)", b->shape[1], pa, k);
        goto bad;
    }
    if (notes)
        for (int i = 0; i < 2; i++) {
            const struct ktpu_npy *x = i ? b : a;
            if (x->rounded)
                fprintf(notes, "note: %s: %zu of %zu elements changed when rounded to FP16 (to nearest even)\n",
                        i ? pb : pa, x->rounded, x->count);
        }
    return 0;
bad:
    ktpu_npy_free(a);
    ktpu_npy_free(b);
    return -1;
}

int ktpu_npy_read_f16(const char *path, struct ktpu_npy *out, char err[KTPU_NPY_ERR_LEN])
{
    memset(out, 0, sizeof *out);
    uint8_t *buf;
    size_t len;
    char ierr[KTPU_IN_ERR_LEN];
    if (ktpu_in_read(path, KTPU_NPY_MAX_BYTES, &buf, &len, ierr) != 0)
        return fail(err, path, "%s", ierr);
    int r = ktpu_npy_parse_f16(path, buf, len, out, err);
    free(buf);
    return r;
}

void ktpu_npy_free(struct ktpu_npy *a)
{
    free(a->data);
    a->data = NULL;
    a->count = 0;
}

int ktpu_npy_write_f16_to(FILE *f, const char *path, const uint16_t *data, int ndim,
                          const size_t *shape, char err[KTPU_NPY_ERR_LEN])
{
    char dict[64 + 24 * KTPU_NPY_MAX_DIMS];
    size_t count = 1;
    if (ndim < 0 || ndim > KTPU_NPY_MAX_DIMS)
        return fail(err, path, "cannot write %d dimensions", ndim);
    int n = snprintf(dict, sizeof dict, "{'descr': '<f2', 'fortran_order': False, 'shape': (");
    for (int i = 0; i < ndim; i++) {
        n += snprintf(dict + n, sizeof dict - (size_t)n, "%zu%s", shape[i],
                      (ndim == 1 || i + 1 < ndim) ? ", " : "");
        count *= shape[i];
    }
    if (ndim == 1) /* "(n,)" like NumPy, not "(n, )" */
        n -= 1;
    n += snprintf(dict + n, sizeof dict - (size_t)n, "), }");
    /* magic + version + length + dict + padding + '\n', a multiple of 64 */
    size_t total = 10u + (size_t)n + 1u;
    total = (total + 63u) / 64u * 64u;
    size_t hlen = total - 10u;

    uint8_t head[10];
    memcpy(head, npy_magic, sizeof npy_magic);
    head[6] = 1;
    head[7] = 0;
    head[8] = (uint8_t)(hlen & 0xFFu);
    head[9] = (uint8_t)(hlen >> 8);
    int ok = fwrite(head, 1, sizeof head, f) == sizeof head;
    ok = ok && fwrite(dict, 1, (size_t)n, f) == (size_t)n;
    for (size_t i = (size_t)n; ok && i + 1u < hlen; i++)
        ok = fputc(' ', f) != EOF;
    ok = ok && fputc('\n', f) != EOF;
    for (size_t i = 0; ok && i < count; i++) {
        uint8_t b[2] = {(uint8_t)(data[i] & 0xFFu), (uint8_t)(data[i] >> 8)};
        ok = fwrite(b, 1, 2, f) == 2;
    }
    return ok ? 0 : fail(err, path, "write failed: %s", strerror(errno));
}

int ktpu_npy_write_f16(const char *path, const uint16_t *data, int ndim, const size_t *shape,
                       char err[KTPU_NPY_ERR_LEN])
{
    struct ktpu_out o;
    char oerr[KTPU_OUT_ERR_LEN];
    if (ktpu_out_open(&o, path, oerr) != 0)
        return copy_err(err, oerr);
    if (ktpu_npy_write_f16_to(o.f, path, data, ndim, shape, err) != 0) {
        ktpu_out_abort(&o);
        return -1;
    }
    if (ktpu_out_commit(&o, oerr) != 0)
        return copy_err(err, oerr);
    return 0;
}
