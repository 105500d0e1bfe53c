/* ktpu_elf: a real parse of the ELF32 header and program headers, no
 * dependency on libelf. Fields are read little-endian byte by byte so the
 * host's layout and alignment never matter. */
#include "ktpu_elf.h"

#include "ktpu_in.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EM_RISCV 243u
#define PT_LOAD 1u
#define ET_EXEC 2u
#define SHT_SYMTAB 2u
#define STT_FUNC 2u

static uint32_t rd16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

static const struct ktpu_elf_region *find(const struct ktpu_elf_region *r, int n, uint32_t a,
                                          uint32_t size)
{
    for (int i = 0; i < n; i++) {
        uint64_t lo = r[i].base, hi = (uint64_t)r[i].base + r[i].bytes;
        if (a >= lo && (uint64_t)a + size <= hi) return &r[i];
    }
    return NULL;
}

/* An ELF32 little-endian file's identification, or -1 with the reason. */
static int ident(const uint8_t *img, size_t size, char *err, size_t err_len)
{
    if (size < 52 || memcmp(img, "\177ELF", 4) != 0) return fail(err, err_len, "not an ELF file");
    if (img[4] != 1) return fail(err, err_len, "not a 32-bit ELF (class %u)", img[4]);
    if (img[5] != 1) return fail(err, err_len, "not little-endian");
    return 0;
}

int ktpu_elf_segments(const uint8_t *img, size_t size, const struct ktpu_elf_region *regions, int n_regions,
                      struct ktpu_elf_seg *seg, int max, uint32_t *entry, char *err, size_t err_len)
{
    if (ident(img, size, err, err_len)) return -1;
    if (rd16(img + 18) != EM_RISCV)
        return fail(err, err_len, "not a RISC-V ELF (machine %u)", rd16(img + 18));
    if (rd16(img + 16) != ET_EXEC)
        return fail(err, err_len, "not an executable (type %u)", rd16(img + 16));
    uint32_t phoff = rd32(img + 28), phentsize = rd16(img + 42), phnum = rd16(img + 44);
    *entry = rd32(img + 24);
    if (phentsize < 32 || (uint64_t)phoff + (uint64_t)phnum * phentsize > (uint64_t)size)
        return fail(err, err_len, "program header table outside the file");
    int n = 0;
    for (uint32_t i = 0; i < phnum; i++) {
        const uint8_t *ph = img + phoff + i * phentsize;
        if (rd32(ph) != PT_LOAD) continue;
        uint32_t off = rd32(ph + 4), paddr = rd32(ph + 12);
        uint32_t filesz = rd32(ph + 16), memsz = rd32(ph + 20);
        if (memsz == 0) continue;
        if (filesz > memsz || (uint64_t)off + filesz > (uint64_t)size)
            return fail(err, err_len, "segment %u: file bytes outside the file or above its size",
                        i);
        const struct ktpu_elf_region *r = find(regions, n_regions, paddr, memsz);
        if (!r)
            return fail(err, err_len, "segment %u at 0x%08x (0x%x bytes) is outside memory", i,
                        (unsigned)paddr, (unsigned)memsz);
        if (n == max) return fail(err, err_len, "more than %d loadable segments", max);
        seg[n].paddr = paddr, seg[n].filesz = filesz, seg[n].memsz = memsz, seg[n].data = img + off;
        seg[n].region = r;
        n++;
    }
    if (!n) return fail(err, err_len, "no loadable segment");
    return n;
}

int ktpu_elf_load_mem(const uint8_t *img, size_t size, const struct ktpu_elf_region *regions,
                      int n_regions, uint32_t *entry, char *err, size_t err_len)
{
    struct ktpu_elf_seg seg[KTPU_ELF_MAX_SEGS];
    int n = ktpu_elf_segments(img, size, regions, n_regions, seg, KTPU_ELF_MAX_SEGS, entry, err, err_len);
    if (n < 0) return -1;
    for (int i = 0; i < n; i++)
        for (uint32_t b = 0; b < seg[i].memsz; b++)
            seg[i].region->sink(seg[i].region->ctx, seg[i].paddr + b, b < seg[i].filesz ? seg[i].data[b] : 0);
    return 0;
}

int ktpu_elf_load(const char *path, const struct ktpu_elf_region *regions, int n_regions,
                  uint32_t *entry, char *err, size_t err_len)
{
    uint8_t *img;
    size_t size;
    char ierr[KTPU_IN_ERR_LEN];
    if (ktpu_in_read(path, KTPU_ELF_MAX_BYTES, &img, &size, ierr) != 0)
        return fail(err, err_len, "%s", ierr);
    int rc = ktpu_elf_load_mem(img, size, regions, n_regions, entry, err, err_len);
    free(img);
    return rc;
}

int ktpu_elf_func_by_addr(const void *a, const void *b)
{
    const struct ktpu_elf_func *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int ktpu_elf_functions(const char *path, struct ktpu_elf_func **out, char *err, size_t err_len)
{
    uint8_t *img;
    size_t size;
    char ierr[KTPU_IN_ERR_LEN];
    *out = NULL;
    if (ktpu_in_read(path, KTPU_ELF_MAX_BYTES, &img, &size, ierr) != 0) return fail(err, err_len, "%s", ierr);
    const char *why = NULL;
    int n = 0;
    if (ident(img, size, err, err_len)) {
        free(img);
        return -1;
    }
    uint32_t shoff = rd32(img + 32), shentsize = rd16(img + 46), shnum = rd16(img + 48);
    if (shnum && (shentsize < 40 || (uint64_t)shoff + (uint64_t)shnum * shentsize > (uint64_t)size)) {
        why = "section header table outside the file";
        goto done;
    }
    for (uint32_t i = 0; i < shnum; i++) {
        const uint8_t *sh = img + shoff + i * shentsize;
        if (rd32(sh + 4) != SHT_SYMTAB) continue;
        uint32_t off = rd32(sh + 16), bytes = rd32(sh + 20), link = rd32(sh + 24);
        const uint8_t *strh = img + shoff + (link < shnum ? link : 0) * shentsize;
        uint32_t stroff = rd32(strh + 16), strbytes = rd32(strh + 20);
        if ((uint64_t)off + bytes > size || link >= shnum || (uint64_t)stroff + strbytes > size) {
            why = "symbol table or its strings outside the file";
            goto done;
        }
        uint32_t nsym = bytes / 16;
        /* one block: the array, then a copy of the string table */
        struct ktpu_elf_func *f = malloc((size_t)nsym * sizeof *f + strbytes + 1);
        if (!f) {
            why = "out of memory";
            goto done;
        }
        char *names = (char *)(f + nsym);
        memcpy(names, img + stroff, strbytes);
        names[strbytes] = 0;   /* a name cut off at the table's end still ends */
        for (uint32_t k = 0; k < nsym; k++) {
            const uint8_t *st = img + off + 16 * k;
            uint32_t name = rd32(st), sz = rd32(st + 8);
            if ((st[12] & 15u) != STT_FUNC || !sz || name >= strbytes) continue;
            f[n].addr = rd32(st + 4);
            f[n].size = sz;
            f[n].name = names + name;
            n++;
        }
        qsort(f, (size_t)n, sizeof *f, ktpu_elf_func_by_addr);
        *out = f;
        break;
    }
done:
    free(img);
    return why ? fail(err, err_len, "%s", why) : n;
}
