#!/usr/bin/env bash
# The firmware SDK as a user meets it (docs/firmware.md): the template and
# the examples (firmware/examples/) copied to a fresh directory outside the
# tree, each built by its own three-line makefile with KTPU_ROOT pointing
# here, run with `make run` on build/ktpu-sim; output and exit status
# checked. Also: a program returning 3 fails `make run`, a second `make`
# relinks nothing, and `make fw PROG=DIR` builds a folder with and without
# a makefile of its own.
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktpu_sdk.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# our own makes, not jobs of the make running the tests
unset MAKEFLAGS MFLAGS MAKELEVEL
checks=0 fails=0
check() { # DESCRIPTION COMMAND...: one check, passing when COMMAND does
  local what=$1; shift
  checks=$((checks + 1))
  "$@" || { fails=$((fails + 1)); echo "check_sdk: FAIL: $what"; }
}

# A folder as a user has it: the example's files, KTPU_ROOT's line edited.
copy() { # EXAMPLE DEST
  cp -r "$root/firmware/examples/$1" "$2" && rm -rf "$2/build"
  sed -i "s|^KTPU_ROOT ?= .*|KTPU_ROOT ?= $root|" "$2/Makefile"
}
build_and_run() { # DIR: $DIR.build, $DIR.out (stdout), $DIR.err; the run's status
  make -C "$1" --no-print-directory >"$1.build" 2>&1 || { tail -n 20 "$1.build"; return 1; }
  make -C "$1" --no-print-directory run >"$1.out" 2>"$1.err"
}

for ex in template printf gemm; do
  copy "$ex" "$tmp/$ex"
  check "$ex: its makefile is three lines" test "$(wc -l <"$tmp/$ex/Makefile")" = 3
done

check "template: builds and exits 0" build_and_run "$tmp/template"
check "template: its greeting" diff - "$tmp/template.out" <<<"hello from the template"
check "template: a second make relinks nothing" \
  bash -c "make -C '$tmp/template' --no-print-directory 2>&1 | { ! grep gcc; }"

check "printf: builds and exits 0" build_and_run "$tmp/printf"
check "printf: every format as expected" diff - "$tmp/printf.out" <<'EOF'
int -42, unsigned 42, padded [    7] [7    ]
uint32_t 0x00c0ffee = 12648430
int64_t -9007199254740993, uint64_t 0xfedcba9876543210
long long 9223372036854775807
string [left  ] [ right], char k, percent %
double 3.142, 6.020000e+23
EOF

check "gemm: builds and exits 0" build_and_run "$tmp/gemm"
check "gemm: C equals the reference" grep -q '^gemm example: .* 0 of [0-9]* elements differ' "$tmp/gemm.out"
check "gemm: ends PASS" test "$(tail -n 1 "$tmp/gemm.out")" = PASS

copy template "$tmp/exit3"
sed -i 's/return 0;/return 3;/' "$tmp/exit3/main.c"
build_and_run "$tmp/exit3"; st=$?
check "exit3: make run fails with the program's status 3" \
  bash -c "[ $st -ne 0 ] && grep -q 'Error 3' '$tmp/exit3.err'"

# make fw: KTPU_ROOT comes from the tree, whatever the makefile's line says
copy template "$tmp/fwdir"
sed -i "s|^KTPU_ROOT ?= .*|KTPU_ROOT ?= /nonexistent|" "$tmp/fwdir/Makefile"
mkdir -p "$tmp/bare" && cp "$root/firmware/examples/template/main.c" "$tmp/bare/"
for d in fwdir bare; do
  check "make fw PROG=$d builds it" \
    bash -c "make -C '$root' --no-print-directory fw PROG='$tmp/$d' >'$tmp/$d.build' 2>&1 || { tail -n 20 '$tmp/$d.build'; false; }"
done
greets() { local out; out=$("$root/build/ktpu-sim" "$1") && [ "$out" = "hello from the template" ]; }
check "make fw: the folder's own PROG names the ELF, which runs" greets "$tmp/fwdir/build/template.elf"
check "make fw: a folder without a makefile is named after itself" greets "$tmp/bare/build/bare.elf"

echo "fw SDK: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
