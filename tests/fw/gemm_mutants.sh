#!/bin/bash
# The on-chip self-test must fail when the GEMM firmware is built with a
# broken planner (KTPU_PLAN_MUTANT=n, firmware/gemm/ktpu_plan.c).
# Usage: gemm_mutants.sh KTPU_SIM ELF...   (one self-test ELF per mutant)
set -u
sim=$1; shift
killed=0; total=0
for elf in "$@"; do
    total=$((total + 1))
    if "$sim" --max-cycles 40000000 "$elf" >"${elf%.elf}.log" 2>&1; then
        echo "$(basename "$elf"): SURVIVED"
    else
        killed=$((killed + 1))
        echo "$(basename "$elf"): killed: $(grep -m1 'FAIL' "${elf%.elf}.log" | cut -c1-120)"
    fi
done
echo "gemm self-test mutants: $killed of $total killed"
[ "$killed" = "$total" ]
