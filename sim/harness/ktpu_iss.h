/* ktpu_iss: an instruction-set model of the SPEC §2 platform (RV32IM, Zicsr,
 * machine mode, the same trap rules), written independently of the RTL. The
 * lockstep check steps it once per retirement the core reports and compares
 * everything the core did. */
#ifndef KTPU_ISS_H
#define KTPU_ISS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One retirement (or trap, or interrupt) as the core reports it. */
struct ktpu_rvfi {
    uint32_t pc, insn, next_pc;
    uint32_t trap, cause;          /* cause bit 31: interrupt */
    uint32_t rd, rd_wdata;         /* rd = 0: no register written */
    uint32_t mem_addr, mem_rmask, mem_wmask, mem_wdata, mem_rdata;
};

struct ktpu_iss;

struct ktpu_iss *ktpu_iss_new(void);
void ktpu_iss_free(struct ktpu_iss *s);
/* Backdoor for the ELF loader (RAM and DRAM only). */
void ktpu_iss_write_byte(void *iss, uint32_t addr, uint8_t byte);
/* Loads from DRAM read the memory the RTL sees (the co-simulation's DRAM
 * model, which the harness and the clusters write too) through fn, instead
 * of the model's own copy, which only the loader and the core's stores
 * write. fn(ctx, offset) returns the 32-bit word at that DRAM byte offset. */
typedef uint32_t (*ktpu_iss_dram_read)(void *ctx, uint32_t offset);
void ktpu_iss_set_dram(struct ktpu_iss *s, ktpu_iss_dram_read fn, void *ctx);
/* Steps the model once against the core's record. Returns 0 when they agree,
 * -1 with a description of the first difference in msg. Values the model
 * cannot know (MMIO loads, mcycle, time, mip) are taken from the record. */
int ktpu_iss_check(struct ktpu_iss *s, const struct ktpu_rvfi *r, char *msg, size_t len);
uint64_t ktpu_iss_retired(const struct ktpu_iss *s);

#ifdef __cplusplus
}
#endif
#endif
