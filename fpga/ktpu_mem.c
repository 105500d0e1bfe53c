/* ktpu-mem (docs/fpga.md): the FPGA build's local RAM initialisation from
 * ELFs. Local RAM is four byte-lane RAMs (rtl/soc/ktpu_soc_seq.sv); lane l
 * of word w is byte 4w + l. `-o PREFIX` writes PREFIX0.mem .. PREFIX3.mem,
 * one $readmemh file per lane (one two-digit hex byte a line, every word of
 * local RAM, bytes no ELF loads are 00), which the bitstream holds as the
 * block RAMs' initial contents (ktpu_ram InitFile). `--check PREFIX` reads
 * the files back and compares every byte with the ELFs: the round trip the
 * flow's test runs. Only local RAM can be baked in: a segment elsewhere
 * (DRAM) is refused by name, as are two ELFs that load the same byte. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktpu_defs.h"
#include "ktpu_elf.h"
#include "ktpu_in.h"
#include "ktpu_out.h"

#define WORDS (KTPU_RAM_BYTES / 4)

static const char usage[] =
    "usage: ktpu-mem -o PREFIX ELF...\n"
    "       ktpu-mem --check PREFIX ELF...\n"
    "Local RAM's initial contents (0x%08x..0x%08x) from the loadable segments of\n"
    "the ELFs (the boot image: the bootloader and the built-in firmware), as the\n"
    "four $readmemh files PREFIX0.mem .. PREFIX3.mem of its byte lanes (lane l of\n"
    "word w = byte 4w + l; %u lines each). --check compares existing files with\n"
    "the ELFs byte by byte instead. exit status: 0 written / identical, 1 usage,\n"
    "2 an ELF cannot be read or loads outside local RAM or over another, 3 the\n"
    "files differ from the ELFs or cannot be read.\n";

static int fail(int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("ktpu-mem: error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

struct image {
    uint8_t bytes[KTPU_RAM_BYTES];
    uint8_t set[KTPU_RAM_BYTES];
    int clash;               /* some byte was loaded twice: the first such */
    uint32_t clash_addr;
};

static void put(void *ctx, uint32_t addr, uint8_t b)
{
    struct image *im = ctx;
    uint32_t off = addr - KTPU_RAM_BASE;
    if (im->set[off] && !im->clash) {
        im->clash = 1;
        im->clash_addr = addr;
    }
    im->set[off] = 1;
    im->bytes[off] = b;
}

static int load(struct image *im, int n, char **elfs)
{
    struct ktpu_elf_region ram = {"local RAM", KTPU_RAM_BASE, KTPU_RAM_BYTES, put, im};
    for (int i = 0; i < n; i++) {
        char err[256];
        uint32_t entry;
        if (ktpu_elf_load(elfs[i], &ram, 1, &entry, err, sizeof err))
            return fail(2, "%s: %s (only local RAM is in the bitstream)", elfs[i], err);
        if (im->clash)
            return fail(2, "%s loads byte 0x%08x, which an earlier ELF already loads", elfs[i],
                        (unsigned)im->clash_addr);
    }
    return 0;
}

static char *lane_path(const char *prefix, int lane)
{
    size_t n = strlen(prefix) + 8;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s%d.mem", prefix, lane);
    return p;
}

static int write_lanes(const struct image *im, const char *prefix)
{
    for (int l = 0; l < 4; l++) {
        char *path = lane_path(prefix, l), err[KTPU_OUT_ERR_LEN];
        struct ktpu_out o = {0};
        if (!path) return fail(2, "out of memory");
        if (ktpu_out_open(&o, path, err)) { free(path); return fail(3, "%s", err); }
        for (uint32_t w = 0; w < WORDS; w++) fprintf(o.f, "%02x\n", im->bytes[4 * w + (uint32_t)l]);
        if (ktpu_out_commit(&o, err)) { free(path); return fail(3, "%s", err); }
        free(path);
    }
    printf("ktpu-mem: %s0.mem .. %s3.mem: %u words of local RAM\n", prefix, prefix, (unsigned)WORDS);
    return 0;
}

/* One lane file against the ELFs' bytes: 0, or the named fault. */
static int check_lane(const struct image *im, const char *path, int l)
{
    char err[KTPU_IN_ERR_LEN];
    uint8_t *buf;
    size_t len, at = 0;
    int r = 0;
    if (ktpu_in_read(path, (size_t)WORDS * 4, &buf, &len, err)) return fail(3, "%s", err);
    for (uint32_t w = 0; w < WORDS && !r; w++, at += 3) {
        char hex[3] = {0};
        unsigned v;
        if (at + 3 > len || buf[at + 2] != '\n') {
            r = fail(3, "%s: line %u is not two hex digits and a newline (the file ends at byte %zu)", path,
                     (unsigned)w + 1, len);
            break;
        }
        memcpy(hex, buf + at, 2);
        if (!strchr("0123456789abcdef", hex[0]) || !strchr("0123456789abcdef", hex[1]) ||
            sscanf(hex, "%2x", &v) != 1) {
            r = fail(3, "%s: line %u is '%s', not two lower-case hex digits", path, (unsigned)w + 1, hex);
            break;
        }
        uint8_t want = im->bytes[4 * w + (uint32_t)l];
        if (v != want)
            r = fail(3, "%s: line %u (byte 0x%08x) holds 0x%02x; the ELFs have 0x%02x", path, (unsigned)w + 1,
                     (unsigned)(KTPU_RAM_BASE + 4 * w + (uint32_t)l), v, want);
    }
    if (!r && at != len) r = fail(3, "%s: %zu bytes after the last of its %u lines", path, len - at, (unsigned)WORDS);
    free(buf);
    return r;
}

static int check_lanes(const struct image *im, const char *prefix)
{
    unsigned loaded = 0;
    for (uint32_t i = 0; i < KTPU_RAM_BYTES; i++) loaded += im->set[i];
    for (int l = 0; l < 4; l++) {
        char *path = lane_path(prefix, l);
        if (!path) return fail(2, "out of memory");
        int r = check_lane(im, path, l);
        free(path);
        if (r) return r;
    }
    printf("ktpu-mem: %s0.mem .. %s3.mem hold the ELFs' %u loaded bytes, the rest zero\n", prefix, prefix,
           loaded);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "--help")) {
        printf(usage, (unsigned)KTPU_RAM_BASE, (unsigned)(KTPU_RAM_BASE + KTPU_RAM_BYTES - 1), (unsigned)WORDS);
        return 0;
    }
    if (argc < 4 || (strcmp(argv[1], "-o") && strcmp(argv[1], "--check"))) {
        fprintf(stderr, usage, (unsigned)KTPU_RAM_BASE, (unsigned)(KTPU_RAM_BASE + KTPU_RAM_BYTES - 1),
                (unsigned)WORDS);
        return 1;
    }
    struct image *im = calloc(1, sizeof *im);
    if (!im) return fail(2, "out of memory");
    int r = load(im, argc - 3, argv + 3);
    if (!r) r = !strcmp(argv[1], "-o") ? write_lanes(im, argv[2]) : check_lanes(im, argv[2]);
    free(im);
    return r;
}
