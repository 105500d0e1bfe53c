/* ktpu_iss: see ktpu_iss.h. Written from the RISC-V specifications and
 * SPEC §2, not from the RTL: a switch on the opcode, a flat memory, and the
 * machine-mode CSRs. */
#include "ktpu_iss.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ktpu_defs.h"
#include "ktpu_elf.h"
#include "ktpu_rng.h"

struct ktpu_iss {
    uint32_t x[32], pc;
    /* Registers start random in the core (SPEC §14) and unknown here. A
     * word store of an unknown register teaches the model its value (that
     * is how a prologue saves a callee-saved register); any other read of
     * one is reported. */
    int known[32];
    int mie, mpie, mtie, meie;
    uint32_t mtvec, mepc, mcause, mtval, mscratch;
    uint64_t minstret;
    uint8_t *ram, *dram;
    /* Local RAM starts random in the core (SPEC §14) as registers do: a
     * byte never written (by the loader or a store) takes the core's value
     * at its first load, as an unknown register's first store teaches the
     * model (a struct copy reads uninitialised padding) */
    uint8_t *ram_known;
    ktpu_iss_dram_read dram_rd;   /* ktpu_iss_set_dram, or NULL: loads read dram */
    void *dram_ctx;
    /* standalone (ktpu_iss_standalone): the platform's devices, and why
     * an MMIO access failed */
    const struct ktpu_iss_io *io;
    uint64_t steps, mcycle;   /* steps taken (the platform's time); mcycle, which is writable */
    char io_msg[160];
};

enum { EXC_INSN_MISALIGN = 0, EXC_INSN_ACCESS = 1, EXC_ILLEGAL = 2, EXC_BREAK = 3,
       EXC_LOAD_MISALIGN = 4, EXC_LOAD_ACCESS = 5, EXC_STORE_MISALIGN = 6,
       EXC_STORE_ACCESS = 7, EXC_ECALL_M = 11 };

struct ktpu_iss *ktpu_iss_new(void)
{
    struct ktpu_iss *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->ram = calloc(KTPU_RAM_BYTES, 1);
    s->dram = calloc(KTPU_DRAM_SIM_BYTES, 1);
    s->ram_known = calloc(KTPU_RAM_BYTES, 1);
    if (!s->ram || !s->dram || !s->ram_known) { ktpu_iss_free(s); return NULL; }
    s->known[0] = 1;
    return s;
}

void ktpu_iss_free(struct ktpu_iss *s)
{
    if (!s) return;
    free(s->ram);
    free(s->dram);
    free(s->ram_known);
    free(s);
}

uint64_t ktpu_iss_retired(const struct ktpu_iss *s) { return s->minstret; }

void ktpu_iss_set_dram(struct ktpu_iss *s, ktpu_iss_dram_read fn, void *ctx)
{
    s->dram_rd = fn;
    s->dram_ctx = ctx;
}

static uint8_t *mem_ptr(struct ktpu_iss *s, uint32_t a)
{
    if (a < KTPU_RAM_BYTES) return s->ram + a;
    if (a >= KTPU_DRAM_BASE && a - KTPU_DRAM_BASE < KTPU_DRAM_SIM_BYTES)
        return s->dram + (a - KTPU_DRAM_BASE);
    return NULL;
}

void ktpu_iss_write_byte(void *iss, uint32_t addr, uint8_t byte)
{
    struct ktpu_iss *s = iss;
    uint8_t *p = mem_ptr(s, addr);
    if (p) *p = byte;
    if (addr < KTPU_RAM_BYTES) s->ram_known[addr] = 1;
}

int ktpu_iss_load_elf(struct ktpu_iss *s, const char *path, uint32_t *entry, char *err, size_t len)
{
    const struct ktpu_elf_region regions[2] = {
        {"RAM", KTPU_RAM_BASE, KTPU_RAM_BYTES, ktpu_iss_write_byte, s},
        {"DRAM", KTPU_DRAM_BASE, KTPU_DRAM_SIM_BYTES, ktpu_iss_write_byte, s},
    };
    return ktpu_elf_load(path, regions, 2, entry, err, len);
}

/* MMIO: which word offsets a load or a store may touch (the access column
 * of data/ktpu.def's registers; the flit registers past TX0 and RX0 too). */
static int mmio_ok(uint32_t off, int store)
{
    if (off >= KTPU_MMIO_MESH_TX0_OFFSET && off < KTPU_MMIO_MESH_TX0_OFFSET + 4 * KTPU_MESH_FLIT_WORDS)
        return store;
    if (off >= KTPU_MMIO_MESH_RX0_OFFSET && off < KTPU_MMIO_MESH_RX0_OFFSET + 4 * KTPU_MESH_FLIT_WORDS)
        return !store;
    switch (off) {
#define MMIO_REG(NAME, OFF, RD, WR) \
    case OFF: return store ? WR : RD;
        KTPU_MMIO_REG_LIST(MMIO_REG)
#undef MMIO_REG
    default:
        return 0;
    }
}

static int is_mmio(uint32_t a) { return a - KTPU_MMIO_BASE < KTPU_MMIO_BYTES; }

static int fmt(char *msg, size_t len, const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    vsnprintf(msg, len, f, ap);
    va_end(ap);
    return -1;
}

static uint32_t sext(uint32_t v, int bits) { return (uint32_t)((int32_t)(v << (32 - bits)) >> (32 - bits)); }

/* CSR read; *ok = 0 for an unknown address. `rtl_value` is used for the CSRs
 * whose value depends on time. */
static uint32_t csr_read(struct ktpu_iss *s, uint32_t a, uint32_t rtl_value, int *ok)
{
    *ok = 1;
    switch (a) {
    case 0x300: return (3u << 11) | ((uint32_t)s->mpie << 7) | ((uint32_t)s->mie << 3);
    case 0x301: return KTPU_CSR_MISA_VALUE;
    case 0x304: return ((uint32_t)s->meie << 11) | ((uint32_t)s->mtie << 7);
    case 0x305: return s->mtvec;
    case 0x340: return s->mscratch;
    case 0x341: return s->mepc;
    case 0x342: return s->mcause;
    case 0x343: return s->mtval;
    case 0xB02: case 0xC02: return (uint32_t)s->minstret;
    case 0xB82: case 0xC82: return (uint32_t)(s->minstret >> 32);
    case 0x344: case 0xB00: case 0xB80: case 0xC00: case 0xC80: case 0xC01: case 0xC81:
        return rtl_value;
    case 0xF11: case 0xF12: case 0xF13: case 0xF14: case 0xF15: return 0;
    default: *ok = 0; return 0;
    }
}

/* Standalone, the CSRs that count time: mcycle one per step, time the
 * platform's mtime, mip from the platform. */
static uint32_t standalone_csr(struct ktpu_iss *s, uint32_t a)
{
    uint32_t v = 0;
    char msg[8];
    switch (a) {
    case 0x344: return s->io->mip(s->io->ctx);
    case 0xC01: s->io->load(s->io->ctx, KTPU_MMIO_MTIME_LO_OFFSET, &v, msg, sizeof msg); return v;
    case 0xC81: s->io->load(s->io->ctx, KTPU_MMIO_MTIME_HI_OFFSET, &v, msg, sizeof msg); return v;
    case 0xB80: case 0xC80: return (uint32_t)(s->mcycle >> 32);
    default: return (uint32_t)s->mcycle;   /* mcycle, cycle */
    }
}

static void csr_write(struct ktpu_iss *s, uint32_t a, uint32_t v, int *minstret_written)
{
    switch (a) {
    case 0x300: s->mie = (v >> 3) & 1; s->mpie = (v >> 7) & 1; break;
    case 0x304: s->mtie = (v >> 7) & 1; s->meie = (v >> 11) & 1; break;
    case 0x305: s->mtvec = v & ~3u; break;
    case 0x340: s->mscratch = v; break;
    case 0x341: s->mepc = v & ~3u; break;
    case 0x342: s->mcause = v & 0x8000001Fu; break;
    case 0x343: s->mtval = v; break;
    case 0xB02: s->minstret = (s->minstret & ~0xFFFFFFFFull) | v; *minstret_written = 1; break;
    case 0xB82: s->minstret = (s->minstret & 0xFFFFFFFFull) | (uint64_t)v << 32; *minstret_written = 1; break;
    /* standalone only (lockstep takes mcycle from the core): the next
     * instruction reads the written value, as for minstret */
    case 0xB00: if (s->io) s->mcycle = ((s->mcycle & ~0xFFFFFFFFull) | v) - 1u; break;
    case 0xB80: if (s->io) s->mcycle = ((s->mcycle & 0xFFFFFFFFull) | (uint64_t)v << 32) - 1u; break;
    default: break; /* misa, mip; mcycle in lockstep (the core's): ignored */
    }
}

struct step {
    int io_err;   /* standalone: the platform refused an MMIO load (s->io_msg) */
    int trap; uint32_t cause, tval;
    int rd; uint32_t rd_val;
    uint32_t addr, rmask, wmask, wdata;
    uint32_t next_pc;
    int uninit; uint32_t uninit_reg;
};

static void execute(struct ktpu_iss *s, const struct ktpu_rvfi *r, struct step *o)
{
    uint32_t pc = s->pc;
    memset(o, 0, sizeof *o);
    o->next_pc = pc + 4;
    if (pc >= KTPU_RAM_BYTES) {
        o->trap = 1; o->cause = EXC_INSN_ACCESS; o->tval = pc;
        return;
    }
    uint32_t in = (uint32_t)s->ram[pc] | (uint32_t)s->ram[pc + 1] << 8 |
                  (uint32_t)s->ram[pc + 2] << 16 | (uint32_t)s->ram[pc + 3] << 24;
    uint32_t op = in & 0x7F, rd = (in >> 7) & 31, f3 = (in >> 12) & 7, rs1 = (in >> 15) & 31,
             rs2 = (in >> 20) & 31, f7 = in >> 25;
    int uses1 = op != 0x37 && op != 0x17 && op != 0x6F && op != 0x0F &&
                !(op == 0x73 && (f3 == 0 || (f3 & 4)));
    int uses2 = op == 0x63 || op == 0x23 || op == 0x33;
    if (uses2 && !s->known[rs2] && op == 0x23 && f3 == 2 && s->known[rs1] && (s->io || r->mem_wmask == 0xF)) {
        if (!s->io) s->x[rs2] = r->mem_wdata;   /* standalone: its random reset value */
        s->known[rs2] = 1;
    }
    /* Reported unless the instruction turns out to be illegal anyway. */
    int taint = (uses1 && !s->known[rs1]) || (uses2 && !s->known[rs2]);
    uint32_t taint_reg = (uses1 && !s->known[rs1]) ? rs1 : rs2;
    uint32_t a = s->x[rs1], b = s->x[rs2];
#define TRAP(c, t) do {                                                          \
        o->trap = 1; o->cause = (c); o->tval = (t);                              \
        if (taint && (c) != EXC_ILLEGAL) { o->uninit = 1; o->uninit_reg = taint_reg; } \
        return;                                                                  \
    } while (0)
    uint32_t ii = sext(in >> 20, 12);
    uint32_t is = sext(((in >> 25) << 5) | ((in >> 7) & 31), 12);
    uint32_t ib = sext(((in >> 31) << 12) | (((in >> 7) & 1) << 11) | (((in >> 25) & 63) << 5) |
                       (((in >> 8) & 15) << 1), 13);
    uint32_t ij = sext(((in >> 31) << 20) | (((in >> 12) & 255) << 12) | (((in >> 20) & 1) << 11) |
                       (((in >> 21) & 1023) << 1), 21);
    uint32_t iu = in & 0xFFFFF000u;
    int wr = 0;
    uint32_t val = 0;
    switch (op) {
    case 0x37: wr = 1; val = iu; break;
    case 0x17: wr = 1; val = pc + iu; break;
    case 0x6F: {
        uint32_t t = pc + ij;
        if (t & 3) TRAP(EXC_INSN_MISALIGN, t);
        wr = 1; val = pc + 4; o->next_pc = t; break;
    }
    case 0x67: {
        if (f3 != 0) TRAP(EXC_ILLEGAL, in);
        uint32_t t = (a + ii) & ~1u;
        if (t & 3) TRAP(EXC_INSN_MISALIGN, t);
        wr = 1; val = pc + 4; o->next_pc = t; break;
    }
    case 0x63: {
        int take;
        switch (f3) {
        case 0: take = a == b; break;
        case 1: take = a != b; break;
        case 4: take = (int32_t)a < (int32_t)b; break;
        case 5: take = (int32_t)a >= (int32_t)b; break;
        case 6: take = a < b; break;
        case 7: take = a >= b; break;
        default: TRAP(EXC_ILLEGAL, in);
        }
        if (take) {
            uint32_t t = pc + ib;
            if (t & 3) TRAP(EXC_INSN_MISALIGN, t);
            o->next_pc = t;
        }
        break;
    }
    case 0x03: {
        if (f3 == 3 || f3 > 5) TRAP(EXC_ILLEGAL, in);
        uint32_t ad = a + ii, size = 1u << (f3 & 3);
        if (ad & (size - 1)) TRAP(EXC_LOAD_MISALIGN, ad);
        uint32_t word;
        if (is_mmio(ad)) {
            if (!mmio_ok((ad - KTPU_MMIO_BASE) & ~3u, 0)) TRAP(EXC_LOAD_ACCESS, ad);
            if (!s->io) {
                word = r->mem_rdata;   /* device state: the core's value */
            } else if (s->io->load(s->io->ctx, (ad - KTPU_MMIO_BASE) & ~3u, &word, s->io_msg, sizeof s->io_msg)) {
                o->io_err = 1;
                return;
            }
        } else if (s->dram_rd && ad >= KTPU_DRAM_BASE && ad - KTPU_DRAM_BASE < KTPU_DRAM_SIM_BYTES) {
            /* shared with the clusters and the harness: what the RTL's DRAM
             * holds when the load retires (a race-free program reads no
             * word that is being written) */
            word = s->dram_rd(s->dram_ctx, (ad - KTPU_DRAM_BASE) & ~3u);
        } else {
            uint8_t *p = mem_ptr(s, ad & ~3u);
            if (!p) TRAP(EXC_LOAD_ACCESS, ad);
            for (uint32_t i = ad & 3u; ad < KTPU_RAM_BYTES && i < (ad & 3u) + size; i++)
                if (!s->ram_known[(ad & ~3u) + i]) {
                    p[i] = (uint8_t)(r->mem_rdata >> (8 * i));
                    s->ram_known[(ad & ~3u) + i] = 1;
                }
            word = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        }
        uint32_t v = word >> (8 * (ad & 3));
        if (size == 1) v = (f3 & 4) ? (v & 0xFF) : sext(v & 0xFF, 8);
        else if (size == 2) v = (f3 & 4) ? (v & 0xFFFF) : sext(v & 0xFFFF, 16);
        wr = 1; val = v;
        o->addr = ad; o->rmask = ((1u << size) - 1) << (ad & 3);
        break;
    }
    case 0x23: {
        if (f3 > 2) TRAP(EXC_ILLEGAL, in);
        uint32_t ad = a + is, size = 1u << f3;
        if (ad & (size - 1)) TRAP(EXC_STORE_MISALIGN, ad);
        if (is_mmio(ad)) {
            /* registers take only sw, but UART_TX any store (docs/soc.md) */
            uint32_t off = ad - KTPU_MMIO_BASE;
            if (!mmio_ok(off & ~3u, 1) || (size < 4 && off != KTPU_MMIO_UART_TX_OFFSET))
                TRAP(EXC_STORE_ACCESS, ad);
        } else {
            uint8_t *p = mem_ptr(s, ad);
            if (!p) TRAP(EXC_STORE_ACCESS, ad);
            for (uint32_t i = 0; i < size; i++) p[i] = (uint8_t)(b >> (8 * i));
            if (ad < KTPU_RAM_BYTES) memset(s->ram_known + ad, 1, size);
        }
        o->addr = ad; o->wmask = ((1u << size) - 1) << (ad & 3);
        o->wdata = b << (8 * (ad & 3));
        break;
    }
    case 0x13: {
        uint32_t sh = ii & 31;
        wr = 1;
        switch (f3) {
        case 0: val = a + ii; break;
        case 1: if (f7 != 0) TRAP(EXC_ILLEGAL, in); val = a << sh; break;
        case 2: val = (int32_t)a < (int32_t)ii; break;
        case 3: val = a < ii; break;
        case 4: val = a ^ ii; break;
        case 5:
            if (f7 == 0) val = a >> sh;
            else if (f7 == 0x20) val = (uint32_t)((int32_t)a >> sh);
            else TRAP(EXC_ILLEGAL, in);
            break;
        case 6: val = a | ii; break;
        default: val = a & ii; break;
        }
        break;
    }
    case 0x33:
        wr = 1;
        if (f7 == 1) {
            int64_t sa = (int32_t)a, sb = (int32_t)b;
            uint64_t ua = a, ub = b;
            switch (f3) {
            case 0: val = a * b; break;
            case 1: val = (uint32_t)((uint64_t)(sa * sb) >> 32); break;
            case 2: val = (uint32_t)((uint64_t)(sa * (int64_t)ub) >> 32); break;
            case 3: val = (uint32_t)((ua * ub) >> 32); break;
            case 4:
                if (b == 0) val = 0xFFFFFFFFu;
                else if (a == 0x80000000u && b == 0xFFFFFFFFu) val = a;
                else val = (uint32_t)((int32_t)a / (int32_t)b);
                break;
            case 5: val = b ? a / b : 0xFFFFFFFFu; break;
            case 6:
                if (b == 0) val = a;
                else if (a == 0x80000000u && b == 0xFFFFFFFFu) val = 0;
                else val = (uint32_t)((int32_t)a % (int32_t)b);
                break;
            default: val = b ? a % b : a; break;
            }
        } else if (f7 == 0 || (f7 == 0x20 && (f3 == 0 || f3 == 5))) {
            switch (f3) {
            case 0: val = f7 ? a - b : a + b; break;
            case 1: val = a << (b & 31); break;
            case 2: val = (int32_t)a < (int32_t)b; break;
            case 3: val = a < b; break;
            case 4: val = a ^ b; break;
            case 5: val = f7 ? (uint32_t)((int32_t)a >> (b & 31)) : a >> (b & 31); break;
            case 6: val = a | b; break;
            default: val = a & b; break;
            }
        } else {
            TRAP(EXC_ILLEGAL, in);
        }
        break;
    case 0x0F:
        if (f3 > 1) TRAP(EXC_ILLEGAL, in);
        break;
    case 0x73:
        if (f3 == 0) {
            if (in == 0x00000073u) TRAP(EXC_ECALL_M, 0);
            if (in == 0x00100073u) TRAP(EXC_BREAK, pc);
            if (in == 0x30200073u) {
                o->next_pc = s->mepc;
                s->mie = s->mpie; s->mpie = 1;
                break;
            }
            if (in == 0x10500073u) break;
            TRAP(EXC_ILLEGAL, in);
        } else if (f3 == 4) {
            TRAP(EXC_ILLEGAL, in);
        } else {
            uint32_t csr = in >> 20, src = (f3 & 4) ? rs1 : a;
            int writes = (f3 & 3) == 1 || rs1 != 0, ok;
            uint32_t old = csr_read(s, csr, s->io ? standalone_csr(s, csr) : r->rd_wdata, &ok);
            if (!ok || (writes && (csr >> 10) == 3)) TRAP(EXC_ILLEGAL, in);
            uint32_t nv = (f3 & 3) == 1 ? src : (f3 & 3) == 2 ? (old | src) : (old & ~src);
            int mi = 0;
            if (writes) csr_write(s, csr, nv, &mi);
            if (mi) s->minstret--;   /* the write wins over this instruction's count */
            wr = 1; val = old;
        }
        break;
    default:
        TRAP(EXC_ILLEGAL, in);
    }
#undef TRAP
    if (taint) { o->uninit = 1; o->uninit_reg = taint_reg; }
    if (wr && rd != 0) { o->rd = (int)rd; o->rd_val = val; }
}

/* A trap or an interrupt taken: mepc, mcause, mtval; MIE stacked. */
static void take_trap(struct ktpu_iss *s, uint32_t epc, uint32_t cause, uint32_t tval)
{
    s->mepc = epc; s->mcause = cause; s->mtval = tval;
    s->mpie = s->mie; s->mie = 0;
    s->pc = s->mtvec;
}

int ktpu_iss_check(struct ktpu_iss *s, const struct ktpu_rvfi *r, char *msg, size_t len)
{
    if (r->pc != s->pc)
        return fmt(msg, len, "pc: core 0x%08x, model 0x%08x", r->pc, s->pc);
    if (r->trap && (r->cause >> 31)) {
        uint32_t code = r->cause & 31;
        int enabled = s->mie && ((code == 7 && s->mtie) || (code == 11 && s->meie));
        if (!enabled)
            return fmt(msg, len, "core took interrupt cause 0x%08x at pc 0x%08x, model has it masked",
                       r->cause, r->pc);
        take_trap(s, s->pc, r->cause, 0);
    } else {
        uint32_t in_pc = s->pc;
        struct step o;
        execute(s, r, &o);
        if (o.uninit)
            return fmt(msg, len, "pc 0x%08x insn 0x%08x reads x%u, never written since reset",
                       in_pc, r->insn, o.uninit_reg);
        uint32_t insn = in_pc < KTPU_RAM_BYTES
            ? ((uint32_t)s->ram[in_pc] | (uint32_t)s->ram[in_pc + 1] << 8 |
               (uint32_t)s->ram[in_pc + 2] << 16 | (uint32_t)s->ram[in_pc + 3] << 24) : 0;
        if (in_pc < KTPU_RAM_BYTES && r->insn != insn && !(o.wmask && o.addr - in_pc < 4))
            return fmt(msg, len, "insn at 0x%08x: core 0x%08x, model 0x%08x", in_pc, r->insn, insn);
        if ((uint32_t)o.trap != r->trap || (o.trap && o.cause != r->cause))
            return fmt(msg, len, "pc 0x%08x insn 0x%08x: trap core %u cause %u, model %d cause %u",
                       in_pc, r->insn, r->trap, r->cause, o.trap, o.cause);
        if (o.trap) {
            take_trap(s, in_pc, o.cause, o.tval);
        } else {
            if ((uint32_t)o.rd != r->rd || (o.rd && o.rd_val != r->rd_wdata))
                return fmt(msg, len, o.rmask ? "pc 0x%08x insn 0x%08x: rd core x%u=0x%08x, model x%d=0x%08x "
                                               "(a load from 0x%08x)"
                                             : "pc 0x%08x insn 0x%08x: rd core x%u=0x%08x, model x%d=0x%08x",
                           in_pc, r->insn, r->rd, r->rd_wdata, o.rd, o.rd_val, o.addr);
            if (o.rmask != r->mem_rmask || o.wmask != r->mem_wmask ||
                ((o.rmask || o.wmask) && o.addr != r->mem_addr))
                return fmt(msg, len,
                           "pc 0x%08x insn 0x%08x: mem core addr 0x%08x r%x w%x, model addr 0x%08x r%x w%x",
                           in_pc, r->insn, r->mem_addr, r->mem_rmask, r->mem_wmask, o.addr, o.rmask,
                           o.wmask);
            for (int i = 0; i < 4; i++) {
                uint32_t m = 0xFFu << (8 * i);
                if ((o.wmask >> i & 1) && (o.wdata & m) != (r->mem_wdata & m))
                    return fmt(msg, len, "pc 0x%08x insn 0x%08x: store data core 0x%08x, model 0x%08x",
                               in_pc, r->insn, r->mem_wdata, o.wdata);
            }
            if (o.rd) { s->x[o.rd] = o.rd_val; s->known[o.rd] = 1; }
            s->minstret++;
            s->pc = o.next_pc;
        }
    }
    if (r->next_pc != s->pc)
        return fmt(msg, len, "after pc 0x%08x: next pc core 0x%08x, model 0x%08x", r->pc, r->next_pc,
                   s->pc);
    return 0;
}

/* ---- standalone ---- */

void ktpu_iss_standalone(struct ktpu_iss *s, uint64_t seed, const struct ktpu_iss_io *io)
{
    struct ktpu_rng g;
    ktpu_rng_seed(&g, seed);
    s->io = io;
    for (int i = 1; i < 32; i++) {
        s->x[i] = ktpu_rng_next(&g);
        s->known[i] = 1;   /* no core to compare with: a read of one is the program's business */
    }
    for (uint32_t a = 0; a < KTPU_RAM_BYTES; a += 4) {
        uint32_t v = ktpu_rng_next(&g);
        memcpy(s->ram + a, &v, 4);
    }
    memset(s->ram_known, 1, KTPU_RAM_BYTES);
}

uint64_t ktpu_iss_cycles(const struct ktpu_iss *s) { return s->steps; }

int ktpu_iss_step(struct ktpu_iss *s, char *msg, size_t len)
{
    const struct ktpu_iss_io *io = s->io;
    s->steps++;
    s->mcycle++;
    /* an enabled pending interrupt is taken before the instruction:
     * external (11) before timer (7), as the privileged spec orders them */
    uint32_t mip = io->mip(io->ctx);
    if (s->mie && ((mip & (1u << 11)) && s->meie)) {
        take_trap(s, s->pc, 0x8000000Bu, 0);
        return 0;
    }
    if (s->mie && ((mip & (1u << 7)) && s->mtie)) {
        take_trap(s, s->pc, 0x80000007u, 0);
        return 0;
    }
    static const struct ktpu_rvfi none;
    uint32_t pc = s->pc;
    struct step o;
    execute(s, &none, &o);
    if (o.io_err) return fmt(msg, len, "pc 0x%08x: %s", pc, s->io_msg);
    if (o.trap) {
        uint32_t off = o.tval - KTPU_MMIO_BASE;
        if (o.cause == EXC_STORE_ACCESS && (off & ~3u) == KTPU_MMIO_SIM_EXIT_OFFSET) {
            /* a sb or sh to SIM_EXIT: the SoC refuses it and also hands its
             * byte lanes out, so that the harness names it (docs/soc.md) */
            uint32_t f3 = (uint32_t)s->ram[pc + 1] >> 4 & 7u;
            return io->store(io->ctx, off & ~3u, 0, (f3 ? 3u : 1u) << (off & 3u), msg, len);
        }
        take_trap(s, pc, o.cause, o.tval);
        return 0;
    }
    if (o.wmask && is_mmio(o.addr) &&
        io->store(io->ctx, (o.addr - KTPU_MMIO_BASE) & ~3u, o.wdata, o.wmask, s->io_msg, sizeof s->io_msg))
        return fmt(msg, len, "pc 0x%08x: %s", pc, s->io_msg);
    if (o.rd) s->x[o.rd] = o.rd_val;
    s->minstret++;
    s->pc = o.next_pc;
    return 0;
}

uint32_t ktpu_iss_reg(const struct ktpu_iss *s, unsigned i) { return i < 32 ? s->x[i] : s->pc; }

int ktpu_iss_set_reg(struct ktpu_iss *s, unsigned i, uint32_t v)
{
    if (i == 32) s->pc = v;
    else if (i && i < 32) s->x[i] = v, s->known[i] = 1;
    return 0;
}

int ktpu_iss_read_byte(struct ktpu_iss *s, uint32_t addr, uint8_t *b)
{
    if (s->dram_rd && addr >= KTPU_DRAM_BASE && addr - KTPU_DRAM_BASE < KTPU_DRAM_SIM_BYTES) {
        uint32_t off = addr - KTPU_DRAM_BASE;
        *b = (uint8_t)(s->dram_rd(s->dram_ctx, off & ~3u) >> (8 * (off & 3u)));
        return 0;
    }
    const uint8_t *p = mem_ptr(s, addr);
    if (!p) return -1;
    *b = *p;
    return 0;
}
