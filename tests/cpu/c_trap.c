/* c_trap: executes an illegal instruction. The runtime's trap handler must
 * name the cause and the pc and exit with status 128 + 2 (checked by
 * check_trap_report.sh against the symbol's address). */
#include <stdio.h>

void ktpu_bad_insn(void);
__asm__(".section .text.ktpu_bad_insn, \"ax\"\n"
        ".globl ktpu_bad_insn\n"
        ".balign 4\n"
        "ktpu_bad_insn:\n"
        "  .word 0\n"
        "  ret\n");

int main(void)
{
    printf("about to execute an illegal instruction\n");
    ktpu_bad_insn();
    printf("still running: the trap did not stop the program\n");
    return 0;
}
