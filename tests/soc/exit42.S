/* Ends with SIM_EXIT status 42 after printing a byte and a mailbox word. */
#include "isa.h"
TEST_BEGIN
    li s1, KTPU_MMIO_BASE
    li t0, 'K'
    sb t0, KTPU_MMIO_UART_TX_OFFSET(s1)
    li t0, 0x1234abcd
    sw t0, KTPU_MMIO_MBOX_ARG0_OFFSET(s1)
    li t0, KTPU_MBOX_CMD_PRINT_WORD
    sw t0, KTPU_MMIO_MBOX_CMD_OFFSET(s1)
    li t1, (42 << 1) | 1
    sw t1, KTPU_MMIO_SIM_EXIT_OFFSET(s1)
1:  j 1b
TEST_END
