#!/usr/bin/env bash
# usage: regress_gemm.sh BUILD_DIR
# make regress: the co-simulated GEMM (built-in firmware, every tile checked
# bit for bit) under 20 seeds. The seed drives both the operands and the
# random initial register values (SPEC §14); each seed also takes its own
# shape (ragged ones padded), distribution, operand format, machine (1, 2, 4
# clusters) and DRAM latency (1, 64, 200), so the sweep covers the corners
# one fixed run does not. Every second seed also holds the clusters off the
# mesh at random (--cluster-hold 0, 20, 50 or 80 percent of the cycles):
# completions, reads and drains then arrive late and out of their order.
# Last, one job with an operand across the two memory agents' split.
set -u
b=$1
shapes=(256x256x256 100x96x36 64x1024x64 4x32x4 132x160x68 256x256x1024 36x288x40 128x128x128 8x2048x8 200x64x196)
dists=(normal uniform relu lowrank worst)
lats=(64 1 200)
pass=0 fail=0
for s in $(seq 1 20); do
  shape=${shapes[$(( (s - 1) % ${#shapes[@]} ))]}
  dist=${dists[$(( s % ${#dists[@]} ))]}
  c=$(( 1 << (s % 3) ))
  lat=${lats[$(( s % 3 == 0 ? 2 : s % 2 ))]}
  args=(--clusters "$c" --gemm-gen "$shape" --dist "$dist" --seed "$s" --dram-latency "$lat")
  [ $((s % 2)) -eq 0 ] && args+=(--preq)
  holds=(0 20 50 80)
  [ $((s % 2)) -eq 1 ] && args+=(--cluster-hold "${holds[$(( (s / 2) % 4 ))]}")
  if out=$("$b/ktpu-sim" "${args[@]}" 2>&1); then
    pass=$((pass + 1)); r=ok
  else
    fail=$((fail + 1)); r=FAIL
  fi
  echo "$r   seed $s: ${args[*]}: $(grep -m1 '^cycles:' <<<"$out")"
  [ $r = FAIL ] && tail -n 8 <<<"$out"
done
# Two memory agents with an operand across the middle of DRAM: A of
# 128x65536 MXFP7 is 8 MiB from 0x1000, so its last row group straddles
# the middle; nothing is refused for where it lies. The job is split-K
# over the four clusters, each reading its MXFP7 FILLs whole through the
# agent nearer it (two clusters per agent), each drain's bands alternate,
# so both ports read and write (the split by address bit this case was
# written for is gone: docs/soc.md, "Two memory ports").
args=(--clusters 4 --gemm-gen 128x65536x4 --preq --seed 77)
if out=$("$b/ktpu-sim" "${args[@]}" 2>&1) &&
   grep -Eq "agent 0's port [1-9][0-9]* read, [1-9][0-9]* written; agent 1's port [1-9][0-9]* read, [1-9][0-9]* written" <<<"$out"; then
  pass=$((pass + 1)); r=ok
else
  fail=$((fail + 1)); r=FAIL
fi
echo "$r   A across the middle of DRAM: ${args[*]}: $(grep -m1 '^DRAM beats:' <<<"$out")"
[ $r = FAIL ] && tail -n 8 <<<"$out"
echo "GEMM seed sweep: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
