// ktpu_tb_main.h -- how every Verilator bench starts: its command line
// (--seed and the bench's own options, one parser) and the simulation
// context (random initial values from the seed, plusargs to the models).
// Header-only; ktpu_tb.h includes it.
#ifndef KTPU_TB_MAIN_H
#define KTPU_TB_MAIN_H

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>

#include "verilated.h"

// ---- the command line ------------------------------------------------------
// Every option is `--name VALUE` (or a flag alone); numbers are decimal or
// 0x hex and must fit their variable; +plusargs are left for the models
// ($value$plusargs). Anything else ends the bench with status 2 and the
// list of its options.
struct TbOpt {
    enum Kind { kULLong, kULong, kUnsigned, kInt, kFlag, kString };
    const char *name;
    Kind kind;
    void *dst;
    TbOpt(const char *n, unsigned long long *v) : name(n), kind(kULLong), dst(v) {}
    TbOpt(const char *n, unsigned long *v) : name(n), kind(kULong), dst(v) {}   // uint64_t here
    TbOpt(const char *n, unsigned *v) : name(n), kind(kUnsigned), dst(v) {}
    TbOpt(const char *n, int *v) : name(n), kind(kInt), dst(v) {}
    TbOpt(const char *n, bool *v) : name(n), kind(kFlag), dst(v) {}
    TbOpt(const char *n, const char **v) : name(n), kind(kString), dst(v) {}
};

[[noreturn]] inline void tb_usage(const char *bench, const char *what, const char *arg,
                                  std::initializer_list<TbOpt> opts) {
    std::fprintf(stderr, "%s: %s %s (options:", bench, what, arg);
    for (const TbOpt &o : opts) std::fprintf(stderr, " %s%s", o.name, o.kind == TbOpt::kFlag ? "" : " N");
    std::fprintf(stderr, ", +plusargs)\n");
    std::exit(2);
}

inline void tb_args(int argc, char **argv, const char *bench, std::initializer_list<TbOpt> opts) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '+') continue;
        const TbOpt *o = nullptr;
        for (const TbOpt &c : opts)
            if (!std::strcmp(a, c.name)) o = &c;
        if (!o) tb_usage(bench, "unknown argument", a, opts);
        if (o->kind == TbOpt::kFlag) {
            *static_cast<bool *>(o->dst) = true;
            continue;
        }
        if (i + 1 >= argc) tb_usage(bench, "no value after", a, opts);
        const char *v = argv[++i];
        if (o->kind == TbOpt::kString) {
            *static_cast<const char **>(o->dst) = v;
            continue;
        }
        char *end = nullptr;
        errno = 0;
        unsigned long long n = std::strtoull(v, &end, v[0] == '0' && (v[1] == 'x' || v[1] == 'X') ? 16 : 10);
        unsigned long long max = o->kind == TbOpt::kULLong ? ULLONG_MAX
                                 : o->kind == TbOpt::kULong ? ULONG_MAX
                                 : o->kind == TbOpt::kUnsigned ? UINT_MAX : INT_MAX;
        if (!v[0] || v[0] == '-' || v[0] == '+' || *end || errno || n > max) tb_usage(bench, "not a number in range:", v, opts);
        if (o->kind == TbOpt::kULLong) *static_cast<unsigned long long *>(o->dst) = n;
        else if (o->kind == TbOpt::kULong) *static_cast<unsigned long *>(o->dst) = (unsigned long)n;
        else if (o->kind == TbOpt::kUnsigned) *static_cast<unsigned *>(o->dst) = (unsigned)n;
        else *static_cast<int *>(o->dst) = (int)n;
    }
}

// ---- the simulation context ------------------------------------------------
// Registers and memories start random (randReset(2)) from the bench's seed,
// and the command line's plusargs reach the models.
inline std::unique_ptr<VerilatedContext> tb_context(int argc, char **argv, uint64_t seed) {
    auto ctx = std::make_unique<VerilatedContext>();
    ctx->randReset(2);
    ctx->randSeed((int)(seed & 0x7FFFFFFF));
    ctx->commandArgs(argc, argv);
    return ctx;
}

#endif
