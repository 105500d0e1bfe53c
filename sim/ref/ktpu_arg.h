/* ktpu_arg.h -- the one way the host tools (ktpu-sim, ktpu-ref,
 * ktpu-example) read a value from the command line. Host only.
 *
 * A number is decimal digits and nothing else: no sign, no blanks, no
 * "0x" (so "010" is ten, never octal eight), and it must lie in the range
 * (or the set) that the option means; a value too large for 64 bits is
 * simply out of range, it never wraps. A file name may not be empty or
 * begin with '-': "-o --stats" is a forgotten value, not a file called
 * "--stats" (write ./--stats for that).
 *
 * Every function returns 0, or -1 with a one-line message in err naming the
 * option and the value, e.g.
 *   "--clusters: '18446744073709551615' is not one of 1, 2, 4"
 *   "--max-cycles: ' -1' is not a decimal number (digits 0-9 only)"
 * A NULL value (the option was last on the line) is "OPT needs a value". */
#ifndef KTPU_ARG_H
#define KTPU_ARG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define KTPU_ARG_ERR_LEN 256

/* A decimal number in lo..hi. */
int ktpu_arg_u64(const char *opt, const char *s, uint64_t lo, uint64_t hi, uint64_t *v,
                 char err[KTPU_ARG_ERR_LEN]);

/* A decimal number that is one of the n values in set. */
int ktpu_arg_one_of(const char *opt, const char *s, const uint64_t *set, unsigned n, uint64_t *v,
                    char err[KTPU_ARG_ERR_LEN]);

/* n decimal numbers joined by sep (e.g. "64x128x64", "3,5"), each in
 * lo..hi; names[i] names field i in messages and form shows the shape
 * ("MxKxN", "ROW,COL"). */
int ktpu_arg_tuple(const char *opt, const char *s, char sep, const char *form,
                   const char *const *names, unsigned n, uint64_t lo, uint64_t hi, uint64_t *v,
                   char err[KTPU_ARG_ERR_LEN]);

/* A file name: present, not empty, not beginning with '-'. */
int ktpu_arg_file(const char *opt, const char *s, char err[KTPU_ARG_ERR_LEN]);

/* The command line as the tools read it: "--opt=value" becomes "--opt"
 * "value" (the GNU long-option form, beside "--opt value"). flags names
 * the options that take no value (NULL-terminated): "--flag=x" is refused
 * for them. Returns a new argv (argc updated, the strings malloc'd, freed
 * with the process), or NULL with err. */
char **ktpu_arg_normalise(int *argc, char **argv, const char *const *flags, char err[KTPU_ARG_ERR_LEN]);

/* A value as messages show it, so that a message stays one line: the first
 * 80 bytes of s, each control byte (below 0x20, and 0x7f) written \xNN.
 * Returns q. */
#define KTPU_ARG_QUOTE_LEN (80 * 4 + 1)
const char *ktpu_arg_quote(char q[KTPU_ARG_QUOTE_LEN], const char *s);

#ifdef __cplusplus
}
#endif

#endif /* KTPU_ARG_H */
