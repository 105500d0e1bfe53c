#!/usr/bin/env bash
# Deliberately broken quantiser / memory agent: each mutant is one textual
# change to a copy under build/mem_mutants/, and its bench must FAIL on it.
# Run by `make regress` (tests/mem/tests.mk); non-zero if any mutant survives.
set -u
cd "$(dirname "$0")/../.."
out=build/mem_mutants
mkdir -p "$out"
REF_LIB=$PWD/build/host/libktpuref.a
# name | file | perl substitution (must change the file)
mutants=(
  "quant_ties_away|rtl/mem/ktpu_quant.sv|s/\(rb && \(sticky \|\| ax\[t\[3:0\]\]\)\)/(rb)/"
  "quant_flush_subnormals|rtl/mem/ktpu_quant.sv|s/sig = \{\(x\[14:10\] != 5'd0\), x\[9:0\]\};/sig = (x[14:10] != 5'd0) ? {1'b1, x[9:0]} : 11'd0;/"
  "quant_scale_threshold|rtl/mem/ktpu_quant.sv|s/if \(psig > 11'\(126 \* k\)\)/if (psig >= 11'(126 * k))/"
  "quant_ignore_nonfinite|rtl/mem/ktpu_quant.sv|s/if \(nonfinite2_q\) mag = 7'd0;//"
  "quant_zero_block_scale|rtl/mem/ktpu_quant.sv|s/\(nonfinite1 \|\| peak1 == 15'd0\)/(nonfinite1)/"
  "quant_sticky_no_remainder|rtl/mem/ktpu_quant.sv|s/sticky = \(r != 4'd0\) \|\| /sticky = /"
  "quant_stall_drops|rtl/mem/ktpu_quant.sv|s/assign adv     = !v3_q \|\| ready_i;/assign adv     = 1'b1;/"
)
run_quant() {  # dir
  verilator --cc --exe --build -j 2 -Wno-fatal -Wno-lint --x-assign unique --x-initial unique -O1 \
    --assert -CFLAGS "-O1 -std=c++17 -I$PWD/sim/ref -I$PWD/build/gen" -Ibuild/gen build/gen/ktpu_pkg.sv \
    --top-module ktpu_quant --Mdir "$1/obj" -o Vktpu_quant "$1/ktpu_quant.sv" \
    "$PWD/tests/mem/quant_tb.cpp" "$REF_LIB" >"$1/build.log" 2>&1 || return 2
  "$1/obj/Vktpu_quant" --random 3000 --seed 9 >"$1/run.log" 2>&1
}
survived=0
for m in "${mutants[@]}"; do
  IFS='|' read -r name file sub <<<"$m"
  d=$out/$name; mkdir -p "$d"
  cp rtl/mem/*.sv "$d/"
  perl -pi -e "$sub" "$d/$(basename "$file")"
  if cmp -s "$file" "$d/$(basename "$file")"; then
    echo "mutant $name: substitution did not apply (update this script)"; survived=1; continue
  fi
  case $name in quant_*) run_quant "$d" ;; *) run_agent "$d" ;; esac
  rc=$?
  if [ $rc -eq 2 ]; then echo "mutant $name: build failed (see $d/build.log)"; survived=1
  elif [ $rc -eq 0 ]; then echo "mutant $name: SURVIVED (bench passed on a broken design)"; survived=1
  else echo "mutant $name: caught -- $(grep -m1 -E 'FAIL|Assertion|Error' "$d/run.log" | cut -c1-110)"
  fi
done
[ $survived -eq 0 ] && echo "mem mutants: all ${#mutants[@]} caught"
[ $survived -eq 0 ]
