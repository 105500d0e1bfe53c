/* ktpu_iss_platform: see ktpu_iss_platform.h. The registers' behaviour is
 * docs/soc.md's (MMIO register block). */
#include "ktpu_iss_platform.h"

#include <stdio.h>

#include "ktpu_defs.h"

#define OFF(r) KTPU_MMIO_##r##_OFFSET

static const char *reg_name(uint32_t off)
{
    if (off >= OFF(MESH_TX0) && off < OFF(MESH_TX0) + 4 * KTPU_MESH_FLIT_WORDS) return "MESH_TXn";
    if (off >= OFF(MESH_RX0) && off < OFF(MESH_RX0) + 4 * KTPU_MESH_FLIT_WORDS) return "MESH_RXn";
    switch (off) {
#define NAME(N, O, RD, WR) \
    case O: return #N;
        KTPU_MMIO_REG_LIST(NAME)
#undef NAME
    }
    return "?";
}

/* an access to a register the platform does not model */
static int unmodelled(uint32_t off, const char *how, char *msg, size_t len)
{
    snprintf(msg, len,
             "%s %s (MMIO +0x%02x): --iss models the CPU, its RAM, DRAM, UART, timer and mailbox, not the "
             "clusters, the mesh port or the accelerator's registers; run this program without --iss",
             how, reg_name(off), (unsigned)off);
    return -1;
}

static uint64_t mtime(const struct ktpu_iss_platform *p)
{
    return ktpu_iss_cycles(p->iss) + (uint64_t)p->mtime_off;
}

static int load(void *ctx, uint32_t off, uint32_t *v, char *msg, size_t len)
{
    struct ktpu_iss_platform *p = ctx;
    switch (off) {
    case OFF(UART_RX):
        if (p->rx_next == EOF) {
            *v = 0;
        } else {
            *v = KTPU_UART_RX_VALID_MASK | (uint32_t)p->rx_next;
            p->rx_next = p->uart_in ? fgetc(p->uart_in) : EOF;
        }
        return 0;
    case OFF(UART_STATUS):
        *v = KTPU_UART_STATUS_TX_READY_MASK | (p->rx_next != EOF ? KTPU_UART_STATUS_RX_VALID_MASK : 0u);
        return 0;
    case OFF(UART_ERRORS): *v = 0; return 0;
    case OFF(MTIME_LO): *v = (uint32_t)mtime(p); return 0;
    case OFF(MTIME_HI): *v = (uint32_t)(mtime(p) >> 32); return 0;
    case OFF(MTIMECMP_LO): *v = (uint32_t)p->mtimecmp; return 0;
    case OFF(MTIMECMP_HI): *v = (uint32_t)(p->mtimecmp >> 32); return 0;
    case OFF(MBOX_ARG0): *v = p->mbox_arg0; return 0;
    case OFF(MBOX_ARG1): *v = p->mbox_arg1; return 0;
    case OFF(MBOX_RESP): *v = p->mbox_resp; return 0;
    default: return unmodelled(off, "a load from", msg, len);
    }
}

static int store(void *ctx, uint32_t off, uint32_t wdata, uint32_t wmask, char *msg, size_t len)
{
    struct ktpu_iss_platform *p = ctx;
    uint64_t t;
    switch (off) {
    case OFF(UART_TX):   /* any store; the byte is lane 0's */
        fputc((int)(wdata & 0xFFu), p->uart_out);
        return 0;
    case OFF(SIM_EXIT):
        if (wmask != 0xFu) {
            p->bad_exit_wmask = wmask;
            p->exited = 1;
        } else if (wdata & 1u) {
            p->exit_status = wdata >> 1;
            p->exited = 1;
        }
        return 0;
    case OFF(MTIME_LO):
    case OFF(MTIME_HI):
        t = off == OFF(MTIME_LO) ? (mtime(p) & ~0xFFFFFFFFull) | wdata
                                 : (mtime(p) & 0xFFFFFFFFull) | (uint64_t)wdata << 32;
        p->mtime_off = (int64_t)(t - ktpu_iss_cycles(p->iss));
        return 0;
    case OFF(MTIMECMP_LO): p->mtimecmp = (p->mtimecmp & ~0xFFFFFFFFull) | wdata; return 0;
    case OFF(MTIMECMP_HI): p->mtimecmp = (p->mtimecmp & 0xFFFFFFFFull) | (uint64_t)wdata << 32; return 0;
    case OFF(MBOX_ARG0): p->mbox_arg0 = wdata; return 0;
    case OFF(MBOX_ARG1): p->mbox_arg1 = wdata; return 0;
    case OFF(MBOX_CMD):
        if (wdata == KTPU_MBOX_CMD_PRINT_WORD) {
            fflush(p->uart_out);
            fprintf(stderr, "ktpu-sim: mailbox: 0x%08x\n", (unsigned)p->mbox_arg0);
        } else if (wdata == KTPU_MBOX_CMD_ECHO) {
            p->mbox_resp = p->mbox_arg0 + p->mbox_arg1;
        } else {
            fflush(p->uart_out);
            fprintf(stderr, "ktpu-sim: mailbox: unknown command %u\n", (unsigned)wdata);
        }
        return 0;
    default: return unmodelled(off, "a store to", msg, len);
    }
}

static uint32_t mip(void *ctx)
{
    const struct ktpu_iss_platform *p = ctx;
    return mtime(p) >= p->mtimecmp ? 1u << 7 : 0u;   /* MTIP; no mesh, no MEIP */
}

void ktpu_iss_platform_init(struct ktpu_iss_platform *p, struct ktpu_iss *iss, FILE *uart_in, FILE *uart_out)
{
    *p = (struct ktpu_iss_platform){0};
    p->iss = iss;
    p->uart_in = uart_in;
    p->uart_out = uart_out;
    p->rx_next = uart_in ? fgetc(uart_in) : EOF;
    p->mtimecmp = ~0ull;
    p->io = (struct ktpu_iss_io){load, store, mip, p};
}
