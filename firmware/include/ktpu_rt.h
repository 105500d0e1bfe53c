/* KohakuTPU firmware runtime: MMIO access by the names generated from
 * data/ktpu.def, the trap hooks, and the counters. */
#ifndef KTPU_RT_H
#define KTPU_RT_H

#include <stdint.h>

#include "ktpu_defs.h"

#define KTPU_REG(name) (*(volatile uint32_t *)(KTPU_MMIO_BASE + KTPU_MMIO_##name##_OFFSET))
#define KTPU_REG_AT(name, word) \
    (*(volatile uint32_t *)(KTPU_MMIO_BASE + KTPU_MMIO_##name##_OFFSET + 4u * (word)))

/* Interrupt handler: called from the trap vector with mcause (bit 31 set).
 * Without one, an interrupt is as fatal as an exception. */
typedef void (*ktpu_irq_fn)(uint32_t mcause);
void ktpu_set_irq_handler(ktpu_irq_fn fn);

/* Exception hook: return 1 to resume at the (possibly changed) *mepc, 0 for
 * the default: print the cause name and pc, exit non-zero. For tests. */
typedef int (*ktpu_exc_fn)(uint32_t mcause, uint32_t *mepc, uint32_t mtval);
void ktpu_set_exc_handler(ktpu_exc_fn fn);

/* The name of an mcause value ("illegal instruction", "timer interrupt"). */
const char *ktpu_cause_name(uint32_t mcause);

/* Trap dispatcher, called by ktpu_trap_entry. */
void ktpu_trap_dispatch(uint32_t mcause, uint32_t mepc, uint32_t mtval);

static inline uint32_t ktpu_read_mcycle(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, mcycle" : "=r"(v));
    return v;
}

static inline uint32_t ktpu_read_minstret(void)
{
    uint32_t v;
    __asm__ volatile("csrr %0, minstret" : "=r"(v));
    return v;
}

#endif
