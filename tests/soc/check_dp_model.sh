#!/usr/bin/env bash
# usage: check_dp_model.sh BUILD_DIR
# The co-simulator with the cluster datapath's functional model
# (ktpu-sim --dp-model, build/ktpu-sim-dpm; sim/model/ktpu_cluster_dp.sv)
# against the RTL one (build/ktpu-sim): the same GEMMs must give the same
# report line for line (cycles, counters, tiles, CPU and stall figures;
# only the host-time line and the run line, which names the datapath,
# differ), the same C byte for byte, the same timeline and the same CSV row
# but for its host columns. Shapes: MXFP7 with worst-case blocks
# (full-scale sums, elements at -64), a ragged FP16 job quantised on
# upload, a split-K job, the 2-cluster benchmark shape; each on 2 clusters,
# the machine both are built for.
set -u
b=$(realpath "$1")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

# the lines that may differ: host time (the stats line's rate) and the run line
strip() { grep -v -e ' of host time, ' -e '^run: ' "$1"; }
# the CSV's row without the columns that may differ (found by name in its header)
row() {
  awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++)
                               if ($i ~ /^(host_seconds|sim_cycles_per_s|busy_cycles_per_s|datapath)$/) skip[i] = 1
                             next }
                    { for (i in skip) $i = ""; print }' "$1"
}

same() {  # same NAME ARGS...: both datapaths pass and agree (files of the same names, in two folders)
  local name=$1; shift
  local r=$tmp/rtl/$name m=$tmp/dpm/$name
  mkdir -p "$tmp/rtl" "$tmp/dpm"
  (cd "$tmp/rtl" && "$b/ktpu-sim" --stats --csv "$name.csv" --timeline "$name.json" -o "$name.npy" "$@" >"$name.out" 2>&1)
  local rs=$?
  (cd "$tmp/dpm" && "$b/ktpu-sim" --dp-model --stats --csv "$name.csv" --timeline "$name.json" -o "$name.npy" "$@" \
     >"$name.out" 2>&1)
  local ms=$?
  if [ $rs -ne 0 ] || [ $ms -ne 0 ]; then bad "$name: status $rs (RTL), $ms (model)"; tail -n 3 "$r.out" "$m.out"; return; fi
  ok
  if diff <(strip "$r.out") <(strip "$m.out") >"$tmp/d"; then ok; else bad "$name: reports differ"; head -n 8 "$tmp/d"; fi
  if cmp -s "$r.npy" "$m.npy"; then ok; else bad "$name: C differs"; fi
  if cmp -s "$r.json" "$m.json"; then ok; else bad "$name: timelines differ"; fi
  if [ "$(row "$r.csv")" = "$(row "$m.csv")" ]; then ok; else bad "$name: CSV rows differ"; row "$r.csv"; row "$m.csv"; fi
  if tail -n 1 "$r.csv" | grep -q ',rtl,' && tail -n 1 "$m.csv" | grep -q ',model,'; then ok
  else bad "$name: the CSV's datapath column"; fi
  if grep -q '^run: .*, datapath model$' "$m.out" && ! grep -q 'datapath model' "$r.out"; then ok
  else bad "$name: the run line does not name the datapath"; fi
}

same mx_worst --gemm-gen 128x256x96 --preq --dist worst --seed 3
same fp16_ragged --gemm-gen 100x96x36 --seed 5
same split_k --gemm-gen 64x1024x64 --preq --seed 7
same mx_256 --gemm-gen 256x256x256 --preq

# which build answers: --version names the model, the RTL build does not
if "$b/ktpu-sim" --dp-model --version | grep -q "functional model" &&
   ! "$b/ktpu-sim" --version | grep -q "model"; then ok; else bad "--version does not tell the builds apart"; fi
# the model has no place in an ISS run
if "$b/ktpu-sim" --iss --dp-model "$b/fw/hello.elf" 2>&1 | grep -q -- "--dp-model"; then ok
else bad "--iss --dp-model not refused by name"; fi

echo "datapath model against the RTL: $pass of $((pass + fail)) checks passed"
[ $fail -eq 0 ]
