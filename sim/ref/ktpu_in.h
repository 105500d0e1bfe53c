/* ktpu_in.h -- the one way the host tools read a whole input file (.npy
 * operands, ELF programs). Host only (POSIX). Only a regular file is read
 * (a symbolic link to one is fine): /dev/zero, a FIFO or a directory is
 * refused by name instead of hanging or filling memory, and so is a file
 * larger than the caller's bound. The file is opened without blocking (a
 * FIFO with no writer cannot stall the open), its size taken from fstat,
 * and exactly that many bytes are read.
 *
 * Returns 0 with *buf (malloc, len + 1 bytes, free it) and *len, or -1 with
 * a message in err that does not repeat the path (callers put it first):
 * "cannot open: No such file or directory", "not a regular file (a FIFO);
 * inputs are read from regular files only", "2147483648 bytes, more than
 * the 1073741824 this tool reads". */
#ifndef KTPU_IN_H
#define KTPU_IN_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KTPU_IN_ERR_LEN 192

int ktpu_in_read(const char *path, size_t max, uint8_t **buf, size_t *len,
                 char err[KTPU_IN_ERR_LEN]);

#ifdef __cplusplus
}
#endif

#endif /* KTPU_IN_H */
