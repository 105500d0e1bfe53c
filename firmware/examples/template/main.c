/* The smallest firmware: printf goes out on the UART, and main's return
 * value ends the run (through exit() and SIM_EXIT: ktpu-sim's exit status). */
#include <stdio.h>

int main(void)
{
    printf("hello from the template\n");
    return 0;
}
