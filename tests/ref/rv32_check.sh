#!/usr/bin/env bash
# The rv32 build of the reference: the library holds every public function
# of ktpu_ref.h compiled for RV32 and the self-test links against it into a
# 32-bit RISC-V ELF with no undefined symbols.
# usage: rv32_check.sh SELFTEST.elf LIBKTPUREF.a RV_PREFIX
set -u
elf=$1 lib=$2 pfx=$3
hdr=$(dirname "$0")/../../sim/ref/ktpu_ref.h
checks=0; fails=0
ok()  { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
h=$("${pfx}readelf" -h "$elf" 2>&1)
grep -q 'Class:.*ELF32' <<<"$h" && grep -q 'Machine:.*RISC-V' <<<"$h" && ok || bad "$elf is not an ELF32 RISC-V file"
grep -q "Flags: *0x0\$" <<<"$h" && ok || bad "$elf: not the ilp32 ABI without RVC (e_flags 0)"
[ -z "$("${pfx}nm" -u "$elf")" ] && ok || bad "$elf has undefined symbols"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for o in $("${pfx}ar" t "$lib"); do
  "${pfx}ar" p "$lib" "$o" >"$tmp/$o"
  "${pfx}readelf" -h "$tmp/$o" 2>/dev/null | grep -q "Class:.*ELF32" && ok || bad "$lib($o) is not ELF32"
done
defined=$("${pfx}nm" --defined-only "$lib" | awk '$2 == "T" {print $3}' | sort -u)
n=0
for f in $(grep -o 'ktpu_ref_[a-z0-9_]*(' "$hdr" | tr -d '(' | sort -u); do
  n=$((n + 1))
  grep -qx "$f" <<<"$defined" && ok || bad "$lib lacks $f"
done
text=$("${pfx}size" -t "$lib" | awk 'END {print $1}')
echo "ref_rv32_build: $n API functions present, library text $text bytes; $checks checks, $fails failed"
[ "$fails" -eq 0 ]
