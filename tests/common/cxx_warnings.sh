#!/usr/bin/env bash
# The benches' and the co-simulator's own C++ held to -Wall -Wextra -Wshadow
# -Wundef -Werror, as the C is. Verilator builds them through its generated
# makefile, whose flags turn several of those warnings off for the code it
# generates (unused parameters and variables, sign compares, shadowing); so
# each model's own .cpp files are compiled once more here, with the model
# makefile's own -CFLAGS and defines, every one of those warnings on, and
# Verilator's and the model's headers as system headers (their warnings are
# not ours). Two compilers at a time.
# Usage: tests/common/cxx_warnings.sh MODEL_DIR/VTOP.mk...
set -u
flags="-Wall -Wextra -Wshadow -Wundef -Werror"
vroot=$(verilator --getenv VERILATOR_ROOT)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/query.mk" <<'MK'
ktpu-print-user: ; @printf '%s\n' '$(strip $(VM_USER_CFLAGS))' '$(strip $(VM_USER_CLASSES))' '$(strip $(VM_USER_DIR))' '-DVM_TRACE=$(VM_TRACE) -DVM_TRACE_FST=$(VM_TRACE_FST) -DVM_TRACE_VCD=$(VM_TRACE_VCD) -DVM_SC=$(VM_SC) -DVM_COVERAGE=$(VM_COVERAGE)'
MK
# one line a file: the model directory, the source, then the compile flags
missing=0
for mk in "$@"; do
  dir=$(dirname "$mk")
  if [ ! -f "$mk" ]; then echo "FAIL: $mk: no such model makefile (not built?)" >&2; missing=$((missing + 1)); continue; fi
  { read -r cflags; read -r classes; read -r udirs; read -r defs; } < <(make -s -C "$dir" -f "$(basename "$mk")" -f "$tmp/query.mk" ktpu-print-user)
  for c in $classes; do
    src=""
    for d in $udirs; do [ -f "$d/$c.cpp" ] && src="$d/$c.cpp" && break; done
    if [ -z "$src" ]; then echo "FAIL: $mk: $c.cpp not found in $udirs" >&2; missing=$((missing + 1)); continue; fi
    printf '%s\t%s\t%s %s\n' "$dir" "$src" "$cflags" "$defs"
  done
done >"$tmp/list"
compile() {   # DIR SRC FLAGS: one file; its messages into a log beside the list
  local log; log=$(mktemp -p "$tmp" fail.XXXXXX)
  # shellcheck disable=SC2086  # the flag lists are words
  if g++ $3 -isystem "$1" -isystem "$vroot/include" -isystem "$vroot/include/vltstd" -faligned-new \
       -fsyntax-only $flags "$2" >"$log" 2>&1; then rm -f "$log"
  else sed -i "1i FAIL: $2 (model $(basename "$1")):" "$log"; fi
}
export -f compile; export tmp vroot flags
tr '\t' '\n' <"$tmp/list" | xargs -r -d '\n' -n 3 -P 2 bash -c 'compile "$0" "$1" "$2"'
files=$(wc -l <"$tmp/list")
failed=$(find "$tmp" -name 'fail.*' | wc -l)
for f in "$tmp"/fail.*; do [ -f "$f" ] && head -n 20 "$f"; done
echo "cxx warnings: $files bench and harness C++ files compiled with $flags, $((failed + missing)) failed"
[ "$failed" -eq 0 ] && [ "$missing" -eq 0 ] && [ "$files" -gt 0 ]
