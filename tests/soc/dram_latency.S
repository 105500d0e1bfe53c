/* Exits with the number of cycles one DRAM load takes (mcycle around it),
 * so the harness's --dram-latency can be checked exactly. */
#include "isa.h"
TEST_BEGIN
    li s1, KTPU_MMIO_BASE
    li s2, KTPU_DRAM_BASE
    lw t0, 0(s2)                 /* warm nothing up: every load waits the same */
    csrr t1, mcycle
    lw t0, 64(s2)
    csrr t2, mcycle
    sub t3, t2, t1
    slli t3, t3, 1
    ori t3, t3, 1
    sw t3, KTPU_MMIO_SIM_EXIT_OFFSET(s1)
1:  j 1b
TEST_END
