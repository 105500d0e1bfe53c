/* ktpu_gemm_bench.elf: GEMM service timing on the SPEC §15 shape grid
 * (M x K x N: 64x128x64, 128x128x128, 256x256x256, 256x1024x256), FP16 and
 * pre-quantised MXFP7 operands, on 1 cluster and on all present. Values are
 * not checked here (the self-test and ktpu-sim --gemm do that); the operands
 * are finite patterns. Prints one CSV line per run:
 *   gemm_fw,M,K,N,format,clusters,cycles,pct_peak
 * cycles = JOB_CYCLES (mcycle from the service's start to the last
 * completion, planning included). Exit status: non-zero if a job failed. */
#include <stdio.h>

#include "ktpu_gemm.h"
#include "ktpu_mesh.h"

#define A_OFF 0x00010000u
#define B_OFF 0x00100000u
#define C_OFF 0x00200000u

static volatile uint32_t *dram(uint32_t off) { return (volatile uint32_t *)(uintptr_t)(KTPU_DRAM_BASE + off); }

/* rows x k operand at off, dense rows. FP16: exponent field <= 15 (finite,
 * magnitudes below 2); MXFP7: 28 element bytes, scale 0x98, 3 zero bytes. */
static void fill(uint32_t off, uint32_t rows, uint32_t k, uint32_t fmt, uint32_t seed)
{
    uint32_t x = seed | 1u, words = fmt == KTPU_FMT_FP16 ? rows * k / 2 : rows * k / 4;
    for (uint32_t i = 0; i < words; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        uint32_t v = fmt == KTPU_FMT_FP16 ? x & 0xBFFFBFFFu : (i % 8 == 7 ? 0x98u : x);
        *dram(off + 4 * i) = v;
    }
}

int main(void)
{
    static const uint32_t grid[][3] = {{64, 128, 64}, {128, 128, 128}, {256, 256, 256}, {256, 256, 1024}};
    int present = ktpu_gemm_init();
    unsigned bad = 0;
    volatile uint32_t *job = ktpu_gemm_job();
    printf("what,m,k,n,format,clusters,cycles,pct_peak\n");
    for (unsigned f = 0; f < 2; f++) {
        uint32_t fmt = f ? KTPU_FMT_MX : KTPU_FMT_FP16, esz = f ? 1 : 2;
        for (unsigned g = 0; g < sizeof grid / sizeof grid[0]; g++) {
            uint32_t m = grid[g][0], k = grid[g][1], n = grid[g][2];
            fill(A_OFF, m, k, fmt, 0x1234u + g);
            fill(B_OFF, n, k, fmt, 0x8765u + g);
            for (int cl = 1; cl <= present; cl = cl < present && cl * 2 > present ? present : cl * 2) {
                for (unsigned i = 0; i < KTPU_JOB_BYTES / 4; i++) job[i] = 0;
                job[KTPU_JOB_MAGIC_WORD] = KTPU_JOB_MAGIC;
                job[KTPU_JOB_M_WORD] = m;
                job[KTPU_JOB_N_WORD] = n;
                job[KTPU_JOB_K_WORD] = k;
                job[KTPU_JOB_A_WORD] = A_OFF;
                job[KTPU_JOB_A_STRIDE_WORD] = k * esz;
                job[KTPU_JOB_B_WORD] = B_OFF;
                job[KTPU_JOB_B_STRIDE_WORD] = k * esz;
                job[KTPU_JOB_C_WORD] = C_OFF;
                job[KTPU_JOB_C_STRIDE_WORD] = 2 * n;
                job[KTPU_JOB_FLAGS_WORD] = KTPU_FIELD(JOB_FLAGS_FMT, fmt);
                job[KTPU_JOB_CLUSTERS_WORD] = (uint32_t)cl;
                job[KTPU_JOB_STATUS_WORD] = KTPU_JOBST_PENDING;
                struct ktpu_gemm_opts opt = {0};
                opt.quiet = 1;
                unsigned st = ktpu_gemm_run(job, &opt);
                uint32_t cyc = job[KTPU_JOB_CYCLES_WORD];
                uint64_t macs = (uint64_t)m * n * k, peak = (uint64_t)cyc * 512u * (unsigned)cl;
                unsigned pm = peak ? (unsigned)(macs * 1000u / peak) : 0;
                if (st != KTPU_JOBST_DONE && st != KTPU_JOBST_NUMERIC) bad++;
                printf("gemm_fw,%lu,%lu,%lu,%s,%d,%lu,%u.%u%s\n", (unsigned long)m, (unsigned long)k,
                       (unsigned long)n, f ? "mx" : "fp16", cl, (unsigned long)cyc, pm / 10, pm % 10,
                       st == KTPU_JOBST_DONE || st == KTPU_JOBST_NUMERIC ? "" : ",FAILED");
                if (cl == present) break;
            }
        }
    }
    return bad ? 1 : 0;
}
