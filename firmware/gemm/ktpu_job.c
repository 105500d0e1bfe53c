/* The GEMM job block's check (see ktpu_job.h). Portable C99, no I/O: also
 * compiled on the host (tests/fw). */
#include "ktpu_job.h"

#include "ktpu_ci.h"

/* refuse, naming the rule and the value that broke it */
#define BAD(v, why)    \
    do {               \
        *value = (v);  \
        return (why);  \
    } while (0)

/* FLAGS.QJOB's scratch region, which the service writes: clear of
 * everything else ([a0, a1) A, [b0, b1) BT, [c0, end) C). Not inlined: the
 * common job's check does without its frame. */
static const char *__attribute__((noinline)) scratch_check(const uint32_t *j, const struct ktpu_job_env *env,
                                                           uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1,
                                                           uint64_t c0, uint64_t end, uint32_t *value)
{
    uint64_t s0 = j[KTPU_JOB_SCRATCH_WORD], s1 = s0 + j[KTPU_JOB_SCRATCH_BYTES_WORD];
    if (KTPU_FIELD_GET(JOB_FLAGS_FMT, j[KTPU_JOB_FLAGS_WORD]) != KTPU_FMT_FP16)
        BAD(j[KTPU_JOB_FLAGS_WORD], "FLAGS.QJOB with FMT MX (it quantises FP16 operands)");
    if (s0 % 32) BAD(j[KTPU_JOB_SCRATCH_WORD], "scratch base not a multiple of 32");
    if (s1 > 0x100000000ull) BAD(j[KTPU_JOB_SCRATCH_WORD], "scratch extends past 4 GiB");
    if (s0 < env->win_base || s1 > env->win_limit) BAD(j[KTPU_JOB_SCRATCH_WORD], "scratch outside the memory window");
    if (s0 < KTPU_JOB_OFFSET + KTPU_JOB_BYTES && s1 > KTPU_JOB_OFFSET)
        BAD(j[KTPU_JOB_SCRATCH_WORD], "scratch overlaps the job block");
    if (s0 < a1 && a0 < s1) BAD(j[KTPU_JOB_SCRATCH_WORD], "scratch overlaps A");
    if (s0 < b1 && b0 < s1) BAD(j[KTPU_JOB_SCRATCH_WORD], "scratch overlaps BT");
    if (s0 < end && c0 < s1) BAD(j[KTPU_JOB_SCRATCH_WORD], "scratch overlaps C");
    return 0;
}

const char *ktpu_job_check(const uint32_t *j, const struct ktpu_job_env *env, unsigned *ncl,
                           uint32_t *value)
{
    uint32_t m = j[KTPU_JOB_M_WORD], n = j[KTPU_JOB_N_WORD], k = j[KTPU_JOB_K_WORD];
    uint32_t fmt = KTPU_FIELD_GET(JOB_FLAGS_FMT, j[KTPU_JOB_FLAGS_WORD]);
    uint32_t esz = fmt == KTPU_FMT_FP16 ? 2u : 1u;
    uint32_t req = j[KTPU_JOB_CLUSTERS_WORD];
    uint64_t end;
    if (j[KTPU_JOB_MAGIC_WORD] != KTPU_JOB_MAGIC) BAD(j[0], "magic is not JOB_MAGIC");
    if (!m || m % 4 || m > 65536) BAD(m, "M must be a multiple of 4 in 4..65536");
    if (!n || n % 4 || n > 65536) BAD(n, "N must be a multiple of 4 in 4..65536");
    if (!k || k % 32 || k > (1u << 20)) BAD(k, "K must be a multiple of 32 in 32..2^20");
    if (fmt != KTPU_FMT_FP16 && fmt != KTPU_FMT_MX) BAD(fmt, "FLAGS.FMT is neither FP16 nor MX");
    if (j[KTPU_JOB_FLAGS_WORD] &
        ~(uint32_t)(KTPU_JOB_FLAGS_FMT_MASK | KTPU_JOB_FLAGS_TILE_MBOX_MASK | KTPU_JOB_FLAGS_NO_SPLIT_MASK |
                    KTPU_JOB_FLAGS_QJOB_MASK))
        BAD(j[KTPU_JOB_FLAGS_WORD], "FLAGS has reserved bits set");
    if (j[KTPU_JOB_A_WORD] % 32) BAD(j[KTPU_JOB_A_WORD], "A base not a multiple of 32");
    if (j[KTPU_JOB_B_WORD] % 32) BAD(j[KTPU_JOB_B_WORD], "BT base not a multiple of 32");
    if (j[KTPU_JOB_C_WORD] % 8) BAD(j[KTPU_JOB_C_WORD], "C base not a multiple of 8");
    if (j[KTPU_JOB_A_STRIDE_WORD] % 32 || j[KTPU_JOB_A_STRIDE_WORD] < k * esz)
        BAD(j[KTPU_JOB_A_STRIDE_WORD], "A stride not a multiple of 32 of at least a row");
    if (j[KTPU_JOB_B_STRIDE_WORD] % 32 || j[KTPU_JOB_B_STRIDE_WORD] < k * esz)
        BAD(j[KTPU_JOB_B_STRIDE_WORD], "BT stride not a multiple of 32 of at least a row");
    if (j[KTPU_JOB_C_STRIDE_WORD] % 8 || j[KTPU_JOB_C_STRIDE_WORD] < 2 * n)
        BAD(j[KTPU_JOB_C_STRIDE_WORD], "C stride not a multiple of 8 of at least a row");
    /* each operand's bytes as [base, end), in 64 bits: nothing wraps */
    uint64_t c0 = j[KTPU_JOB_C_WORD], a0 = j[KTPU_JOB_A_WORD], b0 = j[KTPU_JOB_B_WORD];
    uint64_t a1 = a0 + (uint64_t)(m - 1) * j[KTPU_JOB_A_STRIDE_WORD] + (uint64_t)k * esz;
    uint64_t b1 = b0 + (uint64_t)(n - 1) * j[KTPU_JOB_B_STRIDE_WORD] + (uint64_t)k * esz;
    end = c0 + (uint64_t)(m - 1) * j[KTPU_JOB_C_STRIDE_WORD] + 2ull * n;
    if (a1 > 0x100000000ull) BAD(j[KTPU_JOB_A_WORD], "A extends past 4 GiB");
    if (b1 > 0x100000000ull) BAD(j[KTPU_JOB_B_WORD], "BT extends past 4 GiB");
    if (end > 0x100000000ull) BAD(j[KTPU_JOB_C_WORD], "C extends past 4 GiB");
    /* the agent would refuse the first FILL or drain outside the window
     * (CLERR_MEM): refused here, before any tile is planned or written */
    if (a0 < env->win_base || a1 > env->win_limit) BAD(j[KTPU_JOB_A_WORD], "A outside the memory window");
    if (b0 < env->win_base || b1 > env->win_limit) BAD(j[KTPU_JOB_B_WORD], "BT outside the memory window");
    if (c0 < env->win_base || end > env->win_limit) BAD(j[KTPU_JOB_C_WORD], "C outside the memory window");
    if (c0 < KTPU_JOB_OFFSET + KTPU_JOB_BYTES && end > KTPU_JOB_OFFSET)
        BAD(j[KTPU_JOB_C_WORD], "C overlaps the job block");
    /* C written over an operand it is still read from: refused, whatever
     * the strides interleave (the tiles would read what earlier tiles wrote) */
    if (c0 < a1 && a0 < end) BAD(j[KTPU_JOB_C_WORD], "C overlaps A");
    if (c0 < b1 && b0 < end) BAD(j[KTPU_JOB_C_WORD], "C overlaps BT");
    if (j[KTPU_JOB_FLAGS_WORD] & KTPU_JOB_FLAGS_QJOB_MASK) {
        const char *why = scratch_check(j, env, a0, a1, b0, b1, c0, end, value);
        if (why) return why;
    }
    if (env->present == 0) BAD(0, "no clusters in SOC_KINDS0/1");
    if (req > env->present) BAD(req, "JOB_CLUSTERS is more than the clusters present");
    if (req > env->max_clusters) BAD(req, "JOB_CLUSTERS is more than the job block's counter slots");
    *ncl = req ? req : env->present;
    if (*ncl > env->max_clusters) *ncl = env->max_clusters;
    return 0;
}

void ktpu_job_plan_cfg(const uint32_t *j, unsigned ncl, struct ktpu_plan_cfg *cfg)
{
    /* field by field: a struct assignment may become a call to picolibc's
     * byte-wise memcpy (on the service's path to its first instruction) */
    cfg->m = j[KTPU_JOB_M_WORD];
    cfg->n = j[KTPU_JOB_N_WORD];
    cfg->k = j[KTPU_JOB_K_WORD];
    cfg->fmt = KTPU_FIELD_GET(JOB_FLAGS_FMT, j[KTPU_JOB_FLAGS_WORD]);
    cfg->a = j[KTPU_JOB_A_WORD];
    cfg->lda = j[KTPU_JOB_A_STRIDE_WORD];
    cfg->b = j[KTPU_JOB_B_WORD];
    cfg->ldb = j[KTPU_JOB_B_STRIDE_WORD];
    cfg->c = j[KTPU_JOB_C_WORD];
    cfg->ldc = j[KTPU_JOB_C_STRIDE_WORD];
    cfg->clusters = ncl;
    cfg->l1_depth = KTPU_L1_DEPTH;
    cfg->acc_depth = KTPU_ACC_DEPTH;
    cfg->tile_gm = cfg->tile_gn = 0;
    cfg->no_split = (j[KTPU_JOB_FLAGS_WORD] & KTPU_JOB_FLAGS_NO_SPLIT_MASK) != 0;
    int qjob = (j[KTPU_JOB_FLAGS_WORD] & KTPU_JOB_FLAGS_QJOB_MASK) != 0;
    cfg->scratch = qjob ? j[KTPU_JOB_SCRATCH_WORD] : 0;
    cfg->scratch_bytes = qjob ? j[KTPU_JOB_SCRATCH_BYTES_WORD] : 0;
    cfg->mem_ports = 1;
    cfg->force_upload = cfg->general = 0;
    cfg->tiny_sweep = 0;
    cfg->peer_xy = 0;
    cfg->checked = 1;
}
