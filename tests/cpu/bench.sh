#!/usr/bin/env bash
# usage: bench.sh KTPU_SIM c_kernel.elf OUT.csv [CPU sources...]
# CPU benchmarks (SPEC §15), measured, never asserted:
#   - CPI of a compiled C workload, per kernel and overall (mcycle/minstret
#     read by the program itself);
#   - simulated cycles per host second of the SoC model on that run;
#   - Yosys synth_xilinx -family xcup size of ktpu_cpu (when sources given).
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
  # the DSP48E2 is Yosys's own cell: the behavioural model is left out
  # (as scripts/synth/synth.sh does)
  srcs=()
  for f in "$@"; do case $(basename "$f") in DSP48E2.sv | DSP48E2.v | glbl.v) ;; *) srcs+=("$f") ;; esac; done
  yosys -q -p "read_verilog -sv ${srcs[*]}; synth_xilinx -family xcup -top ktpu_cpu; tee -q -o $tmp/stat.txt stat" \
    >"$tmp/yosys.log" 2>&1
  # the last block of the statistics is the whole design
  awk '/=== design hierarchy ===/ { h = 1 } { if (h || !seen) print } /Number of cells/ { seen = 1 }' \
    "$tmp/stat.txt" >"$tmp/total.txt"
  lut=$(awk '/^ +LUT[1-6] / { s += $2 } END { print s + 0 }' "$tmp/total.txt")
  lutram=$(awk '/^ +RAM32M16 / { s += 8 * $2 } /^ +RAM32M / { s += 4 * $2 } END { print s + 0 }' "$tmp/total.txt")
  ff=$(awk '/^ +FD[A-Z]* / { s += $2 } END { print s + 0 }' "$tmp/total.txt")
  dsp=$(awk '/^ +DSP48E2 / { s += $2 } END { print s + 0 }' "$tmp/total.txt")
  echo "cpu_lut_logic,$lut,LUT" >>"$csv"
  echo "cpu_lut_as_ram,$lutram,LUT" >>"$csv"
  echo "cpu_ff,$ff,FF" >>"$csv"
  echo "cpu_dsp48e2,$dsp,DSP48E2" >>"$csv"
fi
column -t -s, "$csv"
