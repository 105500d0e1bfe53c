#!/bin/bash
# Each deliberately broken planner (KTPU_PLAN_MUTANT=n in
# firmware/gemm/ktpu_plan.c) must make the host plan test fail; the
# unbroken one must pass. Usage: plan_mutants.sh OUTDIR REFLIB CC CFLAGS...
set -u
out=$1; reflib=$2; cc=$3; shift 3
mkdir -p "$out"
# the test and the CI library compiled once; each mutant compiles only the planner
objs=()
for f in tests/fw/plan_test.c firmware/lib/ktpu_ci.c; do
    o="$out/$(basename "$f" .c).o"
    "$cc" "$@" -c -o "$o" "$f" || { echo "$f does not build"; exit 1; }
    objs+=("$o")
done
names=("" "emit on the first K chunk" "acc bit never set" "A always in L1 half 0"
       "resident BT half not flipped" "a cluster drops its last tile" "K chunk one block past the L1 half"
       "tile up to twice the accumulator" "C column offset 4 bytes per group" "BT fill ignores the chunk's K offset"
       "uniform with edge tiles or misaligned ranges" "shift's C column offset 4 bytes per group"
       "split-K reduced in a chain, not the reference's tree" "split-K's last part one K block short"
       "upload: BT's MXFP7 copy over A's last row group" "regular plan: uniform whatever the tile ranges"
       "regular plan: BT that just fits half of L1 not resident" "first words: BT's FILL with A's group count")
killed=0; total=0
for n in $(seq 1 $((${#names[@]} - 1))); do   # names[0] is unused
    total=$((total + 1))
    if ! "$cc" "$@" -DKTPU_PLAN_MUTANT=$n -o "$out/plan_mut$n" firmware/gemm/ktpu_plan.c "${objs[@]}" "$reflib"; then
        echo "mutant $n (${names[$n]}): does not build"; continue
    fi
    if "$out/plan_mut$n" --quiet >"$out/plan_mut$n.log" 2>&1; then
        echo "mutant $n (${names[$n]}): SURVIVED"
    else
        killed=$((killed + 1))
        echo "mutant $n (${names[$n]}): killed: $(grep -m1 '^FAIL' "$out/plan_mut$n.log" | cut -c1-110)"
    fi
done
echo "plan mutants: $killed of $total killed"
[ "$killed" = "$total" ]
