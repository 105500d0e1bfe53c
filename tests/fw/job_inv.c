/* The job block's invariant (job_inv.h), a second model of the rules in
 * docs/gemm.md "The job block": the rules on the request words, then each
 * operand's bytes as [base, base + (rows-1)*stride + row) tested against
 * 4 GiB by division (never by a sum that could wrap), then each against the
 * window, then C against A, BT and the job block as half-open intervals;
 * with FLAGS.QJOB the scratch region likewise, against all of them. */
#include "job_inv.h"

#include "ktpu_defs.h"

#define FOUR_GIB 0x100000000ull

struct range { uint64_t lo, hi; };

/* 1 if rows rows of row bytes every stride bytes from base fit below 4 GiB;
 * *r gets the bytes they cover. */
static int fits(uint32_t base, uint32_t rows, uint32_t stride, uint32_t row, struct range *r)
{
    uint64_t room = FOUR_GIB - base;   /* 1 .. 2^32 */
    if (rows == 0 || row > room) return 0;
    if (rows > 1 && (stride == 0 || (uint64_t)(rows - 1) > (room - row) / stride)) return 0;
    r->lo = base;
    r->hi = base + (uint64_t)(rows - 1) * stride + row;
    return 1;
}

static int disjoint(struct range a, struct range b) { return a.hi <= b.lo || b.hi <= a.lo; }
static int inside(struct range a, struct range w) { return w.lo <= a.lo && a.hi <= w.hi; }

const char *ktpu_job_invariant(const uint32_t *j, uint32_t win_base, uint64_t win_limit)
{
    uint32_t m = j[KTPU_JOB_M_WORD], n = j[KTPU_JOB_N_WORD], k = j[KTPU_JOB_K_WORD];
    uint32_t fmt = j[KTPU_JOB_FLAGS_WORD] & 3u;
    if (j[KTPU_JOB_MAGIC_WORD] != 0x4B474A31u) return "magic";
    if (m < 4 || m > 65536 || m & 3u) return "M";
    if (n < 4 || n > 65536 || n & 3u) return "N";
    if (k < 32 || k > (1u << 20) || k & 31u) return "K";
    if (fmt != KTPU_FMT_FP16 && fmt != KTPU_FMT_MX) return "FMT";
    if (j[KTPU_JOB_FLAGS_WORD] >> 5) return "reserved FLAGS bits";   /* FMT 1:0, TILE_MBOX 2, NO_SPLIT 3, QJOB 4 */
    int qjob = (j[KTPU_JOB_FLAGS_WORD] >> 4) & 1u;
    if (qjob && fmt != KTPU_FMT_FP16) return "QJOB with MX";
    uint32_t row = fmt == KTPU_FMT_MX ? k : 2 * k;   /* bytes of a row of A or BT */
    uint32_t a = j[KTPU_JOB_A_WORD], as = j[KTPU_JOB_A_STRIDE_WORD];
    uint32_t b = j[KTPU_JOB_B_WORD], bs = j[KTPU_JOB_B_STRIDE_WORD];
    uint32_t c = j[KTPU_JOB_C_WORD], cs = j[KTPU_JOB_C_STRIDE_WORD];
    if (a & 31u || b & 31u || c & 7u) return "base alignment";
    if (as & 31u || bs & 31u || cs & 7u) return "stride alignment";
    if (as < row || bs < row || cs < 2 * n) return "stride shorter than a row";
    struct range ra, rb, rc, rj = {KTPU_JOB_OFFSET, (uint64_t)KTPU_JOB_OFFSET + KTPU_JOB_BYTES};
    if (!fits(a, m, as, row, &ra)) return "A past 4 GiB";
    if (!fits(b, n, bs, row, &rb)) return "BT past 4 GiB";
    if (!fits(c, m, cs, 2 * n, &rc)) return "C past 4 GiB";
    struct range win = {win_base, win_limit};
    if (!inside(ra, win)) return "A outside the window";
    if (!inside(rb, win)) return "BT outside the window";
    if (!inside(rc, win)) return "C outside the window";
    if (!disjoint(rc, rj)) return "C over the job block";
    if (!disjoint(rc, ra)) return "C over A";
    if (!disjoint(rc, rb)) return "C over BT";
    if (qjob) {   /* the scratch region, written by the service: clear of everything */
        uint32_t s = j[KTPU_JOB_SCRATCH_WORD], sb = j[KTPU_JOB_SCRATCH_BYTES_WORD];
        struct range rs = {s, (uint64_t)s + sb};
        if (s & 31u) return "scratch alignment";
        if (sb > FOUR_GIB - s) return "scratch past 4 GiB";
        if (!inside(rs, win)) return "scratch outside the window";
        if (!disjoint(rs, rj) || !disjoint(rs, ra) || !disjoint(rs, rb) || !disjoint(rs, rc))
            return "scratch over the job block, A, BT or C";
    }
    return 0;
}
