/* Reads the UART receiver three times back to back, so that reads of the
 * empty register fall in the cycles a new byte arrives (the SoC once
 * dropped such a byte), and echoes every byte it got until '\n': the
 * output must equal the input. */
#include "isa.h"
#define TAKE(r)                                 \
    andi t1, r, KTPU_UART_RX_VALID_MASK;        \
    beqz t1, 9f;                                \
    andi r, r, KTPU_UART_RX_DATA_MASK;          \
    sb   r, KTPU_MMIO_UART_TX_OFFSET(s1);       \
    beq  r, t2, pass;                           \
9:
TEST_BEGIN
    li s1, KTPU_MMIO_BASE
    li t2, '\n'
1:  lw t0, KTPU_MMIO_UART_RX_OFFSET(s1)
    lw t3, KTPU_MMIO_UART_RX_OFFSET(s1)
    lw t4, KTPU_MMIO_UART_RX_OFFSET(s1)
    TAKE(t0)
    TAKE(t3)
    TAKE(t4)
    j 1b
TEST_END
