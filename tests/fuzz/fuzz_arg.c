/* Fuzzes the command-line value parser (sim/ref/ktpu_arg.c) against a
 * second model written here. The first byte picks the function and its
 * range, the rest (up to a NUL) is the value; bit 7 of the first byte
 * passes NULL (the option was last on the line). Each call must succeed
 * exactly when the model says the value is valid, return the model's
 * numbers, and otherwise leave one terminated line naming the option. */
#define _POSIX_C_SOURCE 200809L   /* strnlen */
#include <string.h>

#include "fuzz.h"
#include "ktpu_arg.h"

/* A decimal number: 0 = ok (*v), 1 = not digits, 2 = above 2^64 - 1. The
 * model compares the digits (leading zeros dropped) with 2^64 - 1's. */
static int model_num(const char *s, size_t len, uint64_t *v)
{
    static const char max[] = "18446744073709551615";
    if (len == 0) return 1;
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9') return 1;
    while (len > 1 && *s == '0') s++, len--;
    if (len > 20 || (len == 20 && memcmp(s, max, 20) > 0)) return 2;
    uint64_t x = 0;
    for (size_t i = 0; i < len; i++) x = x * 10 + (uint64_t)(s[i] - '0');
    *v = x;
    return 0;
}

static void check_err(int rc, const char *err, const char *opt)
{
    if (rc == 0) return;
    FUZZ_ASSERT(rc == -1, "rc %d", rc);
    FUZZ_ASSERT(memchr(err, 0, KTPU_ARG_ERR_LEN) != NULL, "%s", "message not terminated");
    FUZZ_ASSERT(strncmp(err, opt, strlen(opt)) == 0, "'%s' does not name %s", err, opt);
    FUZZ_ASSERT(fuzz_one_line(err), "'%s'", err);
}

struct range { uint64_t lo, hi; };
static const struct range ranges[] = {
    {0, UINT64_MAX}, {1, UINT64_MAX}, {1, 65536}, {1, 100000}, {0, 65535}, {5, 5},
    {UINT64_MAX, UINT64_MAX}, {10, 9},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) return 0;
    unsigned mode = data[0] & 3u, sel = (data[0] >> 2) & 7u;
    int null = data[0] >> 7;
    size_t len = strnlen((const char *)data + 1, size - 1);
    char *s = malloc(len + 1);   /* exactly the string: a read past it is caught */
    FUZZ_ASSERT(s != NULL, "%s", "malloc");
    memcpy(s, data + 1, len);
    s[len] = '\0';
    const char *val = null ? NULL : s;
    char err[KTPU_ARG_ERR_LEN];
    memset(err, 'x', sizeof err);
    uint64_t v = 0, x = 0;
    int rc, m;

    switch (mode) {
    case 0: {   /* ktpu_arg_u64 */
        struct range r = ranges[sel];
        rc = ktpu_arg_u64("--num", val, r.lo, r.hi, &v, err);
        m = null ? 1 : model_num(s, len, &x);
        int ok = m == 0 && x >= r.lo && x <= r.hi;
        FUZZ_ASSERT((rc == 0) == ok, "'%s' in %llu..%llu: rc %d, model %d", s, (unsigned long long)r.lo,
                    (unsigned long long)r.hi, rc, m);
        FUZZ_ASSERT(!ok || v == x, "'%s': %llu, model %llu", s, (unsigned long long)v, (unsigned long long)x);
        check_err(rc, err, null ? "--num needs" : "--num: ");
        break;
    }
    case 1: {   /* ktpu_arg_one_of, the --clusters set */
        static const uint64_t set[3] = {1, 2, 4};
        rc = ktpu_arg_one_of("--clusters", val, set, 3, &v, err);
        m = null ? 1 : model_num(s, len, &x);
        int ok = m == 0 && (x == 1 || x == 2 || x == 4);
        FUZZ_ASSERT((rc == 0) == ok, "'%s': rc %d, model %d", s, rc, m);
        FUZZ_ASSERT(!ok || v == x, "'%s': %llu", s, (unsigned long long)v);
        check_err(rc, err, "--clusters");
        break;
    }
    case 2: {   /* ktpu_arg_tuple: --gemm-gen MxKxN or --test-corrupt-ref ROW,COL */
        static const char *const names[3] = {"M", "K", "N"};
        int gen = !(sel & 1);
        unsigned n = gen ? 3 : 2;
        char sep = gen ? 'x' : ',';
        uint64_t lo = gen ? 1 : 0, hi = gen ? 65536 : 65535, t[3] = {0, 0, 0}, want[3] = {0, 0, 0};
        rc = ktpu_arg_tuple(gen ? "--gemm-gen" : "--test-corrupt-ref", val, sep, gen ? "MxKxN" : "ROW,COL",
                            names, n, lo, hi, t, err);
        /* the model: exactly n - 1 separators, every field a number in lo..hi */
        int ok = !null;
        unsigned field = 0;
        size_t start = 0;
        for (size_t i = 0; ok && i <= len; i++) {
            if (i < len && s[i] != sep) continue;
            if (field == n || model_num(s + start, i - start, &want[field]) != 0 || want[field] < lo ||
                want[field] > hi)
                ok = 0;
            field++;
            start = i + 1;
        }
        ok = ok && field == n;
        FUZZ_ASSERT((rc == 0) == ok, "'%s' as %u fields: rc %d, model %d", s, n, rc, ok);
        for (unsigned i = 0; ok && i < n; i++)
            FUZZ_ASSERT(t[i] == want[i], "'%s' field %u: %llu, model %llu", s, i, (unsigned long long)t[i],
                        (unsigned long long)want[i]);
        check_err(rc, err, gen ? "--gemm-gen" : "--test-corrupt-ref");
        break;
    }
    default: {   /* ktpu_arg_file */
        rc = ktpu_arg_file("-o", val, err);
        int ok = !null && len > 0 && s[0] != '-';
        FUZZ_ASSERT((rc == 0) == ok, "'%s': rc %d", s, rc);
        check_err(rc, err, "-o");
        break;
    }
    }
    free(s);
    return 0;
}
