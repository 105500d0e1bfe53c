/* ktpu_in.c -- reading a whole input file (ktpu_in.h). */
#define _POSIX_C_SOURCE 200809L
#include "ktpu_in.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, KTPU_IN_ERR_LEN, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *kind(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISSOCK(m)) return "a socket";
    return "a special file";
}

int ktpu_in_read(const char *path, size_t max, uint8_t **buf, size_t *len,
                 char err[KTPU_IN_ERR_LEN])
{
    *buf = NULL, *len = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK);
    if (fd < 0)
        return fail(err, "cannot open: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return fail(err, "cannot open: %s", strerror(e));
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return fail(err, "not a regular file (%s); inputs are read from regular files only",
                    kind(st.st_mode));
    }
    if (st.st_size < 0 || (uintmax_t)st.st_size > (uintmax_t)max) {
        close(fd);
        return fail(err, "%jd bytes, more than the %zu this tool reads", (intmax_t)st.st_size,
                    max);
    }
    size_t size = (size_t)st.st_size, got = 0;
    uint8_t *b = malloc(size + 1);
    if (!b) {
        close(fd);
        return fail(err, "out of memory for %zu bytes", size);
    }
    /* one byte more than the size: a file that grew is not read half */
    while (got <= size) {
        ssize_t n = read(fd, b + got, size + 1 - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            free(b);
            close(fd);
            return fail(err, "read error: %s", strerror(e));
        }
        if (n == 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (got != size) {
        free(b);
        return fail(err, "changed while being read (%zu bytes, then %s%zu)", size,
                    got > size ? "more than " : "", got);
    }
    *buf = b, *len = size;
    return 0;
}
