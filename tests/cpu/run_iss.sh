#!/usr/bin/env bash
# usage: run_iss.sh KTPU_SIM PROGRAM.elf...
# The CPU programs on the instruction-set model alone (ktpu-sim --iss):
# each must exit 0 as it does on the RTL, except a program that uses the
# cluster mesh port (isa_irq: its external interrupt comes through the
# mesh loopback), which --iss must refuse naming the register, status 125.
set -u
sim=$1; shift
pass=0; fail=0
for elf in "$@"; do
  name=$(basename "$elf" .elf)
  out=$("$sim" --iss --seed 3 "$elf" 2>&1 >/dev/null); rc=$?
  if [ "$name" = isa_irq ]; then
    if [ $rc -eq 125 ] && grep -q "a store to MESH_TXn (MMIO +0x60): --iss models the CPU" <<<"$out"; then
      pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL $name (--iss): status $rc, want 125 naming MESH_TXn: $out"; fi
  elif [ $rc -eq 0 ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "FAIL $name (--iss): status $rc ${out:+-- $out}"
  fi
done
echo "cpu programs on --iss: $pass passed, $fail failed ($# programs)"
[ $fail -eq 0 ]
