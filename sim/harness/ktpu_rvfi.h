/* ktpu_rvfi: the receiving end of ktpu_cpu's simulation trace. The core
 * calls the DPI import ktpu_rvfi_retire() once per retirement, trap or
 * interrupt (docs/cpu.md); this library defines it, so any Verilator model
 * that contains the core links $(SIMLIB) and nothing else. A harness that
 * wants the records registers a sink; without one they are only counted. */
#ifndef KTPU_RVFI_H
#define KTPU_RVFI_H

#include <stdint.h>

#include "ktpu_iss.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*ktpu_rvfi_sink)(void *ctx, const struct ktpu_rvfi *r);
void ktpu_rvfi_set_sink(ktpu_rvfi_sink fn, void *ctx);
/* Records seen, and those without a trap (retired instructions). */
uint64_t ktpu_rvfi_records(void);
uint64_t ktpu_rvfi_retired(void);

/* The DPI import (argument types as Verilator declares them). */
void ktpu_rvfi_retire(unsigned int pc, unsigned int insn, unsigned int next_pc, unsigned int trap,
                      unsigned int cause, unsigned int rd, unsigned int rd_wdata,
                      unsigned int mem_addr, unsigned int mem_rmask, unsigned int mem_wmask,
                      unsigned int mem_wdata, unsigned int mem_rdata);

#ifdef __cplusplus
}
#endif
#endif
