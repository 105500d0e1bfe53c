/* ktpu_npy.h -- a small reader/writer for NumPy .npy files, host only
 * (stdio, malloc). Read as numpy writes them (SPEC §2): FP16, float32 or
 * float64 ('<f2', '>f2', '<f4', '>f4', '<f8', '>f8'), C or Fortran order,
 * into a C-order FP16 array; float32/float64 rounded to nearest, ties to
 * even, one step (an element that overflows FP16 or is not finite is
 * refused by its position; FP16 Inf/NaN are kept, for the tools to refuse).
 * Format versions 1.0, 2.0 and 3.0 are read (the header length is taken
 * from the file, never assumed); files are written as '<f2', C order,
 * version 1.0 (2.0 if the header would not fit). Errors come back as one
 * line naming the file and what is wrong. */
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
    size_t rounded;                  /* float32/float64 elements the rounding to FP16 changed */
};

/* Read a .npy file as FP16: a regular file of at most KTPU_NPY_MAX_BYTES
 * (ktpu_in.h). Returns 0, or -1 with err filled (e.g. "A.npy: dtype '<i2'
 * is not FP16, float32 or float64 ...", "in.fifo: not a regular file (a
 * FIFO); ..."); on error *out holds nothing to free. */
int ktpu_npy_read_f16(const char *path, struct ktpu_npy *out, char err[KTPU_NPY_ERR_LEN]);

/* Parse an in-memory .npy image (what ktpu_npy_read_f16 does after
 * reading the file); name is only used in messages. */
int ktpu_npy_parse_f16(const char *name, const uint8_t *buf, size_t len, struct ktpu_npy *out,
                       char err[KTPU_NPY_ERR_LEN]);

void ktpu_npy_free(struct ktpu_npy *a);

/* A matrix operand (what names it in messages, e.g. "A (M x K)") as the tools take it: 2-D, not
 * empty, every element finite. Returns 0, or -1 with err (one line that
 * names the file and says what to do). */
int ktpu_npy_check_matrix(const char *path, const char *what, const struct ktpu_npy *m,
                          char err[KTPU_NPY_ERR_LEN]);

/* A GEMM's operands as ktpu-ref gemm and ktpu-sim --gemm both read them, with
 * the same messages: A (M x K) and BT (N x K) checked as above, with equal K
 * (a B given for BT is named as such). A line per operand whose float32 or
 * float64 values rounding to FP16 changed goes to notes (unless NULL).
 * Returns 0, or -1 with err and nothing to free. */
int ktpu_npy_read_gemm(const char *pa, const char *pb, struct ktpu_npy *a, struct ktpu_npy *b, FILE *notes,
                       char err[KTPU_NPY_ERR_LEN]);

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
