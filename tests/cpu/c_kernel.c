/* c_kernel: an integer workload for the CPI measurement and the lockstep
 * check. Each kernel is checked against a second way of computing the same
 * thing (no stored answers): CRC-32 bitwise against table-driven, a sort
 * against order and a multiset fingerprint, a matrix product against its
 * transpose identity, division against a = q*b + r, a sieve against trial
 * division. Part of the data lives in DRAM. Prints cycles, instructions and
 * CPI measured with mcycle/minstret, exits 0 when every check holds. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ktpu_rt.h"

#define N_SORT 256
#define N_MAT 12
#define N_SIEVE 2000

static uint32_t rng = 12345u;
static uint32_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static uint32_t crc_bitwise(const uint8_t *p, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

static uint32_t crc_table(const uint8_t *p, size_t n)
{
    static uint32_t t[256];
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
        t[i] = c;
    }
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) c = t[(c ^ p[i]) & 0xFFu] ^ (c >> 8);
    return ~c;
}

static int check_sort(int32_t *v, int n)
{
    uint32_t sum0 = 0, xr0 = 0, sum1 = 0, xr1 = 0;
    for (int i = 0; i < n; i++) { sum0 += (uint32_t)v[i] * 2654435761u; xr0 ^= (uint32_t)v[i]; }
    for (int i = 1; i < n; i++) {
        int32_t x = v[i];
        int j = i - 1;
        while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; j--; }
        v[j + 1] = x;
    }
    for (int i = 0; i < n; i++) { sum1 += (uint32_t)v[i] * 2654435761u; xr1 ^= (uint32_t)v[i]; }
    for (int i = 1; i < n; i++)
        if (v[i - 1] > v[i]) return 1;
    return sum0 != sum1 || xr0 != xr1;
}

static int check_matmul(void)
{
    static int32_t a[N_MAT][N_MAT], b[N_MAT][N_MAT], c[N_MAT][N_MAT], ct[N_MAT][N_MAT];
    for (int i = 0; i < N_MAT; i++)
        for (int j = 0; j < N_MAT; j++) {
            a[i][j] = (int32_t)(next() % 2001u) - 1000;
            b[i][j] = (int32_t)(next() % 2001u) - 1000;
        }
    for (int i = 0; i < N_MAT; i++)          /* C = A B */
        for (int j = 0; j < N_MAT; j++) {
            int32_t s = 0;
            for (int k = 0; k < N_MAT; k++) s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
    for (int j = 0; j < N_MAT; j++)          /* C^T = B^T A^T, other loop order */
        for (int i = 0; i < N_MAT; i++) {
            int32_t s = 0;
            for (int k = N_MAT - 1; k >= 0; k--) s += b[k][j] * a[i][k];
            ct[j][i] = s;
        }
    for (int i = 0; i < N_MAT; i++)
        for (int j = 0; j < N_MAT; j++)
            if (c[i][j] != ct[j][i]) return 1;
    return 0;
}

static int check_div(void)
{
    for (int i = 0; i < 300; i++) {
        int32_t a = (int32_t)next(), b = (int32_t)(next() >> (next() & 31));
        if (b == 0) b = 1;
        int32_t q = a / b, r = a % b;
        if (q * b + r != a) return 1;
        if ((r < 0 ? -r : r) >= (b < 0 ? -b : b) && b != INT32_MIN) return 1;
        if (r != 0 && ((r < 0) != (a < 0))) return 1;
        uint32_t ua = (uint32_t)a, ub = (uint32_t)b | 1u;
        if ((ua / ub) * ub + ua % ub != ua || ua % ub >= ub) return 1;
        int64_t p = (int64_t)a * (int64_t)b;
        if ((uint32_t)p != (uint32_t)a * (uint32_t)b) return 1;
    }
    return 0;
}

static int check_sieve(void)
{
    static uint8_t comp[N_SIEVE];
    memset(comp, 0, sizeof comp);
    int count = 0;
    for (int i = 2; i < N_SIEVE; i++) {
        if (comp[i]) continue;
        count++;
        for (int j = i * i; j < N_SIEVE; j += i) comp[j] = 1;
    }
    int count2 = 0;
    for (int n = 2; n < N_SIEVE; n++) {
        int prime = 1;
        for (int d = 2; d * d <= n; d++)
            if (n % d == 0) { prime = 0; break; }
        count2 += prime;
    }
    return count != count2;
}

static uint32_t cyc_total, ins_total;

/* Runs one kernel between two counter reads and prints its CPI. */
static int measure(const char *name, int (*fn)(void))
{
    uint32_t c0 = ktpu_read_mcycle(), i0 = ktpu_read_minstret();
    int bad = fn();
    uint32_t c1 = ktpu_read_mcycle(), i1 = ktpu_read_minstret();
    uint32_t cyc = c1 - c0, ins = i1 - i0;
    cyc_total += cyc;
    ins_total += ins;
    printf("%-7s %8lu cycles %8lu instructions  CPI %lu.%03lu%s\n", name, (unsigned long)cyc,
           (unsigned long)ins, (unsigned long)(cyc / ins),
           (unsigned long)((uint64_t)(cyc % ins) * 1000u / ins), bad ? "  CHECK FAILED" : "");
    return bad;
}

static uint8_t crc_buf[2048];

static int run_crc(void)
{
    for (size_t i = 0; i < sizeof crc_buf; i++) crc_buf[i] = (uint8_t)next();
    return crc_bitwise(crc_buf, sizeof crc_buf) != crc_table(crc_buf, sizeof crc_buf);
}

/* The same CRC over a buffer in accelerator DRAM: every load waits for the
 * DRAM latency, so this one measures the memory, not the core. */
static int run_crc_dram(void)
{
    uint8_t *dram = (uint8_t *)KTPU_DRAM_BASE;
    for (int i = 0; i < 256; i++) dram[i] = (uint8_t)next();
    return crc_bitwise(dram, 256) != crc_table(dram, 256);
}

static int run_sort(void)
{
    static int32_t v[N_SORT];
    for (int i = 0; i < N_SORT; i++) v[i] = (int32_t)next();
    return check_sort(v, N_SORT);
}

int main(void)
{
    int bad = 0;
    bad |= measure("crc", run_crc);
    bad |= measure("sort", run_sort);
    bad |= measure("matmul", check_matmul);
    bad |= measure("div", check_div);
    bad |= measure("sieve", check_sieve);
    printf("kernel: %lu cycles, %lu instructions, CPI %lu.%03lu (crc, sort, matmul, div, sieve)\n",
           (unsigned long)cyc_total, (unsigned long)ins_total,
           (unsigned long)(cyc_total / ins_total),
           (unsigned long)((uint64_t)(cyc_total % ins_total) * 1000u / ins_total));
    bad |= measure("crcdram", run_crc_dram);
    return bad;
}
