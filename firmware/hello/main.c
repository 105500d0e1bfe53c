/* hello: the smallest firmware that proves the runtime: printf over the
 * UART, exit status through SIM_EXIT. */
#include <stdio.h>

int main(void)
{
    printf("hello from the KohakuTPU sequencer (%s)\n", "rv32im");
    return 0;
}
