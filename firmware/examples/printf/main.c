/* picolibc's printf on the UART, in the formats firmware needs. On RV32 a
 * long is 32 bits and uint32_t is an unsigned long, so fixed-width types
 * take their <inttypes.h> macros (PRIx32, PRId64): -Wformat, an error
 * here, says so when one is wrong. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

int main(void)
{
    int64_t big = INT64_C(-9007199254740993);   /* 2^53 + 1: no double holds it */
    uint64_t mask = UINT64_C(0xFEDCBA9876543210);
    uint32_t word = 0xC0FFEEu;

    printf("int %d, unsigned %u, padded [%5d] [%-5d]\n", -42, 42u, 7, 7);
    printf("uint32_t 0x%08" PRIx32 " = %" PRIu32 "\n", word, word);
    printf("int64_t %" PRId64 ", uint64_t 0x%016" PRIx64 "\n", big, mask);
    printf("long long %lld\n", (long long)INT64_MAX);
    printf("string [%-6s] [%6s], char %c, percent %%\n", "left", "right", 'k');
    printf("double %.3f, %e\n", 3.14159, 6.02e23);
    return 0;
}
