/* A halfword store to SIM_EXIT (see exit_sb.S): 0x000b000b on the bus. */
#include "isa.h"
TEST_BEGIN
    li s1, KTPU_MMIO_BASE
    li t1, 0x0b
    sh t1, KTPU_MMIO_SIM_EXIT_OFFSET(s1)
1:  j 1b
TEST_END
