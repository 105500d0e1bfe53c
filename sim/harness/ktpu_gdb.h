/* ktpu_gdb: a GDB remote serial protocol server (the subset gdb needs for
 * a bare-metal RV32 target: registers, memory, software breakpoints, single
 * step, continue, Ctrl-C, kill, detach), over TCP on localhost. It drives a
 * target through the callbacks below and knows nothing of how the target
 * runs (ktpu-sim --iss: the instruction-set model; on the RTL, the lockstep
 * model beside the core, stepped a retirement at a time). docs/soc.md, "--gdb". */
#ifndef KTPU_GDB_H
#define KTPU_GDB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* step's answer */
enum ktpu_gdb_run { KTPU_GDB_RAN = 0, KTPU_GDB_EXITED = 1, KTPU_GDB_FAILED = -1 };

struct ktpu_gdb_target {
    void *ctx;
    uint32_t (*reg)(void *ctx, unsigned i);                  /* 0..31: x0..x31, 32: pc */
    int (*set_reg)(void *ctx, unsigned i, uint32_t v);       /* 0, or -1: not writable */
    int (*read)(void *ctx, uint32_t addr, uint8_t *b);       /* 0, or -1: no memory there */
    int (*write)(void *ctx, uint32_t addr, uint8_t b);       /* 0, or -1: not writable */
    int (*step)(void *ctx, int *exit_status);                /* one instruction (or trap) */
};

/* Listens on 127.0.0.1:port (0: one the system picks), says on stderr which
 * port, and waits for gdb to connect. Returns the connection, or -1 with
 * err. */
int ktpu_gdb_accept(unsigned port, char *err, size_t len);

/* Serves the connection until the program exits (gdb is told its status),
 * gdb kills it or detaches (the program then runs on without gdb: *detached
 * set), or the connection drops. Returns the target's last step answer:
 * KTPU_GDB_EXITED with *exit_status, KTPU_GDB_RAN when it did not exit,
 * KTPU_GDB_FAILED when a step failed. max_steps bounds a continue (a
 * runaway program under gdb stops with SIGXCPU, as a time-out). */
int ktpu_gdb_serve(int fd, const struct ktpu_gdb_target *t, uint64_t max_steps, int *exit_status, int *detached);

#ifdef __cplusplus
}
#endif
#endif
