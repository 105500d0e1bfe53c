/* ktpu_arg.c -- command-line values (ktpu_arg.h). No strtoul: it accepts
 * blanks and a sign ("-1" is 2^64 - 1) and, with base 0, octal and hex. */
#include "ktpu_arg.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, KTPU_ARG_ERR_LEN, fmt, ap);
    va_end(ap);
    return -1;
}

/* Digits s[0..len) as a number; 0 = ok, 1 = not digits, 2 = above 2^64-1. */
static int digits(const char *s, size_t len, uint64_t *v)
{
    uint64_t x = 0;
    int big = 0;
    if (len == 0)
        return 1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 1;
        unsigned d = (unsigned)(s[i] - '0');
        if (x > (UINT64_MAX - d) / 10u)
            big = 1;
        else
            x = x * 10u + d;
    }
    *v = x;
    return big ? 2 : 0;
}

const char *ktpu_arg_quote(char q[KTPU_ARG_QUOTE_LEN], const char *s)
{
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    for (size_t i = 0; i < 80 && s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x20 || c == 0x7f) {
            q[n++] = '\\', q[n++] = 'x', q[n++] = hex[c >> 4], q[n++] = hex[c & 15];
        } else {
            q[n++] = (char)c;
        }
    }
    q[n] = '\0';
    return q;
}

/* Values are quoted in messages, cut to keep the line short, and never
 * with a raw newline or escape in them (ktpu_arg_quote). */
#define SHOWN "'%s'"

/* s as a decimal number into *x: 0, 2 if it does not fit 64 bits, or -1
 * with the error written (no value, not digits). */
static int decimal(const char *opt, const char *s, uint64_t *x, char err[KTPU_ARG_ERR_LEN])
{
    char q[KTPU_ARG_QUOTE_LEN];
    if (!s)
        return fail(err, "%s needs a value", opt);
    int r = digits(s, strlen(s), x);
    if (r == 1)
        return fail(err, "%s: " SHOWN " is not a decimal number (digits 0-9 only)", opt,
                    ktpu_arg_quote(q, s));
    return r;
}

int ktpu_arg_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *v,
                 char err[KTPU_ARG_ERR_LEN])
{
    uint64_t x = 0;
    char q[KTPU_ARG_QUOTE_LEN];
    int r = decimal(opt, s, &x, err);
    if (r < 0)
        return r;
    if (r == 2 || x < lo || x > hi)
        return fail(err, "%s: " SHOWN " is not in %llu..%llu", opt, ktpu_arg_quote(q, s),
                    (unsigned long long)lo,
                    (unsigned long long)hi);
    *v = x;
    return 0;
}

int ktpu_arg_one_of(const char *opt, const char *s, const uint64_t *set, unsigned n, uint64_t *v,
                    char err[KTPU_ARG_ERR_LEN])
{
    uint64_t x = 0;
    char q[KTPU_ARG_QUOTE_LEN];
    int r = decimal(opt, s, &x, err);
    if (r < 0)
        return r;
    for (unsigned i = 0; r == 0 && i < n; i++)
        if (set[i] == x) {
            *v = x;
            return 0;
        }
    char list[128] = "";
    for (unsigned i = 0; i < n; i++) {
        size_t l = strlen(list);
        snprintf(list + l, sizeof list - l, "%s%llu", i ? ", " : "", (unsigned long long)set[i]);
    }
    return fail(err, "%s: " SHOWN " is not one of %s", opt, ktpu_arg_quote(q, s), list);
}

int ktpu_arg_tuple(const char *opt, const char *s, char sep, const char *form,
                   const char *const *names, unsigned n, uint64_t lo, uint64_t hi, uint64_t *v,
                   char err[KTPU_ARG_ERR_LEN])
{
    char q[KTPU_ARG_QUOTE_LEN];
    if (!s)
        return fail(err, "%s needs a value (%s)", opt, form);
    ktpu_arg_quote(q, s);
    const char *p = s;
    for (unsigned i = 0; i < n; i++) {
        const char *end = i + 1 < n ? strchr(p, sep) : p + strlen(p);
        if (!end || (i + 1 == n && strchr(p, sep)))
            return fail(err, "%s: " SHOWN " is not %s (%u decimal numbers joined by '%c')", opt,
                        q, form, n, sep);
        uint64_t x = 0;
        int r = digits(p, (size_t)(end - p), &x);
        if (r == 1)
            return fail(err, "%s: %s in " SHOWN " is not a decimal number (digits 0-9 only)", opt,
                        names[i], q);
        if (r == 2 || x < lo || x > hi)
            return fail(err, "%s: %s in " SHOWN " is not in %llu..%llu", opt, names[i], q,
                        (unsigned long long)lo, (unsigned long long)hi);
        v[i] = x;
        p = end + 1;
    }
    return 0;
}

int ktpu_arg_file(const char *opt, const char *s, char err[KTPU_ARG_ERR_LEN])
{
    char q[KTPU_ARG_QUOTE_LEN];
    if (!s)
        return fail(err, "%s needs a file name", opt);
    if (!*s)
        return fail(err, "%s: the file name is empty", opt);
    if (*s == '-')
        return fail(err, "%s: " SHOWN " looks like an option, not a file name (write ./%s "
                         "for a file of that name)", opt, ktpu_arg_quote(q, s), q);
    return 0;
}

char **ktpu_arg_normalise(int *argc, char **argv, const char *const *flags, char err[KTPU_ARG_ERR_LEN])
{
    char q[KTPU_ARG_QUOTE_LEN];
    /* at most one more word per argument */
    char **out = malloc(sizeof *out * (2 * (size_t)*argc + 1));
    int n = 0;
    if (!out) {
        fail(err, "out of memory for the command line");
        return NULL;
    }
    for (int i = 0; i < *argc; i++) {
        const char *a = argv[i], *eq = i && !strncmp(a, "--", 2) ? strchr(a, '=') : NULL;
        if (!eq) {
            out[n++] = argv[i];
            continue;
        }
        size_t len = (size_t)(eq - a);
        for (const char *const *f = flags; *f; f++)
            if (strlen(*f) == len && !strncmp(*f, a, len)) {
                fail(err, "%s takes no value (" SHOWN ")", *f, ktpu_arg_quote(q, a));
                free(out);
                return NULL;
            }
        char *name = malloc(len + 1);
        if (!name) {
            fail(err, "out of memory for the command line");
            free(out);
            return NULL;
        }
        memcpy(name, a, len);
        name[len] = 0;
        out[n++] = name;
        out[n++] = (char *)(eq + 1);
    }
    out[n] = NULL;
    *argc = n;
    return out;
}
