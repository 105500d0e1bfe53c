/* ktpu_npy.h -- a small reader/writer for NumPy .npy files holding FP16
 * ('<f2', C order), host only (stdio, malloc). Format versions 1.0, 2.0 and
 * 3.0 are read (the header length is taken from the file, never assumed);
 * files are written as version 1.0 (2.0 if the header would not fit).
 * Errors come back as one line naming the file and what is wrong. */
#ifndef KTPU_NPY_H
#define KTPU_NPY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KTPU_NPY_MAX_DIMS 8
#define KTPU_NPY_ERR_LEN 256
/* The largest .npy file read (1 GiB): a bound, so that a runaway input is
 * refused by name instead of filling memory. */
#define KTPU_NPY_MAX_BYTES ((size_t)1 << 30)

struct ktpu_npy {
    int ndim;                        /* 0 .. KTPU_NPY_MAX_DIMS */
    size_t shape[KTPU_NPY_MAX_DIMS];
    size_t count;                    /* product of the shape */
    uint16_t *data;                  /* count FP16 bit patterns (malloc) */
};

/* Read an FP16 .npy file: a regular file of at most KTPU_NPY_MAX_BYTES
 * (ktpu_in.h). Returns 0, or -1 with err filled (e.g. "A.npy: dtype '<f4'
 * is not FP16 ('<f2')", "in.fifo: not a regular file (a FIFO); ..."); on
 * error *out holds nothing to free. */
int ktpu_npy_read_f16(const char *path, struct ktpu_npy *out, char err[KTPU_NPY_ERR_LEN]);

/* Parse an in-memory .npy image (what ktpu_npy_read_f16 does after
 * reading the file); name is only used in messages. */
int ktpu_npy_parse_f16(const char *name, const uint8_t *buf, size_t len, struct ktpu_npy *out,
                       char err[KTPU_NPY_ERR_LEN]);

void ktpu_npy_free(struct ktpu_npy *a);

/* Write count = prod(shape) FP16 values as a C-order '<f2' .npy file,
 * through ktpu_out.h (only a regular file is replaced, a temporary file
 * beside it renamed into place: a failure never leaves a partial file under
 * the final name). Returns 0, or -1 with err filled. */
int ktpu_npy_write_f16(const char *path, const uint16_t *data, int ndim, const size_t *shape,
                       char err[KTPU_NPY_ERR_LEN]);

/* The same bytes to a stream (an output opened early with ktpu_out_open);
 * path names it in messages. */
int ktpu_npy_write_f16_to(FILE *f, const char *path, const uint16_t *data, int ndim,
                          const size_t *shape, char err[KTPU_NPY_ERR_LEN]);

#ifdef __cplusplus
}
#endif

#endif /* KTPU_NPY_H */
