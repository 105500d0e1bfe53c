/* ktpu-ref: the C reference as a command (SPEC §2).
 *   ktpu-ref gemm [--split-k S] A.npy BT.npy C.npy
 *                                      C = A x B exactly as one cluster (or as
 *                                      S clusters splitting K compute it)
 *   ktpu-ref quant X.npy Q.bin         MXFP7 storage of an FP16 matrix
 * Bad input: one line "ktpu-ref: FILE: what is wrong" on stderr, status 1
 * (2 for a usage error), and no output file is created or replaced. The
 * output is opened first (ktpu_out.h: only a regular file is replaced), so a
 * bad output path is refused before any work. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktpu_arg.h"
#include "ktpu_npy.h"
#include "ktpu_out.h"
#include "ktpu_ref.h"
#include "ktpu_version.h"

static const char usage_text[] =
    "usage: ktpu-ref gemm [--split-k S] A.npy BT.npy C.npy\n"
    "       ktpu-ref quant X.npy Q.bin\n"
    "       ktpu-ref --help\n"
    "\n"
    "gemm   A is M x K, BT is N x K (B transposed), both .npy as numpy writes\n"
    "       them: FP16, float32 or float64 (rounded to FP16, nearest even), either\n"
    "       byte order, C or Fortran order (a note on stderr says how many\n"
    "       elements rounding changed); any M, N, K >= 1, K padded with zeros\n"
    "       to a multiple of 32 as ktpu-sim pads it. Writes C = A x B, M x N FP16,\n"
    "       exactly as one cluster computes it: both operands quantised to\n"
    "       MXFP7 per 32-block (SPEC 3.2), each element accumulated in FP22 in\n"
    "       increasing K-block order (LOAD, ADD..., then R16), SPEC 3.3-3.5.\n"
    "       --split-k S: as S clusters splitting K compute it (what ktpu-sim's\n"
    "       report names): K's blocks in S ranges, the first K/32 mod S one\n"
    "       block longer, each summed as above, the S partial tiles then added\n"
    "       pairwise (part i + part i+d, d = 1, 2, 4, ...; one FP22 rounding\n"
    "       each), SPEC 3.5. 1 <= S <= K/32.\n"
    "quant  X is R x C FP16, C a multiple of 32. Writes R x C/32 blocks of 32\n"
    "       bytes (SPEC 3.1 storage), row-major.\n"
    "\n"
    "Inputs are read from regular files only (at most 1 GiB). The output is\n"
    "written only as a regular file: an existing output that is a directory,\n"
    "device, FIFO or symbolic link is refused; the result goes to a fresh\n"
    "temporary file beside it (mkstemp), which is synced and renamed over it.\n"
    "A file name may not begin with '-' (write ./-name).\n"
    "\n"
    "Errors (status 1, nothing written): unreadable or truncated file, not a\n"
    ".npy, a dtype other than f2/f4/f8, a float32/float64 element that\n"
    "overflows FP16, rank other than 2, an empty matrix, K mismatch (B given\n"
    "for BT is named), for quant C not a multiple of 32, any Inf/NaN operand, an\n"
    "input that is not a regular file, an output that cannot be written.\n"
    "Warnings (stderr, status 0, output written): ACC_OVERFLOW (an FP22\n"
    "accumulation saturated) and FP16_OVERFLOW (outputs saturated to +-65504).\n";

static int die(const char *msg)
{
    fprintf(stderr, "ktpu-ref: %s\n", msg);
    return 1;
}

static int die_file(const char *path, const char *msg)
{
    fprintf(stderr, "ktpu-ref: %s: %s\n", path, msg);
    return 1;
}

/* ktpu-ref quant's input: an operand whose rows are whole MXFP7 blocks. */
static int load_matrix(const char *path, struct ktpu_npy *m, char *err)
{
    if (ktpu_npy_read_f16(path, m, err) != 0)
        return -1;
    if (ktpu_npy_check_matrix(path, "X", m, err) == 0) {
        if (m->shape[1] % KTPU_MX_BLOCK_K == 0)
            return 0;
        snprintf(err, KTPU_NPY_ERR_LEN, "%s: row length %zu is not a multiple of %d", path, m->shape[1],
                 KTPU_MX_BLOCK_K);
    }
    ktpu_npy_free(m);
    return -1;
}

/* rows x k FP16 as rows x kp (kp >= k), the rest of each row zero: K padded
 * to whole blocks as ktpu-sim pads it (zeros change no block's scale) */
static uint16_t *pad_k(const uint16_t *x, size_t rows, size_t k, size_t kp)
{
    uint16_t *p = calloc(rows * kp, sizeof *p);
    if (p)
        for (size_t r = 0; r < rows; r++) memcpy(p + r * kp, x + r * k, k * sizeof *p);
    return p;
}

static unsigned split_k = 1;   /* gemm --split-k S */

static int cmd_gemm(const char *pa, const char *pb, struct ktpu_out *out)
{
    char err[KTPU_NPY_ERR_LEN];
    struct ktpu_npy a, b;
    if (ktpu_npy_read_gemm(pa, pb, &a, &b, stderr, err) != 0)
        return die(err);
    size_t m = a.shape[0], k0 = a.shape[1], n = b.shape[0];
    size_t k = (k0 + KTPU_MX_BLOCK_K - 1) / KTPU_MX_BLOCK_K * KTPU_MX_BLOCK_K;
    if (k != k0) {
        uint16_t *pa16 = pad_k(a.data, m, k0, k), *pb16 = pad_k(b.data, n, k0, k);
        free(a.data);
        free(b.data);
        a.data = pa16;
        b.data = pb16;
        if (!pa16 || !pb16) {
            ktpu_npy_free(&a);
            ktpu_npy_free(&b);
            return die("out of memory");
        }
    }
    if (split_k > k / 32u) {
        snprintf(err, sizeof err, "--split-k %u: more parts than K's %zu blocks of 32 (K = %zu)", split_k,
                 k / 32u, k);
        ktpu_npy_free(&a);
        ktpu_npy_free(&b);
        return die(err);
    }
    if (m > ((size_t)-1 / 8u) / n / split_k) {
        ktpu_npy_free(&a);
        ktpu_npy_free(&b);
        return die("output too large");
    }
    int8_t *qa = malloc(m * k), *qb = malloc(n * k);
    uint8_t *sa = malloc(m * k / 32u), *sb = malloc(n * k / 32u);
    uint32_t *tile = malloc(m * n * split_k * sizeof *tile);   /* part 0, then the others' scratch */
    uint16_t *c = malloc(m * n * sizeof *c);
    int rc = 0;
    if (!qa || !qb || !sa || !sb || !tile || !c) {
        rc = die("out of memory");
    } else {
        unsigned fl = ktpu_ref_quant_matrix(a.data, m, k, qa, sa);
        fl |= ktpu_ref_quant_matrix(b.data, n, k, qb, sb);
        fl |= ktpu_ref_gemm_mx_split(m, n, k, split_k, qa, sa, qb, sb, tile + m * n, tile, c);
        if (fl & KTPU_FLAG_NONFINITE) {
            rc = die("internal error: NONFINITE after the input scan");
        } else if (ktpu_npy_write_f16_to(out->f, out->path, c, 2, (size_t[]){m, n}, err) != 0 ||
                   ktpu_out_commit(out, err) != 0) {
            rc = die(err);
        } else {
            if (fl & KTPU_FLAG_ACC_OVERFLOW)
                fprintf(stderr, "ktpu-ref: warning: ACC_OVERFLOW: an FP22 accumulation "
                                "saturated at (2 - 2^-14) x 2^64\n");
            if (fl & KTPU_FLAG_ACC_UNDERFLOW)
                fprintf(stderr, "ktpu-ref: warning: ACC_UNDERFLOW: an FP22 result below "
                                "2^-62 became 0\n");
            if (fl & KTPU_FLAG_FP16_OVERFLOW) {
                size_t sat = 0;
                for (size_t e = 0; e < m * n; e++) {
                    unsigned f = 0;
                    (void)ktpu_ref_r16(tile[e], &f);
                    sat += (f & KTPU_FLAG_FP16_OVERFLOW) != 0;
                }
                fprintf(stderr, "ktpu-ref: warning: FP16_OVERFLOW: %zu of %zu outputs "
                                "saturated to +-65504\n", sat, m * n);
            }
        }
    }
    free(qa);
    free(qb);
    free(sa);
    free(sb);
    free(tile);
    free(c);
    ktpu_npy_free(&a);
    ktpu_npy_free(&b);
    return rc;
}

static int cmd_quant(const char *px, const char *unused, struct ktpu_out *out)
{
    (void)unused;
    char err[KTPU_NPY_ERR_LEN];
    struct ktpu_npy x;
    if (load_matrix(px, &x, err) != 0)
        return die(err);
    size_t nblk = x.count / KTPU_MX_BLOCK_K;
    uint8_t *q = malloc(nblk * KTPU_MX_STORE_BYTES + 1u);
    int rc = 0;
    if (!q) {
        rc = die("out of memory");
    } else {
        unsigned fl = 0;
        for (size_t blk = 0; blk < nblk; blk++) {
            int8_t qb[KTPU_MX_BLOCK_K];
            uint8_t s;
            fl |= ktpu_ref_quant_block(x.data + blk * KTPU_MX_BLOCK_K, qb, &s);
            ktpu_ref_mx_store(qb, s, q + blk * KTPU_MX_STORE_BYTES);
        }
        if (fl & KTPU_FLAG_NONFINITE)
            rc = die("internal error: NONFINITE after the input scan");
        else if (nblk && fwrite(q, KTPU_MX_STORE_BYTES, nblk, out->f) != nblk)
            rc = die_file(out->path, "write failed");
        else if (ktpu_out_commit(out, err) != 0)
            rc = die(err);
    }
    free(q);
    ktpu_npy_free(&x);
    return rc;
}

/* The files of a command: inputs, then the output, opened before any work
 * (ktpu_out_abort on every path that does not commit it). */
static int run(const char *name, int (*cmd)(const char *, const char *, struct ktpu_out *),
               const char *in1, const char *in2, const char *outp)
{
    char err[KTPU_ARG_ERR_LEN], oerr[KTPU_OUT_ERR_LEN];
    const char *files[3] = {in1, in2, outp};
    for (int i = 0; i < 3; i++)
        if (files[i] && ktpu_arg_file(name, files[i], err) != 0) {
            fprintf(stderr, "ktpu-ref: %s\n", err);
            return 2;
        }
    struct ktpu_out out;
    if (ktpu_out_open(&out, outp, oerr) != 0)
        return die(oerr);
    int rc = cmd(in1, in2, &out);
    ktpu_out_abort(&out);   /* nothing left to do if it was committed */
    return rc;
}

int main(int argc, char **argv)
{
    static const char *const flags[] = {"--help", "--version", NULL};
    char nerr[KTPU_ARG_ERR_LEN];
    if (!(argv = ktpu_arg_normalise(&argc, argv, flags, nerr))) {   /* --split-k=S as well */
        fprintf(stderr, "ktpu-ref: %s\n", nerr);
        return 2;
    }
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("ktpu-ref %s\n", KTPU_VERSION);
        return 0;
    }
    if (argc == 7 && strcmp(argv[1], "gemm") == 0 && strcmp(argv[2], "--split-k") == 0) {
        uint64_t s;
        char err[KTPU_ARG_ERR_LEN];
        if (ktpu_arg_u64("--split-k", argv[3], 1, 16, &s, err) != 0) {
            fprintf(stderr, "ktpu-ref: %s\n", err);
            return 2;
        }
        split_k = (unsigned)s;
        return run("gemm", cmd_gemm, argv[4], argv[5], argv[6]);
    }
    if (argc == 5 && strcmp(argv[1], "gemm") == 0)
        return run("gemm", cmd_gemm, argv[2], argv[3], argv[4]);
    if (argc == 4 && strcmp(argv[1], "quant") == 0)
        return run("quant", cmd_quant, argv[2], NULL, argv[3]);
    if (argc >= 2 && strcmp(argv[1], "gemm") != 0 && strcmp(argv[1], "quant") != 0)
        fprintf(stderr, "ktpu-ref: unknown command '%s' (try --help)\n", argv[1]);
    else
        fprintf(stderr, "ktpu-ref: wrong arguments (usage: ktpu-ref gemm [--split-k S] A.npy BT.npy C.npy | "
                        "ktpu-ref quant X.npy Q.bin | --help | --version)\n");
    return 2;
}
