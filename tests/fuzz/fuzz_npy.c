/* Fuzzes the .npy reader's in-memory parse (ktpu_npy_parse_f16, what
 * ktpu_npy_read_f16 runs on a file's bytes). Invariants: a refusal is one
 * terminated line naming the input, with nothing left to free; an accepted
 * array has 0..8 dimensions whose product is count, and its data are the
 * input's last 2*count bytes (little-endian); writing it back
 * (ktpu_npy_write_f16_to) and parsing that gives the same array. */
#define _POSIX_C_SOURCE 200809L   /* fmemopen */
#include <stdio.h>
#include <string.h>

#include "fuzz.h"
#include "ktpu_npy.h"

#define ROUND_TRIP_MAX ((size_t)1 << 16)   /* elements written back */

/* An accepted input whose header says '<f2' (either quote) and C order:
 * its data need no conversion. (float32/float64, big-endian and Fortran
 * inputs are checked by the round trip below and by tests/ref/test_npy.c.) */
static int le_f16_c_order(const uint8_t *data, size_t size)
{
    size_t hoff = data[6] == 1 ? 10 : 12;
    size_t hlen = data[6] == 1 ? (size_t)data[8] | (size_t)data[9] << 8
                               : (size_t)data[8] | (size_t)data[9] << 8 | (size_t)data[10] << 16 |
                                     (size_t)data[11] << 24;
    if (hoff + hlen > size) return 0;
    const char *h = (const char *)data + hoff;
    int f2 = 0, c_order = 0;
    for (size_t i = 0; i + 5 <= hlen; i++) {
        if ((h[i] == '\'' || h[i] == '"') && !memcmp(h + i + 1, "<f2", 3) && h[i + 4] == h[i]) f2 = 1;
        if (!memcmp(h + i, "False", 5)) c_order = 1;
    }
    return f2 && c_order;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ktpu_npy a, b;
    char err[KTPU_NPY_ERR_LEN];
    memset(err, 'x', sizeof err);
    if (ktpu_npy_parse_f16("in.npy", data, size, &a, err) != 0) {
        FUZZ_ASSERT(memchr(err, 0, sizeof err) != NULL, "%s", "message not terminated");
        FUZZ_ASSERT(strncmp(err, "in.npy: ", 8) == 0 && err[8], "'%s'", err);
        FUZZ_ASSERT(fuzz_one_line(err), "'%s'", err);
        FUZZ_ASSERT(a.data == NULL, "%s", "refused, but data allocated");
        return 0;
    }
    FUZZ_ASSERT(a.ndim >= 0 && a.ndim <= KTPU_NPY_MAX_DIMS, "ndim %d", a.ndim);
    size_t count = 1;
    for (int i = 0; i < a.ndim; i++) count *= a.shape[i];
    FUZZ_ASSERT(count == a.count, "count %zu, shape product %zu", a.count, count);
    FUZZ_ASSERT(a.data != NULL, "%s", "accepted without data");
    FUZZ_ASSERT(size >= 10 + 2 * count, "%zu elements in %zu bytes", count, size);
    if (le_f16_c_order(data, size)) {
        /* stored as it is kept: the data are the input's last bytes */
        const uint8_t *d = data + size - 2 * count;
        for (size_t i = 0; i < count; i++)
            FUZZ_ASSERT(a.data[i] == (uint16_t)(d[2 * i] | d[2 * i + 1] << 8), "element %zu", i);
    }

    if (count <= ROUND_TRIP_MAX) {
        size_t cap = 2 * count + 1024;
        uint8_t *img = malloc(cap);
        FILE *f = img ? fmemopen(img, cap, "wb") : NULL;
        FUZZ_ASSERT(f != NULL, "%s", "fmemopen");
        int w = ktpu_npy_write_f16_to(f, "out.npy", a.data, a.ndim, a.shape, err);
        FUZZ_ASSERT(w == 0, "write back: %s", err);
        FUZZ_ASSERT(fflush(f) == 0, "%s", "fflush");
        long len = ftell(f);
        FUZZ_ASSERT(len > 0 && (size_t)len <= cap, "%ld bytes written", len);
        FUZZ_ASSERT((len - (long)(2 * count)) % 64 == 0, "header of %ld bytes", len - (long)(2 * count));
        int r = ktpu_npy_parse_f16("out.npy", img, (size_t)len, &b, err);
        FUZZ_ASSERT(r == 0, "written back, refused: %s", err);
        FUZZ_ASSERT(b.ndim == a.ndim && b.count == a.count, "ndim %d/%d", a.ndim, b.ndim);
        for (int i = 0; i < a.ndim; i++) FUZZ_ASSERT(a.shape[i] == b.shape[i], "dimension %d", i);
        FUZZ_ASSERT(memcmp(a.data, b.data, 2 * count) == 0, "%s", "data differ after writing back");
        ktpu_npy_free(&b);
        fclose(f);
        free(img);
    }
    ktpu_npy_free(&a);
    FUZZ_ASSERT(a.data == NULL && a.count == 0, "%s", "ktpu_npy_free left data");
    return 0;
}
