/* Reads bytes from the UART receiver until '\n' and sends each back
 * upper-cased: the --uart-in path and the UART_RX/UART_STATUS registers. */
#include "isa.h"
TEST_BEGIN
    li s1, KTPU_MMIO_BASE
1:  lw t0, KTPU_MMIO_UART_RX_OFFSET(s1)
    andi t1, t0, KTPU_UART_RX_VALID_MASK
    beqz t1, 1b
    andi t0, t0, KTPU_UART_RX_DATA_MASK
    li t2, 'a'
    blt t0, t2, 2f
    li t2, 'z'
    bgt t0, t2, 2f
    addi t0, t0, -32
2:  sb t0, KTPU_MMIO_UART_TX_OFFSET(s1)
    li t2, '\n'
    bne t0, t2, 1b
    lw t0, KTPU_MMIO_UART_STATUS_OFFSET(s1)
    andi t0, t0, KTPU_UART_STATUS_RX_VALID_MASK
    bnez t0, fail                /* nothing left after the newline */
TEST_END
