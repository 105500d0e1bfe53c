/* Trap dispatch: interrupts go to the registered handler; exceptions are
 * fatal unless a test installed a hook: the cause is named, with pc and
 * mtval, and the program exits with status 128 + cause code. */
#include <stdio.h>
#include <stdlib.h>

#include "ktpu_rt.h"

static ktpu_irq_fn irq_fn;
static ktpu_exc_fn exc_fn;

void ktpu_set_irq_handler(ktpu_irq_fn fn) { irq_fn = fn; }
void ktpu_set_exc_handler(ktpu_exc_fn fn) { exc_fn = fn; }

const char *ktpu_cause_name(uint32_t mcause)
{
    static const char *const exc[] = {
        "instruction address misaligned", "instruction access fault", "illegal instruction",
        "breakpoint", "load address misaligned", "load access fault",
        "store address misaligned", "store access fault", "ecall from U-mode",
        "ecall from S-mode", "reserved", "ecall from M-mode",
    };
    uint32_t code = mcause & 0x7FFFFFFFu;
    if (mcause >> 31) {
        if (code == 7) return "timer interrupt";
        if (code == 11) return "external (mesh) interrupt";
        return "unknown interrupt";
    }
    return code < sizeof exc / sizeof exc[0] ? exc[code] : "unknown exception";
}

void ktpu_trap_dispatch(uint32_t mcause, uint32_t mepc, uint32_t mtval)
{
    if ((mcause >> 31) && irq_fn) {
        irq_fn(mcause);
        return;
    }
    if (!(mcause >> 31) && exc_fn) {
        uint32_t pc = mepc;
        if (exc_fn(mcause, &pc, mtval)) {
            __asm__ volatile("csrw mepc, %0" : : "r"(pc));
            return;
        }
    }
    printf("\n*** trap: %s (mcause 0x%08lx) at pc 0x%08lx, mtval 0x%08lx\n",
           ktpu_cause_name(mcause), (unsigned long)mcause, (unsigned long)mepc,
           (unsigned long)mtval);
    exit(128 + (int)(mcause & 0x1F));
}
