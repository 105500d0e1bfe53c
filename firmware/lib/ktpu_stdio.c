/* picolibc stdio on the UART, and exit() through SIM_EXIT (SPEC §2). */
#include <stdio.h>
#include <stdlib.h>

#include "ktpu_rt.h"

/* picolibc calls this from exit(); its own prototype is POSIX-only. */
void _exit(int status);

static int ktpu_putc(char c, FILE *f)
{
    (void)f;
    /* The SoC holds the store until the previous byte has left, so no
     * status polling is needed here. */
    *(volatile uint8_t *)(KTPU_MMIO_BASE + KTPU_MMIO_UART_TX_OFFSET) = (uint8_t)c;
    return (unsigned char)c;
}

static int ktpu_getc(FILE *f)
{
    (void)f;
    uint32_t v;
    do {
        v = KTPU_REG(UART_RX);
    } while (!(v & KTPU_UART_RX_VALID_MASK));
    return (int)(v & KTPU_UART_RX_DATA_MASK);
}

static FILE ktpu_stdio = FDEV_SETUP_STREAM(ktpu_putc, ktpu_getc, NULL, _FDEV_SETUP_RW);
FILE *const stdin = &ktpu_stdio;
FILE *const stdout = &ktpu_stdio;
FILE *const stderr = &ktpu_stdio;

void _exit(int status)
{
    /* A status that does not fit 31 bits still ends the run as a failure. */
    uint32_t code = (status >= 0 && status < 0x40000000) ? (uint32_t)status : 255u;
    KTPU_REG(SIM_EXIT) = (code << 1) | KTPU_SIM_EXIT_DONE_MASK;
    for (;;)
        ;
}
