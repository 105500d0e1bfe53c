/* The DRAM window's line buffer and next-beat buffer (docs/soc.md): a load
 * of another word of the beat last read, or of the beat after it, is
 * answered at once, with the DRAM's value; each word once per read of its
 * beat; the next load that misses drops both, and so do an MMIO access, a
 * store outside local RAM and a fence; a store to local RAM does not. Each
 * load is timed with mcycle (a hit takes a few cycles, a miss the DRAM
 * latency, 64 by default). Beat n is bytes 32n .. 32n+31 from s2; "line"
 * and "next" below say which beats the two buffers hold after a load.
 * Exit status: 0, or the first failing check. */
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
    LAT(0);  MISS(1); IS(2, 0x100)       /* line 0, next 1 */
    LAT(4);  HIT(3);  IS(4, 0x101)       /* the rest of the beat from the line */
    LAT(8);  HIT(5);  IS(6, 0x102)
    LAT(4);  MISS(7); IS(8, 0x101)       /* a word read again reads the DRAM: line 0, next 1 */
    LAT(40); HIT(21); IS(22, 0x10A)      /* the next beat came with it */
    LAT(44); HIT(23); IS(24, 0x10B)
    LAT(40); MISS(25); IS(26, 0x10A)     /* each of its words once too: line 1, next 2 */
    LAT(64); HIT(27); IS(28, 0x110)
    LAT(128); MISS(9)                    /* line 4, next 5 */
    LAT(72); MISS(29)                    /* that miss dropped beat 2: line 2, next 3 */
    sw t0, 0(s3)                         /* local RAM: both stay */
    LAT(68); HIT(10); IS(20, 0x111)
    LAT(100); HIT(30); IS(31, 0x119)
    fence                                /* a fence drops the next beat ... */
    LAT(104); MISS(11)                   /* line 3, next 4 */
    fence                                /* ... and the line */
    LAT(108); MISS(12)                   /* line 3, next 4 */
    lw t5, KTPU_MMIO_MESH_STATUS_OFFSET(s1)
    LAT(136); MISS(13)                   /* an MMIO access drops both: line 4, next 5 */
    lw t5, KTPU_MMIO_MESH_STATUS_OFFSET(s1)
    LAT(140); MISS(14)                   /* line 4, next 5 */
    sw t0, 256(s2)                       /* a DRAM store elsewhere drops both */
    LAT(164); MISS(15)                   /* line 5, next 6 */
    sw t0, 256(s2)
    LAT(168); MISS(16)                   /* line 5, next 6 */
    LAT(224); MISS(17)                   /* line 7 holds word 228 ... */
    li t5, 0x5A5A1234
    sw t5, 228(s2)                       /* ... which is written */
    LAT(228); MISS(18); IS(19, 0x5A5A1234)
    j pass
TEST_END
