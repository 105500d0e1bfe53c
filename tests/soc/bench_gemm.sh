#!/usr/bin/env bash
# usage: bench_gemm.sh BUILD_DIR CSV [SHAPE...]
# SPEC §15 GEMM grid on the co-simulator with the built-in GEMM firmware:
# each MxKxN on 1, 2 and 4 clusters, FP16 (quantised on the way) and
# pre-quantised MXFP7 operands, DRAM latency 64. One CSV row per run (from
# ktpu-sim --csv) and a table on stdout. Every run is also a full check:
# a run that fails its checks is marked FAIL and the bench exits non-zero.
set -u
b=$1 csv=$2; shift 2
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(64x128x64 128x128x128 256x256x256 256x256x1024)
mkdir -p "$(dirname "$csv")"
rm -f "$csv"
status=0
printf '%-14s %-5s %8s %10s %10s %8s %12s\n' "MxKxN" "ops" "clusters" "cycles" "MACs/cyc" "% peak" "sim cyc/s"
for s in "${shapes[@]}"; do
  for fmt in fp16 mx; do
    for c in 1 2 4; do
      args=(--clusters "$c" --gemm-gen "$s" --seed 1 --max-cycles 100000000 --csv "$csv")
      [ $fmt = mx ] && args+=(--preq)
      if ! "$b/ktpu-sim" "${args[@]}" >/dev/null 2>&1; then status=1; fi
      tail -n 1 "$csv" | awk -F, -v s="$s" -v f=$fmt -v c="$c" \
        '{ printf "%-14s %-5s %8s %10s %10s %8s %12s %s\n", s, f, c, $6, $7, $8, $15, ($10 == "pass" ? "" : "FAIL") }'
    done
  done
done
echo "CSV: $csv"
exit $status
