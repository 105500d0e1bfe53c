/* A byte store to SIM_EXIT (SPEC §2 defines only the 32-bit store): the
 * CPU replicates the byte on the bus (0x0b0b0b0b), which taken as a word
 * would end with status 92636549. ktpu-sim must refuse it by name. */
#include "isa.h"
TEST_BEGIN
    li s1, KTPU_MMIO_BASE
    li t1, 0x0b
    sb t1, KTPU_MMIO_SIM_EXIT_OFFSET(s1)
1:  j 1b
TEST_END
