/* ktpu_rvfi: see ktpu_rvfi.h. */
#include "ktpu_rvfi.h"

#include <stddef.h>

static ktpu_rvfi_sink sink;
static void *sink_ctx;
static uint64_t records, retired;

void ktpu_rvfi_set_sink(ktpu_rvfi_sink fn, void *ctx)
{
    sink = fn;
    sink_ctx = ctx;
}

uint64_t ktpu_rvfi_records(void) { return records; }
uint64_t ktpu_rvfi_retired(void) { return retired; }

void ktpu_rvfi_retire(unsigned int pc, unsigned int insn, unsigned int next_pc, unsigned int trap,
                      unsigned int cause, unsigned int rd, unsigned int rd_wdata,
                      unsigned int mem_addr, unsigned int mem_rmask, unsigned int mem_wmask,
                      unsigned int mem_wdata, unsigned int mem_rdata)
{
    records++;
    if (!(trap & 1u)) retired++;
    if (!sink) return;
    struct ktpu_rvfi r;
    r.pc = pc; r.insn = insn; r.next_pc = next_pc; r.trap = trap; r.cause = cause; r.rd = rd;
    r.rd_wdata = rd_wdata; r.mem_addr = mem_addr; r.mem_rmask = mem_rmask;
    r.mem_wmask = mem_wmask; r.mem_wdata = mem_wdata; r.mem_rdata = mem_rdata;
    sink(sink_ctx, &r);
}
