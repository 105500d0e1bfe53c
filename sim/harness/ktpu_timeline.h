/* ktpu_timeline: what ktpu-sim --timeline FILE.json writes, a Chrome
 * trace-event file (open it in Perfetto, ui.perfetto.dev, or
 * chrome://tracing). One trace microsecond is one clock cycle. Tracks:
 *
 *   cluster c   one per activity its STATUS counters count (ktpu_node act_o:
 *               fill, sweep, drain, idle, starved, back-pressured), a slice
 *               for each run of cycles the activity holds: a track's slices
 *               add up to its counter over the same cycles;
 *   CPU         "function": the function of the ELF's symbols the core
 *               retires instructions in; "phase": the GEMM service's phase
 *               those functions belong to (plan, issue, wait, completion,
 *               service: the issue loop itself, other).
 *
 * docs/soc.md shows how to read one. */
#ifndef KTPU_TIMELINE_H
#define KTPU_TIMELINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

struct ktpu_timeline;

/* A timeline written to f (open for writing; the caller closes it). NULL
 * when out of memory. */
struct ktpu_timeline *ktpu_timeline_new(FILE *f, unsigned clusters);

/* Adds an ELF's function symbols (call once per program loaded). */
int ktpu_timeline_add_elf(struct ktpu_timeline *t, const char *elf, char *err, size_t err_len);

/* Cycle `cycle`'s activity bits: cluster c's at bits [6c, 6c + 6) of act
 * (bit CD_<counter>_WORD - 1, data/ktpu.def). Called once per cycle. */
void ktpu_timeline_cycle(struct ktpu_timeline *t, uint64_t cycle, const uint32_t *act);

/* An instruction at pc retired in cycle `cycle`. */
void ktpu_timeline_pc(struct ktpu_timeline *t, uint64_t cycle, uint32_t pc);

/* Ends every open slice at `cycle`, finishes the JSON and frees t.
 * Returns the number of events written, or -1 if a write failed. */
long ktpu_timeline_end(struct ktpu_timeline *t, uint64_t cycle);

#ifdef __cplusplus
}
#endif
#endif
