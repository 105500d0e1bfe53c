#!/usr/bin/env bash
# usage: check_gemm_fw.sh BUILD_DIR
# The built-in GEMM firmware (build/fw/ktpu_gemm.elf) on the co-simulator:
# small shapes, a padded odd shape and 64x128x64 on 1, 2 and 4 clusters,
# FP16 and pre-quantised operands. ktpu-sim checks every announced tile bit
# for bit against the C reference, coverage, canaries and flags, and exits
# 0 only if all of that held and the job is JOBST_DONE.
set -u
b=$1
ok=0; n=0
run() {  # run DESCRIPTION ktpu-sim-args...
  local desc=$1; shift
  n=$((n + 1))
  local out rc
  out=$("$b/ktpu-sim" --max-cycles 3000000 "$@" 2>&1 </dev/null); rc=$?
  if [ $rc -eq 0 ] && grep -q "GEMM passed" <<<"$out"; then
    ok=$((ok + 1))
    echo "ok   $desc: $(grep -m1 '^cycles:' <<<"$out"); $(grep -m1 '^MACs/cycle' <<<"$out" | sed 's/.*: //')"
  else
    echo "FAIL $desc: status $rc"; grep -E 'MISMATCH|FAIL|error|time-out|status' <<<"$out" | head -8
  fi
}
for c in 1 2 4; do
  run "4x32x4, $c cluster(s)" --clusters $c --gemm-gen 4x32x4 --seed $c
  run "64x128x64 FP16, $c cluster(s)" --clusters $c --gemm-gen 64x128x64 --seed 1$c
done
run "5x40x7 (padded), 2 clusters" --gemm-gen 5x40x7 --dist uniform --seed 5
run "5x40x7 (padded), 4 clusters" --clusters 4 --gemm-gen 5x40x7 --dist relu --seed 6
run "64x128x64 pre-quantised, worst case (-64), 2 clusters" --gemm-gen 64x128x64 --preq --dist worst --seed 7
run "36x96x20 lowrank, 1 cluster" --clusters 1 --gemm-gen 36x96x20 --dist lowrank --seed 8
echo "GEMM firmware on ktpu-sim: $ok of $n runs passed"
[ $ok -eq $n ]
