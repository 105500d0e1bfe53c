/* A GEMM on the clusters from your own firmware, checked against the RV32
 * build of the C reference: C (M x N) = A (M x K) x B, where A and BT (B
 * transposed, N x K) are FP16 rows in DRAM. The job block at DRAM offset
 * JOB_OFFSET (data/ktpu.def, "GEMM job"; docs/gemm.md) says where they and
 * C are; ktpu_gemm_run checks it, plans it over the clusters, runs it and
 * writes C, then the status words. Prints PASS or FAIL; exit status 0 only
 * on PASS. */
#include <stdio.h>

#include "ktpu_ci.h"
#include "ktpu_gemm.h"
#include "ktpu_ref.h"

/* Small: the reference runs on the CPU too, about 150 cycles a MAC. */
#define M 8
#define K 32
#define N 8
/* DRAM offsets past the job block: bases multiples of 32, C's of 8 */
#define A_OFF 0x1000u
#define B_OFF 0x2000u
#define C_OFF 0x3000u

static uint16_t a[M * K], bt[N * K], cref[M * N];
/* the reference's scratch: the MXFP7 operands and the FP22 tile */
static int8_t qa[M * K], qb[N * K];
static uint8_t sa[M * K / 32], sb[N * K / 32];
static uint32_t tile[M * N];

static volatile uint32_t *dram(uint32_t off) { return (volatile uint32_t *)(uintptr_t)(KTPU_DRAM_BASE + off); }

/* FP16 of magnitude 1/8 to 2 and random sign (xorshift: every run the same) */
static uint16_t rnd_f16(void)
{
    static uint32_t x = 1;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return (uint16_t)((x & 0x8000u) | (12u + (x >> 8) % 4u) << 10 | ((x >> 16) & 0x3FFu));
}

/* rows x K FP16 at off, rows 2K bytes apart, two elements a word */
static void put_rows(uint32_t off, const uint16_t *x, unsigned rows)
{
    for (unsigned i = 0; i < rows * K; i += 2) *dram(off + 2 * i) = x[i] | (uint32_t)x[i + 1] << 16;
}

int main(void)
{
    for (unsigned i = 0; i < M * K; i++) a[i] = rnd_f16();
    for (unsigned i = 0; i < N * K; i++) bt[i] = rnd_f16();
    put_rows(A_OFF, a, M);
    put_rows(B_OFF, bt, N);

    volatile uint32_t *job = ktpu_gemm_job();
    for (unsigned i = 0; i < KTPU_JOB_BYTES / 4; i++) job[i] = 0;
    job[KTPU_JOB_MAGIC_WORD] = KTPU_JOB_MAGIC;
    job[KTPU_JOB_M_WORD] = M;
    job[KTPU_JOB_N_WORD] = N;
    job[KTPU_JOB_K_WORD] = K;
    job[KTPU_JOB_A_WORD] = A_OFF;
    job[KTPU_JOB_A_STRIDE_WORD] = 2 * K;
    job[KTPU_JOB_B_WORD] = B_OFF;
    job[KTPU_JOB_B_STRIDE_WORD] = 2 * K;
    job[KTPU_JOB_C_WORD] = C_OFF;
    job[KTPU_JOB_C_STRIDE_WORD] = 2 * N;
    job[KTPU_JOB_FLAGS_WORD] = KTPU_FIELD(JOB_FLAGS_FMT, KTPU_FMT_FP16);
    job[KTPU_JOB_CLUSTERS_WORD] = 0;   /* all present */
    job[KTPU_JOB_STATUS_WORD] = KTPU_JOBST_PENDING;

    int clusters = ktpu_gemm_init();
    unsigned st = ktpu_gemm_run(job, NULL);   /* prints a summary line */

    unsigned flags = ktpu_ref_gemm_f16(M, N, K, a, bt, qa, sa, qb, sb, tile, cref);
    unsigned differ = 0;
    for (unsigned i = 0; i < M * N; i++) {
        uint16_t c = (uint16_t)(*dram(C_OFF + 2 * (i & ~1u)) >> 16 * (i & 1));
        if (c != cref[i] && differ++ < 4)
            printf("C[%u][%u] = 0x%04x, reference 0x%04x\n", i / N, i % N, c, cref[i]);
    }
    int pass = st == KTPU_JOBST_DONE && differ == 0 && job[KTPU_JOB_FLAGS_OUT_WORD] == (flags & 0xFu);
    printf("gemm example: %ux%ux%u FP16 on %d clusters, status %s, %u of %u elements differ from the reference\n",
           M, K, N, clusters, ktpu_jobst_name(st), differ, M * N);
    printf("%s\n", pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
}
