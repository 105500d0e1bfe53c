#!/usr/bin/env bash
# usage: check_gemm.sh BUILD_DIR SOC_TEST_DIR
# ktpu-sim --gemm's own checks (SPEC §2, §11), driven by tests/soc/gemm_one.c
# (a hand-driven one-cluster GEMM) so that each check is seen both to pass
# and to fail: the bit-for-bit tile check, coverage, canaries, numeric
# flags, named job errors, the time-out; bad inputs as inputs (named one-line
# error, status 125, no C.npy created or replaced); --clusters.
set -u
b=$1 d=$2
sim=$b/ktpu-sim
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check_lib.sh"
expect_file() {  # expect_file DESCRIPTION yes|no FILE
  n=$((n + 1))
  if { [ "$2" = yes ] && [ -s "$3" ]; } || { [ "$2" = no ] && [ ! -e "$3" ]; }; then ok=$((ok + 1));
  else echo "FAIL: $1: $3 should $( [ "$2" = yes ] && echo exist || echo not exist)"; fi
}
# mknpy FILE DESCR SHAPE COUNT HEXWORD...: a .npy v1.0 file whose COUNT
# 16-bit elements repeat the given little-endian values.
mknpy() {
  local f=$1 descr=$2 shape=$3 count=$4; shift 4
  local hdr="{'descr': '$descr', 'fortran_order': False, 'shape': $shape, }"
  local pad=$(( (64 - (10 + ${#hdr} + 1) % 64) % 64 ))
  hdr="$hdr$(printf '%*s' $pad '')"
  local len=$(( ${#hdr} + 1 ))
  { printf '\x93NUMPY\x01\x00'; printf "\\x$(printf %02x $((len & 255)))\\x$(printf %02x $((len >> 8)))";
    printf '%s\n' "$hdr"
    local vals=("$@") i=0
    while [ $i -lt "$count" ]; do
      local v=${vals[$((i % ${#vals[@]}))]}
      printf "\\x${v:4:2}\\x${v:2:2}"; i=$((i + 1))
    done; } >"$f"
}
one=$d/gemm_one_m0.elf
run() { "$sim" --max-cycles 400000 "$@"; }

# ---- the good path, three shapes, three machines ----
check "4x32x4 (nk = 1)" 0 "GEMM passed: 1 tiles checked, 0 failed" -- run --firmware "$one" --gemm-gen 4x32x4 -o "$tmp/c1.npy"
expect_file "4x32x4 writes C" yes "$tmp/c1.npy"
check "5x40x7 padded to 8x64x8" 0 "padded to 8 x 64 x 8" -- run --firmware "$one" --gemm-gen 5x40x7 --dist uniform
check "64x128x64 worst, pre-quantised (-64 elements)" 0 "GEMM passed" -- run --firmware "$one" --gemm-gen 64x128x64 --dist worst --preq --seed 3
check "1-cluster machine" 0 "GEMM passed" -- run --clusters 1 --firmware "$one" --gemm-gen 8x64x12 --dist relu
check "4-cluster machine (cluster at 2,0)" 0 "GEMM passed" -- run --clusters 4 --firmware "$one" --gemm-gen 12x96x8 --dist lowrank
check "--clusters 3 is not a machine" 125 "--clusters: '3' is not one of 1, 2, 4" -- run --clusters 3 --firmware "$one" --gemm-gen 4x32x4
# The trimmed C.npy of a padded shape (M, N) equals ktpu-ref gemm's C.
mknpy "$tmp/a.npy" '<f2' '(5, 64)' 320 0x3c00 0xb800 0x4100 0x2e66 0xc0cd 0x0000 0x3555
mknpy "$tmp/bt.npy" '<f2' '(7, 64)' 448 0x3800 0x4200 0xbc00 0x3266 0x0001 0xc4cd
check "--gemm from files" 0 "GEMM passed" -- run --firmware "$one" --gemm "$tmp/a.npy" "$tmp/bt.npy" -o "$tmp/c.npy"
n=$((n + 1))
if "$b/ktpu-ref" gemm "$tmp/a.npy" "$tmp/bt.npy" "$tmp/cref.npy" >/dev/null 2>&1 && cmp -s "$tmp/c.npy" "$tmp/cref.npy"; then
  ok=$((ok + 1)); else echo "FAIL: C.npy differs from ktpu-ref gemm's"; fi
# A C split-K on 2 clusters (the built-in firmware, docs/gemm.md) equals
# ktpu-ref gemm --split-k 2's, and differs from the one-cluster order's: the
# check follows the plan's order, and the order shows in the bits.
"$b/tools/ktpu-example" gen "$tmp" 32 1152 32 7 >/dev/null
check "split-K from files" 0 "split-K: K in 2 parts per tile" -- "$sim" --max-cycles 2000000 --gemm "$tmp/A.npy" "$tmp/BT.npy" -o "$tmp/csk.npy"
n=$((n + 1))
if "$b/ktpu-ref" gemm --split-k 2 "$tmp/A.npy" "$tmp/BT.npy" "$tmp/csk2.npy" >/dev/null 2>&1 &&
   cmp -s "$tmp/csk.npy" "$tmp/csk2.npy"; then
  ok=$((ok + 1)); else echo "FAIL: split-K C.npy differs from ktpu-ref gemm --split-k 2's"; fi
n=$((n + 1))
if "$b/ktpu-ref" gemm "$tmp/A.npy" "$tmp/BT.npy" "$tmp/csk1.npy" >/dev/null 2>&1 &&
   ! cmp -s "$tmp/csk.npy" "$tmp/csk1.npy"; then
  ok=$((ok + 1)); else echo "FAIL: split-K C.npy equals the one-cluster order's (the order should show)"; fi

# ---- each check seen failing ----
check "wrong reference element" 1 "MISMATCH .*first at C\[1\]\[2\]: got 0x[0-9a-f]{4} .* reference 0x" -- run --firmware "$one" --gemm-gen 8x64x8 --test-corrupt-ref 1,2 -o "$tmp/bad1.npy"
expect_file "no C after a mismatch" no "$tmp/bad1.npy"
check "wrong C stride: mismatch" 1 "MISMATCH" -- run --firmware "$d/gemm_one_m1.elf" --gemm-gen 8x64x8
check "wrong C stride: canaries" 1 "canaries around C overwritten" -- run --firmware "$d/gemm_one_m1.elf" --gemm-gen 8x64x8
check "half of C announced" 1 "32 of 64 C elements were never announced \(first C\[4\]\[0\]\)" -- run --firmware "$d/gemm_one_m2.elf" --gemm-gen 8x64x8
check "tile announced twice" 1 "announced twice" -- run --firmware "$d/gemm_one_m3.elf" --gemm-gen 8x64x8
check "cluster error named" 2 "JOBST_HWERR: cluster 0 answered FILL with CLERR_L1A" -- run --firmware "$d/gemm_one_m4.elf" --gemm-gen 8x64x8 -o "$tmp/bad2.npy"
expect_file "no C after a job error" no "$tmp/bad2.npy"
check "cluster time-out named" 2 "JOBST_TIMEOUT: cluster 1 did not answer in time" -- run --firmware "$d/gemm_one_m9.elf" --gemm-gen 8x64x8
check "job refused named" 2 "JOBST_BADJOB" -- run --firmware "$one" --gemm-gen 2100x32x4
check "firmware time-out" 124 "time-out: no SIM_EXIT within 300000 cycles .*no C written" -- "$sim" --max-cycles 300000 --firmware "$d/gemm_one_m5.elf" --gemm-gen 8x64x8 -o "$tmp/bad3.npy"
expect_file "no C after a time-out" no "$tmp/bad3.npy"
check "operand overwritten" 1 "operand A changed in DRAM \(row 0, byte 4\)" -- run --firmware "$d/gemm_one_m7.elf" --gemm-gen 8x64x8
check "stray flit" 1 "1 \+ 0 misaddressed flits" -- run --firmware "$d/gemm_one_m8.elf" --gemm-gen 8x64x8
# FP16 overflow: 200 x 200 x 32 = 1.28e6 saturates. The job must say so.
mknpy "$tmp/big.npy" '<f2' '(4, 32)' 128 0x5a40
check "numeric flags named" 2 "numeric flags set: FP16_OVERFLOW" -- run --firmware "$one" --gemm "$tmp/big.npy" "$tmp/big.npy" -o "$tmp/big_c.npy"
expect_file "C written for a numeric job" yes "$tmp/big_c.npy"
check "flags not reported" 1 "numeric flags: the job reports none, the reference FP16_OVERFLOW" -- run --firmware "$d/gemm_one_m6.elf" --gemm "$tmp/big.npy" "$tmp/big.npy" -o "$tmp/big_c2.npy"

# ---- bad input: named one-line error, status 125, C untouched ----
echo keep >"$tmp/keep.npy"
mknpy "$tmp/i2.npy" '<i2' '(4, 32)' 128 0x0001
mknpy "$tmp/r3.npy" '<f2' '(2, 2, 32)' 128 0x3c00
mknpy "$tmp/k64.npy" '<f2' '(4, 64)' 256 0x3c00
mknpy "$tmp/inf.npy" '<f2' '(4, 32)' 128 0x3c00 0x3c00 0x3c00 0x7c00
mknpy "$tmp/nan.npy" '<f2' '(4, 32)' 128 0xfe00
mknpy "$tmp/empty.npy" '<f2' '(0, 32)' 0 0x0000
bad() { check "$1" 125 "$2" -- run --firmware "$one" "${@:3}"; }
bad "wrong dtype" "i2.npy: dtype '<i2' is not FP16" --gemm "$tmp/i2.npy" "$tmp/big.npy" -o "$tmp/keep.npy"
bad "3-D operand" "r3.npy: rank 3, A \(M x K\) must be a 2-D matrix" --gemm "$tmp/r3.npy" "$tmp/big.npy" -o "$tmp/keep.npy"
bad "K differs" "k64.npy: K = 64 differs from .*big.npy's K = 32" --gemm "$tmp/big.npy" "$tmp/k64.npy" -o "$tmp/keep.npy"
bad "Inf operand" "inf.npy: non-finite value 0x7c00 \(Inf\) at \[0, 3\] \(NONFINITE\): replace it" --gemm "$tmp/inf.npy" "$tmp/big.npy" -o "$tmp/keep.npy"
bad "NaN operand" "nan.npy: non-finite value 0xfe00 \(NaN\) at \[0, 0\]" --gemm "$tmp/big.npy" "$tmp/nan.npy" -o "$tmp/keep.npy"
bad "empty operand" "empty matrix \(0 x 32\)" --gemm "$tmp/empty.npy" "$tmp/big.npy" -o "$tmp/keep.npy"
bad "missing operand" "none.npy: cannot open" --gemm "$tmp/none.npy" "$tmp/big.npy" -o "$tmp/keep.npy"
bad "no -o" "--gemm needs -o C.npy" --gemm "$tmp/big.npy" "$tmp/big.npy"
bad "bad shape" "'4x32' is not MxKxN" --gemm-gen 4x32
bad "zero dimension" "K in '4x0x4' is not in 1\.\.65536" --gemm-gen 4x0x4
bad "unknown distribution" "unknown distribution gauss" --gemm-gen 4x32x4 --dist gauss
bad "too large for DRAM" "needs [0-9]+ bytes of DRAM" --gemm-gen 4096x2048x64
bad "program and GEMM" "both given" --gemm-gen 4x32x4 "$d/spin.elf"
bad "too many clusters asked" "this machine has 2 clusters" --gemm-gen 4x32x4 --use-clusters 3
check "missing firmware" 125 "GEMM firmware $tmp/none.elf not found" -- "$sim" --firmware "$tmp/none.elf" --gemm-gen 4x32x4
n=$((n + 1)); if [ "$(cat "$tmp/keep.npy")" = keep ]; then ok=$((ok + 1)); else echo "FAIL: an existing C.npy was replaced by a failed run"; fi
echo "ktpu-sim --gemm: $ok of $n checks passed"
[ $ok -eq $n ]
