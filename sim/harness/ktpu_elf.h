/* ktpu_elf: load an RV32 ELF executable's PT_LOAD segments by physical
 * address into the regions a caller names (SPEC §2: local RAM and DRAM). */
#ifndef KTPU_ELF_H
#define KTPU_ELF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Stores one byte at a physical address inside a region. */
typedef void (*ktpu_elf_sink)(void *ctx, uint32_t addr, uint8_t byte);

struct ktpu_elf_region {
    const char *name;
    uint32_t base;
    uint32_t bytes;
    ktpu_elf_sink sink;
    void *ctx;
};

/* The largest ELF file read: a bound far above any program for 128 KiB of
 * RAM and 16 MiB of DRAM, with its debug sections. */
#define KTPU_ELF_MAX_BYTES ((size_t)256 << 20)

/* Reads path (a regular file of at most KTPU_ELF_MAX_BYTES, ktpu_in.h) and
 * loads every PT_LOAD segment (file bytes, then zeros up to p_memsz) at
 * p_paddr. Every byte must land in one region. Returns 0, or -1 with a
 * one-line reason in err (the file name is not included). *entry gets
 * e_entry. */
int ktpu_elf_load(const char *path, const struct ktpu_elf_region *regions, int n_regions,
                  uint32_t *entry, char *err, size_t err_len);

/* An ELF's loadable segments (PT_LOAD with bytes in memory), each checked
 * to lie inside one region: at most max into seg, in file order. Returns
 * their number, or -1 with a one-line reason in err. */
#define KTPU_ELF_MAX_SEGS 64
struct ktpu_elf_seg {
    uint32_t paddr, filesz, memsz;   /* zeros from filesz up to memsz */
    const uint8_t *data;             /* filesz bytes, inside the image */
    const struct ktpu_elf_region *region;
};
int ktpu_elf_segments(const uint8_t *img, size_t size, const struct ktpu_elf_region *regions, int n_regions,
                      struct ktpu_elf_seg *seg, int max, uint32_t *entry, char *err, size_t err_len);

/* The same from an ELF image already in memory (what ktpu_elf_load does
 * after reading the file; tests/fuzz feeds it directly). */
int ktpu_elf_load_mem(const uint8_t *img, size_t size, const struct ktpu_elf_region *regions,
                      int n_regions, uint32_t *entry, char *err, size_t err_len);

/* An executable's functions (symbols of type STT_FUNC with a size), sorted
 * by address: *out is one malloc'd block (the caller frees it) holding the
 * array and the names it points to. Returns their number (0 for a stripped
 * file), or -1 with a one-line reason in err. */
struct ktpu_elf_func {
    uint32_t addr, size;
    const char *name;
};
int ktpu_elf_functions(const char *path, struct ktpu_elf_func **out, char *err, size_t err_len);
/* qsort's order for them: by address. */
int ktpu_elf_func_by_addr(const void *a, const void *b);

#ifdef __cplusplus
}
#endif
#endif
