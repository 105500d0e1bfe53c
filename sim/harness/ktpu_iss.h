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
/* The ELF at path into the model's RAM and DRAM (ktpu_elf_load, whose
 * return value and message it passes on); *entry its entry point. */
int ktpu_iss_load_elf(struct ktpu_iss *s, const char *path, uint32_t *entry, char *err, size_t len);
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

/* ---- standalone: the model is the machine (ktpu-sim --iss) ----
 * The platform's devices behind MMIO (offsets from MMIO_BASE, word
 * aligned): 0, or -1 with msg for a register the platform does not model
 * (the step then fails with it). mip: MTIP (bit 7), MEIP (bit 11). */
struct ktpu_iss_io {
    int (*load)(void *ctx, uint32_t off, uint32_t *v, char *msg, size_t len);
    int (*store)(void *ctx, uint32_t off, uint32_t wdata, uint32_t wmask, char *msg, size_t len);
    uint32_t (*mip)(void *ctx);
    void *ctx;
};
/* Registers and local RAM random from seed, as the RTL starts them (call
 * before loading the program); every later step runs against io. */
void ktpu_iss_standalone(struct ktpu_iss *s, uint64_t seed, const struct ktpu_iss_io *io);
/* One step: an interrupt taken, a trap, or an instruction retired. Returns
 * 0, or -1 with msg (an MMIO access io refused). One cycle per step:
 * mcycle, time and the platform's mtime read ktpu_iss_cycles. */
int ktpu_iss_step(struct ktpu_iss *s, char *msg, size_t len);
uint64_t ktpu_iss_cycles(const struct ktpu_iss *s);
/* A debugger's view (ktpu-sim --gdb): x0..x31 and the pc (32); a byte of
 * RAM or DRAM (-1 elsewhere). */
uint32_t ktpu_iss_reg(const struct ktpu_iss *s, unsigned i);
int ktpu_iss_set_reg(struct ktpu_iss *s, unsigned i, uint32_t v);
int ktpu_iss_read_byte(struct ktpu_iss *s, uint32_t addr, uint8_t *b);

#ifdef __cplusplus
}
#endif
#endif
