/* ktpu_timeline: see ktpu_timeline.h. Events are written as slices end
 * ("ph": "X", complete events), so the file grows as the run goes and needs
 * no memory per cycle. */
#include "ktpu_timeline.h"

#include "ktpu_defs.h"
#include "ktpu_elf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ACT_BITS 6       /* ktpu_node act_o: one per STATUS counter, CD_FILL_WORD..CD_BP_WORD */
#define MAX_CLUSTERS 14  /* ktpu_soc cl_act_o: 14 x ACT_BITS */
#define ACT_WORDS ((MAX_CLUSTERS * ACT_BITS + 31) / 32)
#if KTPU_CD_BP_WORD != ACT_BITS || KTPU_CD_FILL_WORD != 1
#error "act_o has a bit for each STATUS counter word, CD_FILL_WORD..CD_BP_WORD"
#endif

/* pid 0 is the CPU (tid 0 function, 1 phase); pid 1 + c is cluster c, its
 * tid the activity bit */
static const char *const act_name[ACT_BITS] = {
    [KTPU_CD_FILL_WORD - 1] = "fill",       [KTPU_CD_SWEEP_WORD - 1] = "sweep",
    [KTPU_CD_DRAIN_WORD - 1] = "drain",     [KTPU_CD_IDLE_WORD - 1] = "idle",
    [KTPU_CD_STARVED_WORD - 1] = "starved", [KTPU_CD_BP_WORD - 1] = "back-pressured",
};

/* The GEMM service's phases, by the name of the function running
 * (firmware/gemm, firmware/lib): a name, or a stem ending in '*'; a GCC
 * clone such as "prepare.part.0" is its function. */
static const struct {
    const char *fn, *phase;
} phase_of_fn[] = {
    {"wait_flit", "wait"},          {"ktpu_cl_timed_out", "wait"}, {"ktpu_cl_poll", "completion"},
    {"completion*", "completion"},  {"announce*", "completion"},   {"ktpu_cl_issue*", "issue"},
    {"ktpu_mesh_send*", "issue"},   {"ktpu_plan_*", "plan"},       {"tile_*", "plan"},
    {"produce", "plan"},            {"prepare", "plan"},           {"encode_ahead", "plan"},
    {"next_for", "plan"},           {"udiv", "plan"},              {"ktpu_job_check", "plan"},
    {"run", "service"},             {"finish", "service"},
};

struct slice {
    int open;
    uint64_t start;
    const char *name;
};

struct ktpu_timeline {
    FILE *f;
    unsigned clusters;
    long events;
    uint32_t last_act[ACT_WORDS];
    struct slice act[MAX_CLUSTERS][ACT_BITS];
    struct ktpu_elf_func *fn;   /* every program's functions, by address */
    int nfn;
    struct ktpu_elf_func *block[8];   /* each program's own (its names live there) */
    int nblock;
    uint32_t fn_lo, fn_hi;      /* the current function's range */
    struct slice cpu_fn, cpu_phase;
};

static void event(struct ktpu_timeline *t, const char *name, int pid, int tid, uint64_t start, uint64_t end)
{
    fprintf(t->f, "%s\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%llu,\"dur\":%llu}",
            t->events ? "," : "", name, pid, tid, (unsigned long long)start, (unsigned long long)(end - start));
    t->events++;
}

static void meta(struct ktpu_timeline *t, const char *what, int pid, int tid, const char *name)
{
    fprintf(t->f, "%s\n{\"name\":\"%s\",\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"args\":{\"name\":\"%s\"}}",
            t->events ? "," : "", what, pid, tid, name);
    t->events++;
}

/* Moves slice s to name at cycle (the old one, if any, written). */
static void switch_to(struct ktpu_timeline *t, struct slice *s, const char *name, int pid, int tid,
                      uint64_t cycle)
{
    if (s->open && s->name == name) return;
    if (s->open && cycle > s->start) event(t, s->name, pid, tid, s->start, cycle);
    s->open = name != NULL;
    s->name = name;
    s->start = cycle;
}

struct ktpu_timeline *ktpu_timeline_new(FILE *f, unsigned clusters)
{
    struct ktpu_timeline *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->f = f;
    t->clusters = clusters < MAX_CLUSTERS ? clusters : MAX_CLUSTERS;
    fputs("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"time unit\":\"1 us = 1 clock cycle\"},\"traceEvents\":[", t->f);
    meta(t, "process_name", 0, 0, "CPU");
    meta(t, "thread_name", 0, 0, "function");
    meta(t, "thread_name", 0, 1, "phase");
    for (unsigned c = 0; c < t->clusters; c++) {
        char name[32];
        snprintf(name, sizeof name, "cluster %u", c);
        meta(t, "process_name", 1 + (int)c, 0, name);
        for (int b = 0; b < ACT_BITS; b++) meta(t, "thread_name", 1 + (int)c, b, act_name[b]);
    }
    return t;
}

int ktpu_timeline_add_elf(struct ktpu_timeline *t, const char *elf, char *err, size_t err_len)
{
    struct ktpu_elf_func *f;
    if (t->nblock == (int)(sizeof t->block / sizeof t->block[0])) {
        snprintf(err, err_len, "more than %d programs", t->nblock);
        return -1;
    }
    int n = ktpu_elf_functions(elf, &f, err, err_len);
    if (n < 0) return -1;
    struct ktpu_elf_func *all = realloc(t->fn, (size_t)(t->nfn + n + 1) * sizeof *all);
    if (!all) {
        free(f);
        snprintf(err, err_len, "out of memory");
        return -1;
    }
    t->block[t->nblock++] = f;   /* freed at close: the names point into it */
    t->fn = all;
    if (n) memcpy(t->fn + t->nfn, f, (size_t)n * sizeof *f);
    t->nfn += n;
    qsort(t->fn, (size_t)t->nfn, sizeof *t->fn, ktpu_elf_func_by_addr);
    t->fn_lo = t->fn_hi = 0;
    return 0;
}

void ktpu_timeline_cycle(struct ktpu_timeline *t, uint64_t cycle, const uint32_t *act)
{
    if (!memcmp(act, t->last_act, sizeof t->last_act)) return;
    for (unsigned c = 0; c < t->clusters; c++)
        for (int b = 0; b < ACT_BITS; b++) {
            unsigned bit = ACT_BITS * c + (unsigned)b;
            int on = (act[bit / 32] >> (bit % 32)) & 1;
            if (on != t->act[c][b].open) switch_to(t, &t->act[c][b], on ? act_name[b] : NULL, 1 + (int)c, b, cycle);
        }
    memcpy(t->last_act, act, sizeof t->last_act);
}

static const char *phase(const char *fn)
{
    size_t len = strcspn(fn, ".");   /* a clone's suffix dropped */
    for (size_t i = 0; i < sizeof phase_of_fn / sizeof phase_of_fn[0]; i++) {
        const char *p = phase_of_fn[i].fn;
        size_t n = strlen(p);
        if (p[n - 1] == '*' ? len >= n - 1 && !strncmp(fn, p, n - 1) : len == n && !strncmp(fn, p, n))
            return phase_of_fn[i].phase;
    }
    return "other";
}

void ktpu_timeline_pc(struct ktpu_timeline *t, uint64_t cycle, uint32_t pc)
{
    if (pc >= t->fn_lo && pc < t->fn_hi) return;
    /* the last function starting at or below pc */
    int lo = 0, hi = t->nfn - 1, k = -1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (t->fn[mid].addr <= pc) k = mid, lo = mid + 1;
        else hi = mid - 1;
    }
    const char *name = "(no symbol)";
    if (k >= 0 && pc - t->fn[k].addr < t->fn[k].size) {
        name = t->fn[k].name;
        t->fn_lo = t->fn[k].addr;
        t->fn_hi = t->fn[k].addr + t->fn[k].size;
    } else {
        t->fn_lo = t->fn_hi = 0;
    }
    switch_to(t, &t->cpu_fn, name, 0, 0, cycle);
    /* the phase's name is a table string: compared by pointer */
    switch_to(t, &t->cpu_phase, phase(name), 0, 1, cycle);
}

long ktpu_timeline_end(struct ktpu_timeline *t, uint64_t cycle)
{
    for (unsigned c = 0; c < t->clusters; c++)
        for (int b = 0; b < ACT_BITS; b++) switch_to(t, &t->act[c][b], NULL, 1 + (int)c, b, cycle);
    switch_to(t, &t->cpu_fn, NULL, 0, 0, cycle);
    switch_to(t, &t->cpu_phase, NULL, 0, 1, cycle);
    fputs("\n]}\n", t->f);
    long n = fflush(t->f) || ferror(t->f) ? -1 : t->events;
    for (int i = 0; i < t->nblock; i++) free(t->block[i]);
    free(t->fn);
    free(t);
    return n;
}
