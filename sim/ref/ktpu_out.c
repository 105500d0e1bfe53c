/* ktpu_out.c -- writing an output file (ktpu_out.h). Not fopen(PATH, "w")
 * (truncates a file another run is reading, writes into a device or through
 * a link) and not a fixed "PATH.tmp" (a planted link there is followed, and
 * a user's own PATH.tmp would be clobbered and then deleted).
 *
 * Temporary files still open when the process exits (a harness error after
 * the outputs were opened) or is stopped by SIGINT, SIGTERM or SIGHUP are
 * removed: the open outputs are kept in a small table for that. */
#define _POSIX_C_SOURCE 200809L
#include "ktpu_out.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int fail(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, KTPU_OUT_ERR_LEN, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- the table of open outputs (exit and signal clean-up) ---------------- */

#define LIVE_MAX 16
static char *volatile live[LIVE_MAX];   /* temporary names, NULL = free */

static void remove_live(void)
{
    for (int i = 0; i < LIVE_MAX; i++)
        if (live[i])
            unlink(live[i]);   /* async-signal-safe */
}

static void on_signal(int sig)
{
    remove_live();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void on_exit_cleanup(void) { remove_live(); }

static int live_add(char *tmp)
{
    static int hooked;
    if (!hooked) {
        hooked = 1;
        atexit(on_exit_cleanup);
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
        for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
            struct sigaction sa, old;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_signal;
            sigemptyset(&sa.sa_mask);
            /* an inherited "ignore" stays ignored */
            if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL)
                sigaction(sigs[i], &sa, NULL);
        }
    }
    for (int i = 0; i < LIVE_MAX; i++)
        if (!live[i]) {
            live[i] = tmp;
            return 0;
        }
    return -1;
}

static void live_remove(const char *tmp)
{
    for (int i = 0; i < LIVE_MAX; i++)
        if (live[i] == tmp)
            live[i] = NULL;
}

/* ---- checks -------------------------------------------------------------- */

static const char *kind(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISLNK(m)) return "a symbolic link";
    if (S_ISSOCK(m)) return "a socket";
    return "a special file";
}

/* 0: PATH does not exist; 1: a regular file (permissions in *perm);
 * -1: refused, message in err. The link itself is looked at (lstat). */
static int check_target(const char *path, mode_t *perm, char *err)
{
    struct stat st;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return 0;
        return fail(err, "%s: cannot create: %s", path, strerror(errno));
    }
    if (!S_ISREG(st.st_mode))
        return fail(err, "%s: exists and is not a regular file (%s); outputs are only written "
                         "as regular files", path, kind(st.st_mode));
    *perm = st.st_mode & 0777;
    return 1;
}

static void release(struct ktpu_out *o)
{
    if (o->tmp)
        live_remove(o->tmp);
    free(o->tmp);
    free(o->path);
    memset(o, 0, sizeof *o);
}

/* ---- the interface ------------------------------------------------------- */

int ktpu_out_open(struct ktpu_out *o, const char *path, char err[KTPU_OUT_ERR_LEN])
{
    memset(o, 0, sizeof *o);
    if (!*path)
        return fail(err, "cannot create an output with an empty name");
    mode_t perm = 0;
    int have = check_target(path, &perm, err);
    if (have < 0)
        return -1;
    if (!have) {
        mode_t mask = umask(0);
        umask(mask);
        perm = 0666 & ~mask;
    }
    size_t len = strlen(path);
    o->path = malloc(len + 1);
    o->tmp = malloc(len + 8);
    if (!o->path || !o->tmp) {
        release(o);
        return fail(err, "%s: out of memory", path);
    }
    memcpy(o->path, path, len + 1);
    memcpy(o->tmp, path, len);
    memcpy(o->tmp + len, ".XXXXXX", 8);
    int fd = mkstemp(o->tmp);
    if (fd < 0) {
        int e = errno;
        free(o->tmp);
        o->tmp = NULL;
        release(o);
        return fail(err, "%s: cannot create: %s", path, strerror(e));
    }
    if (live_add(o->tmp) != 0 || fchmod(fd, perm) != 0 || !(o->f = fdopen(fd, "wb"))) {
        int e = errno;
        close(fd);
        unlink(o->tmp);
        release(o);
        return fail(err, "%s: cannot create: %s", path, e ? strerror(e) : "too many outputs");
    }
    return 0;
}

int ktpu_out_copy_existing(struct ktpu_out *o, char err[KTPU_OUT_ERR_LEN])
{
    mode_t perm;
    int have = check_target(o->path, &perm, err);
    if (have <= 0)
        return have;
    int fd = open(o->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return fail(err, "%s: cannot read it to append: %s", o->path,
                    fd >= 0 && e == 0 ? "not a regular file" : strerror(e));
    }
    char buf[65536];
    ssize_t n;
    int ok = 1;
    while (ok && (n = read(fd, buf, sizeof buf)) != 0) {
        if (n < 0)
            ok = errno == EINTR;
        else
            ok = fwrite(buf, 1, (size_t)n, o->f) == (size_t)n;
    }
    int e = errno;
    close(fd);
    return ok ? 0 : fail(err, "%s: cannot copy it to append: %s", o->path, strerror(e));
}

int ktpu_out_release(struct ktpu_out *o, char err[KTPU_OUT_ERR_LEN])
{
    int bad = ferror(o->f) != 0;
    if (fclose(o->f) != 0)
        bad = 1;
    o->f = NULL;
    return bad ? fail(err, "%s: write failed: %s", o->path, strerror(errno)) : 0;
}

int ktpu_out_commit(struct ktpu_out *o, char err[KTPU_OUT_ERR_LEN])
{
    int e = 0;
    if (o->f) {
        if (fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0)
            e = errno ? errno : EIO;
        if (fclose(o->f) != 0 && !e)
            e = errno;
        o->f = NULL;
    } else {
        int fd = open(o->tmp, O_RDONLY | O_NOFOLLOW);
        if (fd < 0 || fsync(fd) != 0)
            e = errno;
        if (fd >= 0)
            close(fd);
    }
    if (e) {
        fail(err, "%s: write failed: %s", o->path, strerror(e));
    } else {
        /* PATH again: it may have been replaced while the output was written */
        mode_t perm;
        if (check_target(o->path, &perm, err) >= 0) {
            if (rename(o->tmp, o->path) == 0) {
                release(o);
                return 0;
            }
            fail(err, "%s: cannot replace: %s", o->path, strerror(errno));
        }
    }
    unlink(o->tmp);
    release(o);
    return -1;
}

void ktpu_out_abort(struct ktpu_out *o)
{
    if (o->f)
        fclose(o->f);
    if (o->tmp)
        unlink(o->tmp);
    release(o);
}

int ktpu_out_write_file(const char *path, const void *buf, size_t len,
                        char err[KTPU_OUT_ERR_LEN])
{
    struct ktpu_out o;
    if (ktpu_out_open(&o, path, err) != 0)
        return -1;
    if (len && fwrite(buf, 1, len, o.f) != len) {
        int e = errno;
        ktpu_out_abort(&o);
        return fail(err, "%s: write failed: %s", path, strerror(e));
    }
    return ktpu_out_commit(&o, err);
}
