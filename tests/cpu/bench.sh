#!/usr/bin/env bash
# usage: bench.sh KTPU_SIM c_kernel.elf OUT.csv [CPU sources...]
# CPU benchmarks (SPEC §15), measured, never asserted:
#   - CPI of a compiled C workload, per kernel and overall (mcycle/minstret
#     read by the program itself);
#   - simulated cycles per host second of the SoC model on that run;
#   - ktpu_cpu's size and longest LUT path as make synth counts them
#     (scripts/synth/synth.sh; when sources are given).
# Writes metric,value,unit rows to OUT.csv and prints them as a table.
set -euo pipefail
sim=$1 elf=$2 csv=$3; shift 3
mkdir -p "$(dirname "$csv")"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "metric,value,unit" >"$csv"

t0=$(date +%s%N)
"$sim" --stats "$elf" >"$tmp/out" 2>"$tmp/err"
t1=$(date +%s%N)
cycles=$(sed -n 's/^ktpu-sim: \([0-9]*\) cycles.*/\1/p' "$tmp/err")
while read -r name cyc _ ins _ _ cpi _; do
  echo "cpi_$name,$cpi,cycles/instruction" >>"$csv"
  echo "cycles_$name,$cyc,cycles" >>"$csv"
done < <(grep -E '^[a-z]+ +[0-9]+ cycles' "$tmp/out")
total=$(sed -n 's/^kernel: .* CPI \([0-9.]*\) .*/\1/p' "$tmp/out")
echo "cpi_c_kernel,$total,cycles/instruction" >>"$csv"
ns=$((t1 - t0))
echo "sim_cycles_per_second,$(( cycles * 1000000000 / ns )),cycles/s" >>"$csv"

if [ $# -gt 0 ]; then
  # make synth's recipe and counts (scripts/synth/synth.sh), the core alone
  # (the package is synth.sh's own first read)
  srcs=()
  for f in "$@"; do [[ $f == */ktpu_pkg.sv ]] || srcs+=("$f"); done
  scripts/synth/synth.sh --csv "$tmp/synth.csv" --logdir "$tmp/synth" "cpu|ktpu_cpu|${srcs[*]}" >/dev/null
  IFS=, read -r _ _ lut lutram ff _ dsp _ _ path < <(tail -n 1 "$tmp/synth.csv")
  echo "cpu_lut_logic,$lut,LUT" >>"$csv"
  echo "cpu_lut_as_ram,$lutram,LUT" >>"$csv"
  echo "cpu_ff,$ff,FF" >>"$csv"
  echo "cpu_dsp48e2,$dsp,DSP48E2" >>"$csv"
  echo "cpu_lut_path,$path,levels" >>"$csv"
fi
column -t -s, "$csv"
