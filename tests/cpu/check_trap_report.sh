#!/usr/bin/env bash
# usage: check_trap_report.sh KTPU_SIM c_trap.elf
# The default trap handler must print the cause name and the faulting pc and
# end the run with status 128 + mcause (130 for an illegal instruction).
set -u
sim=$1 elf=$2
pc=$(riscv64-unknown-elf-nm "$elf" | awk '$3 == "ktpu_bad_insn" { print $1 }')
out=$("$sim" --lockstep "$elf" 2>&1); rc=$?
ok=0; n=0
check() { n=$((n + 1)); if eval "$1"; then ok=$((ok + 1)); else echo "FAIL: $2"; fi; }
check '[ $rc -eq 130 ]' "exit status $rc, want 130"
check 'grep -q "trap: illegal instruction (mcause 0x00000002) at pc 0x$pc" <<<"$out"' \
      "no cause/pc line for pc 0x$pc in: $out"
check '! grep -q "still running" <<<"$out"' "program continued after the trap"
echo "trap report: $ok of $n checks passed"
[ $ok -eq $n ]
