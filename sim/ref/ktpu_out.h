/* ktpu_out.h -- the one way the host tools write an output file (C.npy,
 * Q.bin, A.npy/BT.npy, the CSV row, the FST trace, generated headers).
 * Host only (POSIX).
 *
 *   1. open: an existing PATH that is not a regular file (a directory, a
 *      device such as /dev/null, a FIFO, a symbolic link) is refused by
 *      name; a temporary file is created beside PATH with mkstemp (a fresh
 *      unpredictable name, O_EXCL: never an existing file, never through a
 *      link), with PATH's permissions if it exists, else 0666 & ~umask.
 *   2. the caller writes o->f (or, for a writer that wants a name, o->tmp).
 *   3. commit: flush, fsync, PATH checked again, rename(tmp, PATH).
 * On any failure, and on abort, only the temporary file is removed: PATH
 * is either untouched or completely replaced, never partial.
 *
 * Opening is the early check: ktpu-sim opens every output before it
 * simulates anything, so a bad path costs nothing, and commits each at the
 * end (or aborts it: a failed run replaces no file).
 *
 * Errors come back as one line naming PATH, e.g.
 *   "/dev/null: exists and is not a regular file (a character device)". */
#ifndef KTPU_OUT_H
#define KTPU_OUT_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KTPU_OUT_ERR_LEN 256

struct ktpu_out {
    char *path;  /* the target (a copy) */
    char *tmp;   /* the temporary file beside it (PATH.XXXXXX) */
    FILE *f;     /* open for writing, or NULL after ktpu_out_release */
};

/* Steps 1: validate PATH, create the temporary file, o->f open ("wb"). */
int ktpu_out_open(struct ktpu_out *o, const char *path, char err[KTPU_OUT_ERR_LEN]);

/* For an append (the CSV): copy PATH's current bytes, if it exists, to
 * the temporary file, leaving o->f positioned after them. This is
 * copy-and-replace, not O_APPEND: two runs appending to one file at the same
 * moment can lose a row. */
int ktpu_out_copy_existing(struct ktpu_out *o, char err[KTPU_OUT_ERR_LEN]);

/* Close o->f so that another writer (Verilator's FST writer) can write
 * o->tmp by name; commit then syncs and renames it as usual. Files that
 * writer makes beside o->tmp on its own (the FST writer's o->tmp.hier,
 * removed when it closes) are not known here: a process killed while it
 * writes leaves them, under the same unpredictable name. */
int ktpu_out_release(struct ktpu_out *o, char err[KTPU_OUT_ERR_LEN]);

/* Step 3. o is freed whether it succeeds or not. */
int ktpu_out_commit(struct ktpu_out *o, char err[KTPU_OUT_ERR_LEN]);

/* Remove the temporary file, leave PATH alone, free o. Safe on an o that
 * was never opened (zeroed) or already committed. */
void ktpu_out_abort(struct ktpu_out *o);

/* open, write len bytes, commit. */
int ktpu_out_write_file(const char *path, const void *buf, size_t len,
                        char err[KTPU_OUT_ERR_LEN]);

#ifdef __cplusplus
}
#endif

#endif /* KTPU_OUT_H */
