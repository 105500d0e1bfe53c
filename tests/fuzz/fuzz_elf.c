/* Fuzzes the ELF loader from memory (ktpu_elf_load_mem, what ktpu_elf_load
 * runs on a file's bytes) into two regions shaped like ktpu-sim's: local
 * RAM and (a 64 KiB piece of) DRAM. Invariants: every byte the loader
 * stores lies inside the region it was handed to; on success the bytes
 * stored are exactly the PT_LOAD segments' memsz (recounted here from the
 * program headers) and the entry is e_entry; a refusal is one terminated,
 * non-empty, printable line. */
#include <string.h>

#include "fuzz.h"
#include "ktpu_defs.h"
#include "ktpu_elf.h"

#define DRAM_PIECE 0x10000u

struct mem {
    uint32_t base, bytes;
    uint8_t *m;
    uint64_t stores;
};

static void sink(void *ctx, uint32_t addr, uint8_t byte)
{
    struct mem *r = ctx;
    FUZZ_ASSERT(addr >= r->base && addr - r->base < r->bytes, "store at 0x%08x outside 0x%08x+0x%x",
                (unsigned)addr, (unsigned)r->base, (unsigned)r->bytes);
    r->m[addr - r->base] = byte;
    r->stores++;
}

static uint32_t rd(const uint8_t *p, int n)
{
    uint32_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

static uint8_t ram[KTPU_RAM_BYTES], dram[DRAM_PIECE];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct mem rm = {KTPU_RAM_BASE, KTPU_RAM_BYTES, ram, 0};
    struct mem dm = {KTPU_DRAM_BASE, DRAM_PIECE, dram, 0};
    struct ktpu_elf_region regions[2] = {
        {"RAM", KTPU_RAM_BASE, KTPU_RAM_BYTES, sink, &rm},
        {"DRAM", KTPU_DRAM_BASE, DRAM_PIECE, sink, &dm},
    };
    uint32_t entry = 0xDEADBEEFu;
    char err[160];
    memset(err, 'x', sizeof err);
    if (ktpu_elf_load_mem(data, size, regions, 2, &entry, err, sizeof err) != 0) {
        FUZZ_ASSERT(memchr(err, 0, sizeof err) != NULL, "%s", "message not terminated");
        FUZZ_ASSERT(err[0] && fuzz_one_line(err), "'%s'", err);
        return 0;
    }
    FUZZ_ASSERT(size >= 52, "accepted %zu bytes", size);
    FUZZ_ASSERT(entry == rd(data + 24, 4), "entry 0x%08x", (unsigned)entry);
    uint32_t phoff = rd(data + 28, 4), phentsize = rd(data + 42, 2), phnum = rd(data + 44, 2);
    uint64_t want = 0;
    for (uint32_t i = 0; i < phnum; i++) {
        const uint8_t *ph = data + phoff + (size_t)i * phentsize;
        FUZZ_ASSERT((uint64_t)phoff + (uint64_t)(i + 1) * phentsize <= size, "header %u past the end", i);
        if (rd(ph, 4) == 1) want += rd(ph + 20, 4);
    }
    FUZZ_ASSERT(want > 0, "%s", "accepted without a loadable byte");
    FUZZ_ASSERT(rm.stores + dm.stores == want, "%llu bytes stored, segments hold %llu",
                (unsigned long long)(rm.stores + dm.stores), (unsigned long long)want);
    return 0;
}
