/* ktpu_iss_platform: the SoC's CPU-side devices around the instruction-set
 * model when it runs alone (ktpu-sim --iss): the UART (TX to a stream, RX
 * from a file), SIM_EXIT, the platform timer (mtime counts the model's
 * cycles, one per step; mtimecmp raises MTIP) and the simulation mailbox.
 * The cluster mesh port and the registers that describe or measure the
 * accelerator (SOC_*, MEM_WIN_*, PERF_*, BOOT_WAIT) are not modelled: an
 * access to one ends the run naming the register (the program needs the
 * RTL co-simulation). */
#ifndef KTPU_ISS_PLATFORM_H
#define KTPU_ISS_PLATFORM_H

#include <stdint.h>
#include <stdio.h>

#include "ktpu_iss.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ktpu_iss_platform {
    struct ktpu_iss *iss;
    struct ktpu_iss_io io;          /* what ktpu_iss_standalone is given */
    FILE *uart_in;                  /* bytes for UART_RX, or NULL */
    FILE *uart_out;                 /* UART_TX bytes */
    int rx_next;                    /* the next received byte (peeked), or EOF */
    int64_t mtime_off;              /* mtime = cycles + mtime_off (mtime is writable) */
    uint64_t mtimecmp;
    uint32_t mbox_arg0, mbox_arg1, mbox_resp;
    int exited;                     /* SIM_EXIT was written ... */
    uint32_t exit_status;           /* ... with this status */
    unsigned bad_exit_wmask;        /* a SIM_EXIT store that was not a sw (its byte lanes) */
};

/* The devices at reset; uart_in may be NULL. */
void ktpu_iss_platform_init(struct ktpu_iss_platform *p, struct ktpu_iss *iss, FILE *uart_in, FILE *uart_out);

#ifdef __cplusplus
}
#endif
#endif
