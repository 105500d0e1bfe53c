/* A program for the debugger test (tests/cpu/check_gdb.sh): built at -O0
 * so that each line is a stop and every variable lives in memory. */
#include <stdio.h>

volatile int total;   /* gdb reads it after the loop */

static int square(int x) { return x * x; }

int main(void)
{
    for (int i = 1; i <= 4; i++)
        total += square(i);   /* 1 + 4 + 9 + 16 */
    printf("total %d\n", total);
    return total == 30 ? 0 : 1;
}
