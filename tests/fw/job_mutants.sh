#!/bin/bash
# Each deliberately broken copy of the job check (firmware/gemm/ktpu_job.c,
# edited by sed into OUTDIR; the source is never changed) must make the
# host job test fail; the unbroken copy must pass. Mutants: every rule
# removed in turn, then limits moved by one step, the end sums done in 32
# bits, an overlap test made half-open the wrong way, the cluster clamp
# dropped, the window's ends moved. Usage: job_mutants.sh OUTDIR CC CFLAGS...
set -u
out=$1; cc=$2; shift 2
mkdir -p "$out"
src=firmware/gemm/ktpu_job.c
# everything but the check compiled once; each mutant compiles only its copy
tests=()
for f in tests/fw/job_test.c tests/fw/job_inv.c firmware/gemm/ktpu_plan.c firmware/lib/ktpu_ci.c; do
    o="$out/$(basename "$f" .c).o"
    "$cc" "$@" -c -o "$o" "$f" || { echo "$f does not build"; exit 1; }
    tests+=("$o")
done
muts=(); names=()
# one mutant per rule: its BAD(...) becomes a no-op
while IFS=: read -r line text; do
    muts+=("${line}s/BAD(.*);/(void)0;/")
    names+=("rule removed: $(sed -n 's/.*"\(.*\)".*/\1/p' <<<"$text")")
done < <(grep -n 'BAD(.*"' "$src" | grep -v '#define')
muts+=('s/m > 65536/m > 65540/');                         names+=("M limit 65540")
muts+=('s/k > (1u << 20)/k > (1u << 21)/');               names+=("K limit 2^21")
muts+=('s/< k \* esz)/< k * esz - 32)/');                 names+=("A stride a row less 32 taken")
muts+=('s/a1 > 0x100000000ull/a1 > 0x100000020ull/');     names+=("A may end 32 past 4 GiB")
muts+=('s/end > 0x100000000ull/end >= 0x100000000ull/');  names+=("C may not end at 4 GiB")
muts+=('s/(uint64_t)(m - 1) \* j\[KTPU_JOB_A_STRIDE_WORD\]/(uint32_t)((m - 1) * j[KTPU_JOB_A_STRIDE_WORD])/')
names+=("A's end summed in 32 bits")
muts+=('s/(uint64_t)(m - 1) \* j\[KTPU_JOB_C_STRIDE_WORD\]/(uint32_t)((m - 1) * j[KTPU_JOB_C_STRIDE_WORD])/')
names+=("C's end summed in 32 bits")
muts+=('s/c0 < a1 \&\& a0 < end/c0 + 8 < a1 \&\& a0 < end/'); names+=("C may start 8 before A ends")
muts+=('s/c0 < b1 \&\& b0 < end/c0 < b1 \&\& b0 + 8 < end/'); names+=("C may end 8 into BT")
muts+=('s/req > env->present/req > env->present + 1/');   names+=("JOB_CLUSTERS present + 1 taken")
muts+=('s/req > env->max_clusters/req > env->max_clusters + 1/'); names+=("JOB_CLUSTERS slots + 1 taken")
muts+=('s/if (\*ncl > env->max_clusters) \*ncl = env->max_clusters;/(void)0;/'); names+=("no clamp to max_clusters")
muts+=('s/a0 < env->win_base/a0 + 1 < env->win_base/');   names+=("A may start a byte below the window")
muts+=('s/b1 > env->win_limit/b1 > env->win_limit + 32/'); names+=("BT may end 32 past the window")
muts+=('s/end > env->win_limit/end > (uint32_t)env->win_limit/'); names+=("C against a 32-bit limit")
muts+=('s/s0 < end \&\& c0 < s1/s0 + 32 < end \&\& c0 < s1/'); names+=("scratch may start 32 before C ends")
muts+=('s/s1 = s0 + j\[KTPU_JOB_SCRATCH_BYTES_WORD\]/s1 = (uint32_t)(s0 + j[KTPU_JOB_SCRATCH_BYTES_WORD])/')
names+=("scratch's end summed in 32 bits")
muts+=('s/if (j\[KTPU_JOB_FLAGS_WORD\] \& KTPU_JOB_FLAGS_QJOB_MASK) {/if (0) {/'); names+=("scratch never checked")

if ! "$cc" "$@" -o "$out/job_mut0" "${tests[@]}" "$src" || ! "$out/job_mut0" --quiet >"$out/job_mut0.log"; then
    echo "the unbroken check fails the job test"; exit 1
fi
killed=0; total=0
for i in "${!muts[@]}"; do
    n=$((i + 1)); total=$((total + 1))
    sed "${muts[$i]}" "$src" >"$out/ktpu_job_m$n.c"
    if cmp -s "$src" "$out/ktpu_job_m$n.c"; then
        echo "mutant $n (${names[$i]}): the edit matched nothing"; continue
    fi
    if ! "$cc" "$@" -o "$out/job_mut$n" "${tests[@]}" "$out/ktpu_job_m$n.c" 2>"$out/job_mut$n.log"; then
        echo "mutant $n (${names[$i]}): does not build"; continue
    fi
    if "$out/job_mut$n" --quiet >"$out/job_mut$n.log" 2>&1; then
        echo "mutant $n (${names[$i]}): SURVIVED"
    else
        killed=$((killed + 1))
        echo "mutant $n (${names[$i]}): killed: $(grep -m1 '^FAIL' "$out/job_mut$n.log" | cut -c1-110)"
    fi
done
echo "job mutants: $killed of $total killed"
[ "$killed" = "$total" ]
