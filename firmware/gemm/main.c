/* ktpu_gemm.elf: the built-in GEMM firmware (SPEC §2 --gemm, §10). The
 * harness writes the job block at DRAM_BASE + JOB_OFFSET before reset (the
 * service initialises the clusters first, then reads it); the
 * exit status is 0 only for JOBST_DONE, otherwise the JOBST_* code. */
#include "ktpu_gemm.h"

int main(void)
{
    ktpu_gemm_init();
    unsigned st = ktpu_gemm_run(ktpu_gemm_job(), 0);
    return st == KTPU_JOBST_DONE ? 0 : (int)st;
}
