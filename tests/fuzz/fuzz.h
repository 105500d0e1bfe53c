/* What every fuzz harness in tests/fuzz shares. Each fuzz_<target>.c
 * defines LLVMFuzzerTestOneInput; it is built with clang's libFuzzer for
 * `make fuzz` and with gcc and replay.c (every corpus file once) for
 * `make test`. A harness checks invariants, not only "no crash": a broken
 * one prints what it saw and aborts, which both drivers report. */
#ifndef KTPU_FUZZ_H
#define KTPU_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_ASSERT(c, ...)                                              \
    do {                                                                 \
        if (!(c)) {                                                      \
            fprintf(stderr, "%s:%d: invariant broken: %s: ", __FILE__, __LINE__, #c); \
            fprintf(stderr, __VA_ARGS__);                                \
            fprintf(stderr, "\n");                                       \
            abort();                                                     \
        }                                                                \
    } while (0)

/* 1 if the terminated message s is one printable line: no control byte
 * (a newline or a terminal escape from the input would break it). */
static inline int fuzz_one_line(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f) return 0;
    return 1;
}

#endif
