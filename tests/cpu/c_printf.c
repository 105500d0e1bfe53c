/* c_printf: picolibc stdio over the UART. snprintf results are compared in
 * the program; the same text is printed and compared by the test script
 * with c_printf.expected. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static int bad;

static void check(const char *got, const char *want)
{
    if (strcmp(got, want) != 0) {
        printf("MISMATCH: got \"%s\", want \"%s\"\n", got, want);
        bad = 1;
    }
    printf("%s\n", got);
}

int main(void)
{
    char buf[96];
    snprintf(buf, sizeof buf, "%d %i %u", -42, 2147483647, 4294967295u);
    check(buf, "-42 2147483647 4294967295");
    snprintf(buf, sizeof buf, "%x %X %08x %#x", 0xbeefu, 0xbeefu, 0x12abu, 255u);
    check(buf, "beef BEEF 000012ab 0xff");
    snprintf(buf, sizeof buf, "[%5d] [%-5d] [%05d] [%+d]", 42, 42, -42, 7);
    check(buf, "[   42] [42   ] [-0042] [+7]");
    snprintf(buf, sizeof buf, "%s|%10s|%-4s|%c%c", "kohaku", "tpu", "ab", 'o', 'k');
    check(buf, "kohaku|       tpu|ab  |ok");
    snprintf(buf, sizeof buf, "%ld %lld %llu", -123456789L, -1234567890123LL,
             18446744073709551615ull);
    check(buf, "-123456789 -1234567890123 18446744073709551615");
    snprintf(buf, sizeof buf, "%d%%", -2147483647 - 1);
    check(buf, "-2147483648%");
    fputs("fputs line\n", stdout);
    putchar('!');
    putchar('\n');
    return bad;
}
