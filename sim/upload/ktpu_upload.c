/* ktpu-upload (SPEC §9.1, docs/boot.md): an ELF built for the SPEC §2
 * contract as a UART boot frame (firmware/include/ktpu_boot.h), written to
 * a file or sent to the bootloader over a serial device, block by block,
 * each acknowledged. CRC-32 from zlib. */
#define _DEFAULT_SOURCE   /* cfmakeraw */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "ktpu_arg.h"
#include "ktpu_version.h"
#include "ktpu_boot.h"
#include "ktpu_defs.h"
#include "ktpu_elf.h"
#include "ktpu_in.h"
#include "ktpu_out.h"

enum { EXIT_USAGE = 1, EXIT_INPUT = 2, EXIT_REFUSED = 3, EXIT_TIMEOUT = 4, EXIT_DEVICE = 5 };


static const char usage[] =
    "usage: ktpu-upload PROGRAM.elf -o IMAGE\n"
    "       ktpu-upload PROGRAM.elf --port DEV [--baud N] [--timeout S]\n"
    "Makes the UART boot frame of PROGRAM (an RV32 ELF for the SPEC 2 platform,\n"
    "docs/boot.md) and writes it to IMAGE, or sends it to the bootloader on the\n"
    "serial device DEV, waiting for the acknowledgement of the header and of\n"
    "every 256-byte block (a block answered NAK is sent again, at most 8 times).\n"
    "Segments may load into local RAM below the bootloader (0x00000000..0x%08x)\n"
    "and DRAM below the boot staging area (0x%08x..0x%08x); the payload is at\n"
    "most 1 MiB. The program starts at 0 (the reset pc) if it loads there, else\n"
    "at its ELF entry. Reset the board, then run this within its bootloader's\n"
    "wait (docs/boot.md).\n"
    "  -o IMAGE       write the frame (no acknowledgements: ktpu-sim --boot\n"
    "                 --uart-in IMAGE feeds it as the bootloader reads)\n"
    "  --port DEV     send it (8N1, raw)\n"
    "  --baud N       the line's speed (default 115200)\n"
    "  --timeout S    seconds to wait for each acknowledgement (default 10)\n"
    "  --help         this text\n"
    "Test options (they make images the bootloader must refuse):\n"
    "  --test-unchecked     skip the address checks above\n"
    "  --test-bytes N       claim N payload bytes in the header\n"
    "  --test-crc N         claim payload CRC N in the header (decimal)\n"
    "exit status: 0 the image was written, or the bootloader acknowledged all of\n"
    "it; 1 usage; 2 the ELF cannot be read or does not fit; 3 the bootloader\n"
    "refused it (its line is printed); 4 no acknowledgement in time; 5 the\n"
    "serial device failed.\n";

static int fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ktpu-upload: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t crc(const uint8_t *p, size_t n) { return (uint32_t)crc32(crc32(0L, Z_NULL, 0), p, (uInt)n); }

/* The header's payload check: CRC-32 of every block's CRC-32. */
static uint32_t chain_crc(const uint8_t *p, size_t bytes)
{
    uLong c = crc32(0L, Z_NULL, 0);
    for (size_t at = 0; at < bytes; at += KTPU_BOOT_BLOCK) {
        uint8_t b[4];
        put32(b, crc(p + at, bytes - at < KTPU_BOOT_BLOCK ? bytes - at : KTPU_BOOT_BLOCK));
        c = crc32(c, b, 4);
    }
    return (uint32_t)c;
}

/* [a, a + n) inside [lo, hi) */
static int inside(uint64_t a, uint64_t n, uint64_t lo, uint64_t hi) { return a >= lo && a + n <= hi; }

struct frame {
    uint8_t hdr[KTPU_BOOT_HDR_BYTES];
    uint8_t *pay;
    size_t bytes;
};

/* The frame of the ELF in img. */
static int make_frame(const uint8_t *img, size_t size, int unchecked, int ack, struct frame *f)
{
    static const struct ktpu_elf_region any[2] = {
        {"RAM", KTPU_RAM_BASE, KTPU_RAM_BYTES, NULL, NULL},
        {"DRAM", KTPU_DRAM_BASE, KTPU_DRAM_SIM_BYTES, NULL, NULL},
    };
    struct ktpu_elf_seg seg[KTPU_ELF_MAX_SEGS];
    uint32_t entry;
    char err[256];
    int n = ktpu_elf_segments(img, size, any, 2, seg, KTPU_ELF_MAX_SEGS, &entry, err, sizeof err);
    if (n < 0) return fail(EXIT_INPUT, "%s", err);
    size_t bytes = 0;
    int at_reset = 0;
    for (int i = 0; i < n; i++) {
        const struct ktpu_elf_seg *s = &seg[i];
        if (!unchecked && !inside(s->paddr, s->memsz, KTPU_RAM_BASE, KTPU_BOOT_BASE) &&
            !inside(s->paddr, s->memsz, KTPU_DRAM_BASE, KTPU_BOOT_STAGE_BASE))
            return fail(EXIT_INPUT,
                        "segment %d at 0x%08x (0x%x bytes) is outside what an upload may load: RAM "
                        "0x%08x..0x%08x (the bootloader is above), DRAM 0x%08x..0x%08x (its staging area "
                        "is above)",
                        i, (unsigned)s->paddr, (unsigned)s->memsz, (unsigned)KTPU_RAM_BASE,
                        (unsigned)KTPU_BOOT_BASE - 1, (unsigned)KTPU_DRAM_BASE, (unsigned)KTPU_BOOT_STAGE_BASE - 1);
        if (!unchecked && (s->paddr & 3u))
            return fail(EXIT_INPUT, "segment %d at 0x%08x does not start on a word", i, (unsigned)s->paddr);
        if (s->paddr <= KTPU_RAM_BASE && KTPU_RAM_BASE - s->paddr < s->memsz) at_reset = 1;
        bytes += KTPU_BOOT_REC_BYTES + ((s->filesz + 3u) & ~(size_t)3);
    }
    if (bytes > KTPU_BOOT_STAGE_BYTES && !unchecked)
        return fail(EXIT_INPUT, "the image's payload is %zu bytes; the bootloader takes at most %u", bytes,
                    (unsigned)KTPU_BOOT_STAGE_BYTES);
    f->pay = calloc(bytes ? bytes : 1, 1);
    if (!f->pay) return fail(EXIT_INPUT, "out of memory for a %zu-byte payload", bytes);
    size_t at = 0;
    for (int i = 0; i < n; i++) {
        put32(f->pay + at, seg[i].paddr);
        put32(f->pay + at + 4, seg[i].filesz);
        put32(f->pay + at + 8, seg[i].memsz);
        memcpy(f->pay + at + KTPU_BOOT_REC_BYTES, seg[i].data, seg[i].filesz);
        at += KTPU_BOOT_REC_BYTES + ((seg[i].filesz + 3u) & ~(size_t)3);
    }
    f->bytes = bytes;
    put32(f->hdr, KTPU_BOOT_MAGIC);
    put32(f->hdr + 4, KTPU_BOOT_VERSION | (ack ? KTPU_BOOT_FLAG_ACK : 0u) << 16);
    put32(f->hdr + 8, at_reset ? KTPU_RAM_BASE : entry);
    put32(f->hdr + 12, (uint32_t)n);
    put32(f->hdr + 16, (uint32_t)bytes);
    put32(f->hdr + 20, chain_crc(f->pay, bytes));
    put32(f->hdr + 24, crc(f->hdr, 24));
    return 0;
}

/* The header with a field replaced (test options), its CRC made right. */
static void reseal(struct frame *f, unsigned off, uint32_t v)
{
    put32(f->hdr + off, v);
    put32(f->hdr + 24, crc(f->hdr, 24));
}

/* ---- -o IMAGE ---- */
static int write_image(const struct frame *f, const char *path)
{
    struct ktpu_out o;
    char err[KTPU_OUT_ERR_LEN];
    if (ktpu_out_open(&o, path, err)) return fail(EXIT_INPUT, "%s", err);
    fwrite(f->hdr, 1, sizeof f->hdr, o.f);
    for (size_t at = 0; at < f->bytes; at += KTPU_BOOT_BLOCK) {
        size_t n = f->bytes - at < KTPU_BOOT_BLOCK ? f->bytes - at : KTPU_BOOT_BLOCK;
        uint8_t c[4];
        put32(c, crc(f->pay + at, n));
        fwrite(f->pay + at, 1, n, o.f);
        fwrite(c, 1, 4, o.f);
    }
    if (ktpu_out_commit(&o, err)) return fail(EXIT_INPUT, "%s", err);
    return 0;
}

/* ---- --port DEV ---- */
static speed_t baud_code(unsigned long b)
{
    switch (b) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 921600: return B921600;
    case 1000000: return B1000000;
    case 2000000: return B2000000;
    case 3000000: return B3000000;
    case 4000000: return B4000000;
    }
    return 0;
}

static int send_all(int fd, const uint8_t *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        p += w, n -= (size_t)w;
    }
    return 0;
}

/* The bootloader's answer: ACK, NAK or CAN (other bytes, such as a board's
 * earlier console output, are skipped), -1 on a time-out, -2 on an error. */
static int answer(int fd, int seconds)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        long left = seconds * 1000L - ((t.tv_sec - t0.tv_sec) * 1000L + (t.tv_nsec - t0.tv_nsec) / 1000000L);
        if (left <= 0) return -1;
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, (int)left);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -2;
        if (r == 0) return -1;
        uint8_t b;
        ssize_t n = read(fd, &b, 1);
        if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
        if (n <= 0) return -2;
        if (b == KTPU_BOOT_ACK || b == KTPU_BOOT_NAK || b == KTPU_BOOT_CAN) return b;
    }
}

/* After CAN: the bootloader's "boot:" line, printed. */
static int refused(int fd)
{
    char line[256];
    size_t n = 0;
    struct pollfd p = {fd, POLLIN, 0};
    while (n + 1 < sizeof line && poll(&p, 1, 2000) > 0) {
        char c;
        if (read(fd, &c, 1) != 1) break;
        if (c == '\n') break;
        line[n++] = c;
    }
    line[n] = 0;
    return fail(EXIT_REFUSED, "the bootloader refused the image: %s", n ? line : "(no reason received)");
}

static void progress(size_t done, size_t all)
{
    if (!isatty(2)) return;
    unsigned pct = all ? (unsigned)(done * 100 / all) : 100, bar = pct / 4;
    fprintf(stderr, "\r[%.*s%*s] %3u%% %zu/%zu bytes", (int)bar, "#########################", (int)(25 - bar), "",
            pct, done, all);
    if (done == all) fputc('\n', stderr);
}

static int send_image(const struct frame *f, const char *dev, unsigned long baud, int timeout)
{
    speed_t sp = baud_code(baud);
    if (!sp) return fail(EXIT_USAGE, "--baud %lu: not a speed the serial driver takes (9600 .. 4000000)", baud);
    int fd = open(dev, O_RDWR | O_NOCTTY);
    if (fd < 0) return fail(EXIT_DEVICE, "%s: %s", dev, strerror(errno));
    struct termios tio;
    if (tcgetattr(fd, &tio) == 0) {
        cfmakeraw(&tio);
        tio.c_cflag |= CLOCAL | CREAD;
        tio.c_cflag &= ~(tcflag_t)(CSTOPB | PARENB | CRTSCTS);
        cfsetispeed(&tio, sp);
        cfsetospeed(&tio, sp);
        if (tcsetattr(fd, TCSANOW, &tio) != 0) {
            close(fd);
            return fail(EXIT_DEVICE, "%s: cannot set 8N1 at %lu baud: %s", dev, baud, strerror(errno));
        }
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = 0, a;
    if (send_all(fd, f->hdr, sizeof f->hdr)) { rc = fail(EXIT_DEVICE, "%s: write failed: %s", dev, strerror(errno)); goto out; }
    a = answer(fd, timeout);
    if (a == KTPU_BOOT_CAN) { rc = refused(fd); goto out; }
    if (a != KTPU_BOOT_ACK) {
        rc = a == -2 ? fail(EXIT_DEVICE, "%s: read failed", dev)
                     : fail(EXIT_TIMEOUT, "no acknowledgement of the header in %d s (is the board in its bootloader? "
                                          "reset it, then run ktpu-upload within its wait)", timeout);
        goto out;
    }
    for (size_t at = 0, blk = 0; at < f->bytes; blk++) {
        size_t n = f->bytes - at < KTPU_BOOT_BLOCK ? f->bytes - at : KTPU_BOOT_BLOCK;
        uint8_t c[4];
        put32(c, crc(f->pay + at, n));
        for (unsigned tries = 0;; tries++) {
            if (send_all(fd, f->pay + at, n) || send_all(fd, c, 4)) {
                rc = fail(EXIT_DEVICE, "%s: write failed: %s", dev, strerror(errno));
                goto out;
            }
            a = answer(fd, timeout);
            if (a == KTPU_BOOT_ACK) break;
            if (a == KTPU_BOOT_CAN) { rc = refused(fd); goto out; }
            if (a == KTPU_BOOT_NAK && tries + 1 < KTPU_BOOT_RETRIES) continue;
            rc = a == KTPU_BOOT_NAK ? fail(EXIT_REFUSED, "block %zu answered NAK %u times", blk, KTPU_BOOT_RETRIES)
                 : a == -2          ? fail(EXIT_DEVICE, "%s: read failed", dev)
                                    : fail(EXIT_TIMEOUT, "no acknowledgement of block %zu in %d s", blk, timeout);
            goto out;
        }
        at += n;
        progress(at, f->bytes);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    fprintf(stderr, "ktpu-upload: %zu payload bytes acknowledged in %.2f s (%.0f bytes/s)\n", f->bytes, s,
            s > 0 ? (double)f->bytes / s : 0.0);
out:
    close(fd);
    return rc;
}

int main(int argc, char **argv)
{
    const char *elf = NULL, *out = NULL, *port = NULL;
    uint64_t baud = 115200, timeout = 10, claim = 0, tcrc = 0;
    int unchecked = 0, claimed = 0, crc_set = 0;
    char err[KTPU_ARG_ERR_LEN];
    static const char *const flags[] = {"--help", "--version", "--test-unchecked", NULL};
    if (!(argv = ktpu_arg_normalise(&argc, argv, flags, err))) return fail(EXIT_USAGE, "%s", err);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf(usage, (unsigned)KTPU_BOOT_BASE - 1, (unsigned)KTPU_DRAM_BASE, (unsigned)KTPU_BOOT_STAGE_BASE - 1);
            return 0;
        } else if (!strcmp(a, "--version")) {
            printf("ktpu-upload %s\n", KTPU_VERSION);
            return 0;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--port")) {
            if (ktpu_arg_file(a, v, err)) return fail(EXIT_USAGE, "%s", err);
            *(a[1] == 'o' ? &out : &port) = v, i++;
        } else if (!strcmp(a, "--baud")) {
            if (ktpu_arg_u64(a, v, 1, 4000000, &baud, err)) return fail(EXIT_USAGE, "%s", err);
            i++;
        } else if (!strcmp(a, "--timeout")) {
            if (ktpu_arg_u64(a, v, 1, 3600, &timeout, err)) return fail(EXIT_USAGE, "%s", err);
            i++;
        } else if (!strcmp(a, "--test-bytes")) {
            if (ktpu_arg_u64(a, v, 0, 0xFFFFFFFFu, &claim, err)) return fail(EXIT_USAGE, "%s", err);
            claimed = 1, i++;
        } else if (!strcmp(a, "--test-crc")) {
            if (ktpu_arg_u64(a, v, 0, 0xFFFFFFFFu, &tcrc, err)) return fail(EXIT_USAGE, "%s", err);
            crc_set = 1, i++;
        } else if (!strcmp(a, "--test-unchecked")) {
            unchecked = 1;
        } else if (a[0] == '-' && a[1]) {
            return fail(EXIT_USAGE, "unknown option %s (see --help)", a);
        } else if (elf) {
            return fail(EXIT_USAGE, "more than one program given: %s", a);
        } else {
            elf = a;
        }
    }
    if (!elf) return fail(EXIT_USAGE, "no program given (see --help)");
    if (!out == !port) return fail(EXIT_USAGE, "give one of -o IMAGE and --port DEV");
    uint8_t *img;
    size_t size;
    char ierr[KTPU_IN_ERR_LEN];
    if (ktpu_in_read(elf, KTPU_ELF_MAX_BYTES, &img, &size, ierr)) return fail(EXIT_INPUT, "%s", ierr);
    struct frame f;
    int rc = make_frame(img, size, unchecked, port != NULL, &f);
    free(img);
    if (rc) return rc;
    if (claimed) reseal(&f, 16, (uint32_t)claim);
    if (crc_set) reseal(&f, 20, (uint32_t)tcrc);
    rc = out ? write_image(&f, out) : send_image(&f, port, (unsigned long)baud, (int)timeout);
    free(f.pay);
    return rc;
}
