/* The DRAM window's one-beat line buffer (docs/soc.md): a load of another
 * word of the beat last read is answered at once, with the DRAM's value;
 * each word once per read of the beat; an MMIO access, a store outside
 * local RAM and a fence drop the line, a store to local RAM does not. Each
 * load is timed with mcycle (a hit takes a few cycles, a miss the DRAM
 * latency, 64 by default). Exit status: 0, or the first failing check. */
#include "isa.h"

/* a3 = cycles of `lw t0, off(s2)` */
#define LAT(off) csrr a1, mcycle; lw t0, off(s2); csrr a2, mcycle; sub a3, a2, a1
#define HIT(n)  li TESTNUM, n; li t4, 16; bgeu a3, t4, fail
#define MISS(n) li TESTNUM, n; li t4, 40; bltu a3, t4, fail
#define IS(n, v) li TESTNUM, n; li t4, v; bne t0, t4, fail

TEST_BEGIN
    li s1, KTPU_MMIO_BASE
    li s2, KTPU_DRAM_BASE + 0x1000
    li s3, KTPU_RAM_BASE + 0x1F000      /* local RAM the program does not use */
    /* every word read below written first (DRAM starts random): word i = 0x100 + i */
    li t0, 0x100; mv t1, s2; addi t2, s2, 512
1:  sw t0, 0(t1); addi t0, t0, 1; addi t1, t1, 4; bne t1, t2, 1b
    LAT(0);  MISS(1); IS(2, 0x100)
    LAT(4);  HIT(3);  IS(4, 0x101)       /* the rest of the beat from the line */
    LAT(8);  HIT(5);  IS(6, 0x102)
    LAT(4);  MISS(7); IS(8, 0x101)       /* a word read again reads the DRAM */
    LAT(64); MISS(9)
    sw t0, 0(s3)                        /* local RAM: the line stays */
    LAT(68); HIT(10); IS(20, 0x111)
    LAT(96); MISS(11)
    fence
    LAT(100); MISS(12)
    LAT(128); MISS(13)
    lw t5, KTPU_MMIO_MESH_STATUS_OFFSET(s1)
    LAT(132); MISS(14)
    LAT(160); MISS(15)
    sw t0, 256(s2)                      /* a DRAM store elsewhere drops it */
    LAT(164); MISS(16)
    LAT(224); MISS(17)                  /* the line holds word 228 ... */
    li t5, 0x5A5A1234
    sw t5, 228(s2)                      /* ... which is written */
    LAT(228); MISS(18); IS(19, 0x5A5A1234)
    j pass
TEST_END
