/* The UART bootloader (SPEC §9.1, docs/boot.md). Runs from its own region
 * at the top of local RAM (entry.S sets its stack there), before the
 * built-in firmware's start-up: it listens on UART RX for up to
 * BOOT_WAIT cycles (an MMIO register: the SoC's parameter); a frame (ktpu_boot.h) is received whole into the
 * DRAM staging area and checked (header, every block's CRC, the payload's
 * CRC, every record inside RAM below this region or DRAM below the staging
 * area) before a byte of it is copied to its place; then the program
 * starts as reset would. A refusal prints one "boot:" line and returns to
 * the built-in firmware, whose RAM the refused image never touched.
 * Freestanding: no C library (it lives in the RAM an image may replace),
 * no division. */
#include <stdint.h>

#include "ktpu_boot.h"
#include "ktpu_rt.h"

/* Cycles of MTIME to wait for the first byte, and between two bytes of a
 * frame: the machine's BOOT_WAIT (co-simulation: short; a board: about 2 s
 * of its clock), so one boot image serves both. */
static uint32_t wait_cycles;

int ktpu_boot_main(void);
void ktpu_boot_start(uint32_t entry) __attribute__((noreturn));   /* entry.S */

static void put(char c)
{
    /* the SoC holds the store while the previous byte has not left */
    *(volatile uint8_t *)(KTPU_MMIO_BASE + KTPU_MMIO_UART_TX_OFFSET) = (uint8_t)c;
}

static void puts_(const char *s)
{
    while (*s) put(*s++);
}

static void put_hex(uint32_t v)
{
    puts_("0x");
    for (int i = 28; i >= 0; i -= 4) put("0123456789abcdef"[(v >> i) & 15u]);
}

/* A byte within `wait` cycles, or -1. The timer is read only when no byte
 * is waiting (during an upload one nearly always is). */
static inline int get(uint32_t wait)
{
    uint32_t v = KTPU_REG(UART_RX);
    if (v & KTPU_UART_RX_VALID_MASK) return (int)(v & KTPU_UART_RX_DATA_MASK);
    uint32_t t0 = KTPU_REG(MTIME_LO);
    for (;;) {
        v = KTPU_REG(UART_RX);
        if (v & KTPU_UART_RX_VALID_MASK) return (int)(v & KTPU_UART_RX_DATA_MASK);
        if (KTPU_REG(MTIME_LO) - t0 > wait) return -1;
    }
}

/* CRC-32 by a table built at start (1 KiB of this region's bss): the
 * receive loop is what an upload's time goes to. */
static uint32_t crc_tab[256];

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
        crc_tab[i] = c;
    }
}

static inline uint32_t crc32_add(uint32_t crc, uint8_t b) { return (crc >> 8) ^ crc_tab[(crc ^ b) & 255u]; }

/* n bytes into dst by words (the last one padded with zeros) and their
 * CRC-32 into *crc; returns the bytes received (n, or fewer at a
 * time-out). Out of line, so that its few registers stay registers: this
 * loop is an upload's time. */
static uint32_t __attribute__((noinline)) recv_block(volatile uint32_t *dst, uint32_t n, uint32_t *crc)
{
    uint32_t c = ~0u, i = 0;
    for (; i < n; i += 4) {
        uint32_t w = 0;
        for (unsigned k = 0; k < 4 && i + k < n; k++) {
            int b = get(wait_cycles);
            if (b < 0) {
                *crc = ~c;
                return i + k;
            }
            c = crc32_add(c, (uint8_t)b);
            w |= (uint32_t)b << (8 * k);
        }
        *dst++ = w;
    }
    *crc = ~c;
    return n;
}

static uint32_t rd32(const volatile uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int ack_mode;

/* The one line of a refusal; the built-in firmware runs next. */
static int refuse(const char *what, uint32_t v)
{
    if (ack_mode) put((char)KTPU_BOOT_CAN);
    puts_("boot: refused: ");
    puts_(what);
    put(' ');
    put_hex(v);
    puts_("; starting the built-in firmware\n");
    return -1;
}

/* [a, a + n) inside [lo, hi) (no wrap). */
static int inside(uint32_t a, uint32_t n, uint32_t lo, uint32_t hi)
{
    return a >= lo && a <= hi && n <= hi - a;
}

int ktpu_boot_main(void)
{
    uint8_t h[KTPU_BOOT_HDR_BYTES];
    ack_mode = 0;
    wait_cycles = KTPU_REG(BOOT_WAIT);
    int c = get(wait_cycles);
    if (c < 0) return 0;   /* nothing came: the built-in firmware */
    crc_init();
    h[0] = (uint8_t)c;
    for (unsigned i = 1; i < KTPU_BOOT_HDR_BYTES; i++) {
        if ((c = get(wait_cycles)) < 0) return refuse("truncated header", i);
        h[i] = (uint8_t)c;
    }
    if (rd32(h) != KTPU_BOOT_MAGIC) return refuse("bad magic (not a ktpu-upload image)", rd32(h));
    uint32_t hcrc = ~0u;
    for (unsigned i = 0; i < 24; i++) hcrc = crc32_add(hcrc, h[i]);
    if (~hcrc != rd32(h + 24)) return refuse("header CRC mismatch", rd32(h + 24));
    uint32_t ver = rd32(h + 4);
    ack_mode = (ver >> 16 & KTPU_BOOT_FLAG_ACK) != 0;
    if ((ver & 0xFFFFu) != KTPU_BOOT_VERSION) return refuse("unknown frame version", ver & 0xFFFFu);
    if (ver >> 16 & ~KTPU_BOOT_FLAG_ACK) return refuse("unknown frame flags", ver >> 16);
    uint32_t entry = rd32(h + 8), nseg = rd32(h + 12), bytes = rd32(h + 16), crc = rd32(h + 20);
    if (bytes > KTPU_BOOT_STAGE_BYTES) return refuse("oversized: payload bytes above the 1 MiB staging area", bytes);
    if (ack_mode) put((char)KTPU_BOOT_ACK);

    /* the payload, a block at a time, into the staging area by words */
    volatile uint32_t *stage_w = (volatile uint32_t *)KTPU_BOOT_STAGE_BASE;
    const volatile uint8_t *stage = (const volatile uint8_t *)KTPU_BOOT_STAGE_BASE;
    uint32_t chain = ~0u;   /* CRC-32 of the blocks' CRCs, the header's crc */
    for (uint32_t at = 0, blk = 0; at < bytes; blk++) {
        uint32_t n = bytes - at < KTPU_BOOT_BLOCK ? bytes - at : KTPU_BOOT_BLOCK, got;
        for (unsigned tries = 0;; tries++) {
            uint32_t bc, r = recv_block(stage_w + (at >> 2), n, &bc);
            got = 0;
            if (r != n) return refuse("truncated: payload bytes received", at + r);
            for (unsigned i = 0; i < 4; i++) {
                if ((c = get(wait_cycles)) < 0) return refuse("truncated: payload bytes received", at + n);
                got |= (uint32_t)c << (8 * i);
            }
            if (bc == got) break;
            if (!ack_mode || tries + 1 >= KTPU_BOOT_RETRIES) return refuse("block CRC mismatch, block", blk);
            put((char)KTPU_BOOT_NAK);
        }
        for (unsigned i = 0; i < 4; i++) chain = crc32_add(chain, (uint8_t)(got >> (8 * i)));
        at += n;
        if (ack_mode && at < bytes) put((char)KTPU_BOOT_ACK);   /* the last one: when all is checked */
    }
    if (~chain != crc) return refuse("payload CRC mismatch (the blocks' CRCs)", ~chain);

    /* every record where an image may go, before any is copied */
    uint32_t at = 0;
    for (uint32_t s = 0; s < nseg; s++) {
        if (bytes - at < KTPU_BOOT_REC_BYTES) return refuse("records run past the payload, record", s);
        uint32_t a = rd32(stage + at), fs = rd32(stage + at + 4), ms = rd32(stage + at + 8);
        at += KTPU_BOOT_REC_BYTES;
        if (fs > ms || fs > bytes - at || (a & 3u)) return refuse("record inconsistent (sizes, alignment), record", s);
        if (!inside(a, ms, KTPU_RAM_BASE, KTPU_BOOT_BASE) && !inside(a, ms, KTPU_DRAM_BASE, KTPU_BOOT_STAGE_BASE))
            return refuse("misaddressed: a segment outside RAM below the bootloader and DRAM below the staging area, at",
                          a);
        at += (fs + 3u) & ~3u;   /* records start on words */
    }
    if (at > bytes || bytes - at > 3u) return refuse("payload bytes after the last record", bytes - at);
    if (!inside(entry, 4, KTPU_RAM_BASE, KTPU_BOOT_BASE) && !inside(entry, 4, KTPU_DRAM_BASE, KTPU_BOOT_STAGE_BASE))
        return refuse("misaddressed entry", entry);

    /* accepted (the sender's last acknowledgement says so): copy, zero the
     * rest of each segment, start */
    if (ack_mode) put((char)KTPU_BOOT_ACK);
    at = 0;
    for (uint32_t s = 0; s < nseg; s++) {
        uint32_t a = rd32(stage + at), fs = rd32(stage + at + 4), ms = rd32(stage + at + 8);
        at += KTPU_BOOT_REC_BYTES;
        /* by words (records and segments start on words), eight loads
         * before eight stores: a store empties the CPU's one-line DRAM
         * buffer, so a load after each store would wait for DRAM */
        volatile uint32_t *dw = (volatile uint32_t *)a;
        const volatile uint32_t *sw = (const volatile uint32_t *)(stage + at);
        uint32_t i = 0, t[8];
        for (; i + 32 <= fs; i += 32) {
            for (unsigned k = 0; k < 8; k++) t[k] = sw[k];
            for (unsigned k = 0; k < 8; k++) dw[k] = t[k];
            sw += 8, dw += 8;
        }
        for (; i + 4 <= fs; i += 4) *dw++ = *sw++;
        volatile uint8_t *d = (volatile uint8_t *)a;
        for (; i < fs; i++) d[i] = stage[at + i];
        for (; i < ms && (i & 3u); i++) d[i] = 0;
        for (dw = (volatile uint32_t *)(a + i); i + 4 <= ms; i += 4) *dw++ = 0;
        for (; i < ms; i++) d[i] = 0;
        at += (fs + 3u) & ~3u;
    }
    ktpu_boot_start(entry);
}
