#!/usr/bin/env bash
# usage: run_programs.sh KTPU_SIM PROGRAM.elf...
# Each program must exit 0 on the simulator, and again with --lockstep (the
# core's every retirement compared with the C instruction-set model), with
# two different register seeds. KTPU_MAX_CYCLES, if set, caps each run
# (scripts/mutants.sh cpu: a mutant that hangs then costs minutes, not an hour).
set -u
sim=$1; shift
# no program is no test: a mutant sweep given none would otherwise count
# every mutant as surviving a bench that checked nothing (or, worse, a
# baseline that "passes")
[ $# -gt 0 ] || { echo "run_programs.sh: no program given (usage: run_programs.sh KTPU_SIM PROGRAM.elf...)"; exit 2; }
pass=0; fail=0
for elf in "$@"; do
  name=$(basename "$elf" .elf)
  for mode in "--seed 1" "--seed 7 --lockstep"; do
    out=$("$sim" ${KTPU_MAX_CYCLES:+--max-cycles $KTPU_MAX_CYCLES} $mode "$elf" 2>&1 >/dev/null); rc=$?
    if [ $rc -eq 0 ]; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1))
      echo "FAIL $name ($mode): status $rc ${out:+-- $out}"
    fi
  done
done
echo "cpu programs: $pass passed, $fail failed ($# programs, plain and lockstep)"
[ $fail -eq 0 ]
