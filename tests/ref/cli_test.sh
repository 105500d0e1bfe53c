#!/usr/bin/env bash
# ktpu-ref as a command (SPEC §2): good cases checked byte for byte, bad
# input (crafted .npy files: v1/v2/v3 headers, wrong dtype, rank, shapes,
# non-finite values, truncation) must give one line naming the file, a
# non-zero status, and leave any existing output untouched.
# Then hostile use (each case seen failing first): outputs only as regular
# files, never through a planted link; inputs only from regular files;
# ktpu-example's numbers decimal and in range.
# usage: cli_test.sh build/ktpu-ref [build/tools/ktpu-example]
set -u
REF=$(realpath "$1")
EXAMPLE=${2:+$(realpath "$2")}
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
cd "$dir"
checks=0; fails=0
ok()  { checks=$((checks + 1)); }
bad() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }

# mknpy FILE MAJOR DESCR FORTRAN SHAPE COUNT HEX [EXTRA_BYTES]
# COUNT elements, all the bit pattern HEX (e.g. 3c00 for FP16 1.0,
# 3f800000 for float32 1.0) written least significant byte first, after a
# header of format version MAJOR.0 padded to a multiple of 64 bytes.
mknpy() {
  local f=$1 major=$2 descr=$3 fortran=$4 shape=$5 count=$6 hex=$7 extra=${8:-0}
  local dict="{'descr': '$descr', 'fortran_order': $fortran, 'shape': $shape, }"
  local pre=10; [ "$major" -ge 2 ] && pre=12
  local total=$(( (pre + ${#dict} + 1 + 63) / 64 * 64 )) hl
  hl=$((total - pre))
  {
    printf '\x93NUMPY'; printf "\\x$(printf %02x "$major")\\x00"
    printf "\\x$(printf %02x $((hl & 255)))\\x$(printf %02x $((hl >> 8)))"
    [ "$major" -ge 2 ] && printf '\x00\x00'
    printf '%s' "$dict"; printf "%$((hl - ${#dict} - 1))s" ''; printf '\n'
    local el='' i
    for ((i = ${#hex} - 2; i >= 0; i -= 2)); do el+="\\x${hex:i:2}"; done
    for ((i = 0; i < count; i++)); do printf "$el"; done
    for ((i = 0; i < extra; i++)); do printf '\x00'; done
  } >"$f"
}
# data bytes of an .npy file as hex, header skipped
npy_data() { local n; n=$(( $(od -An -tu1 -j8 -N2 "$1" | awk '{print $1 + 256 * $2}') + 10 ));
             od -An -tx1 -v -j"$n" "$1" | tr -d ' \n'; }
rep() { local s='' i; for ((i = 0; i < $2; i++)); do s+=$1; done; printf '%s' "$s"; }

# ---- good cases -----------------------------------------------------------
mknpy A.npy 1 '<f2' False '(4, 32)' 128 3c00
mknpy B.npy 1 '<f2' False '(4, 32)' 128 3c00
if "$REF" gemm A.npy B.npy C.npy 2>err; then
  # all ones: every element 32.125 = 0x5004 (derivation in test_gemm.c)
  [ "$(npy_data C.npy)" = "$(rep 0450 16)" ] && ok || bad "all-ones gemm data $(npy_data C.npy)"
  grep -aq "'shape': (4, 4)" C.npy && ok || bad "C.npy header shape"
  [ $(( ($(stat -c %s C.npy) - 32) % 64 )) -eq 0 ] && ok || bad "C.npy header not 64-aligned"
  [ "$(head -c 8 C.npy | od -An -tx1 | tr -d ' ')" = "934e554d50590100" ] && ok || bad "C.npy magic"
  [ ! -s err ] && ok || bad "stderr not empty on a good run: $(cat err)"
else bad "good gemm failed: $(cat err)"; fi

mknpy A2.npy 2 '<f2' False '(4, 32)' 128 3c00      # v2.0 header
mknpy B3.npy 3 '<f2' False '(4,32)' 128 3c00       # v3.0, no blank in the tuple
"$REF" gemm A2.npy B3.npy C2.npy 2>err && cmp -s C.npy C2.npy && ok || bad "v2/v3 headers: $(cat err)"

# numpy's other layouts of the same all-ones operands (SPEC §2): float32,
# float64, big-endian FP16, Fortran order
mknpy Af4.npy 1 '<f4' False '(4, 32)' 128 3f800000
mknpy Bf8.npy 1 '<f8' False '(4, 32)' 128 3ff0000000000000
mknpy Abe.npy 1 '>f2' False '(4, 32)' 128 003c
mknpy Bfo.npy 1 '<f2' True '(4, 32)' 128 3c00
mknpy Bf4be.npy 1 '>f4' False '(4, 32)' 128 0000803f
"$REF" gemm Af4.npy Bf8.npy C4.npy 2>err && cmp -s C.npy C4.npy && ok || bad "float32 x float64: $(cat err)"
"$REF" gemm Abe.npy Bfo.npy C5.npy 2>err && cmp -s C.npy C5.npy && ok || bad "'>f2' x Fortran order: $(cat err)"
"$REF" gemm A.npy Bf4be.npy C6.npy 2>err && cmp -s C.npy C6.npy && ok || bad "'>f4': $(cat err)"

mknpy A35.npy 1 '<f2' False '(3, 32)' 96 3c00
mknpy B35.npy 1 '<f2' False '(5, 32)' 160 3c00
"$REF" gemm A35.npy B35.npy C35.npy 2>err && grep -aq "'shape': (3, 5)" C35.npy &&
  [ "$(npy_data C35.npy)" = "$(rep 0450 15)" ] && ok || bad "3x32 x 5x32: $(cat err)"

mknpy X.npy 1 '<f2' False '(2, 64)' 128 3c00
if "$REF" quant X.npy Q.bin 2>err; then
  [ "$(stat -c %s Q.bin)" -eq 128 ] && ok || bad "Q.bin size $(stat -c %s Q.bin)"
  # q = 57 = 0x39: byte 0 = 0x39 | (57 << 7 & 0xff) = 0xb9; scale 0x71
  b=$(od -An -tx1 -v -N32 Q.bin | tr -d ' \n')
  [ "${b:0:2}" = b9 ] && [ "${b:56:8}" = 71000000 ] && ok || bad "Q.bin block 0: $b"
else bad "good quant failed: $(cat err)"; fi

mknpy AO.npy 1 '<f2' False '(4, 32)' 128 7bff
"$REF" gemm AO.npy AO.npy CO.npy 2>err && grep -q FP16_OVERFLOW err &&
  [ "$(npy_data CO.npy)" = "$(rep ff7b 16)" ] && ok || bad "65504 gemm: saturation not reported"

"$REF" --help >out 2>&1 && grep -q '^usage: ktpu-ref gemm' out && ok || bad "--help"

# ---- bad input ------------------------------------------------------------
# expect_bad NAME STATUS-MIN WANT-IN-MESSAGE COMMAND...: fails, one line on
# stderr containing WANT, and the output (C.out / Q.out, pre-filled) intact
# (and no file left behind: the directory lists the same before and after)
expect_bad() {
  local name=$1 want=$2; shift 2
  echo keep >C.out; echo keep >Q.out
  local before; before=$(ls -A)
  "$@" >out 2>err; local st=$?
  local lines; lines=$(wc -l <err)
  if [ $st -ne 0 ] && [ "$lines" -eq 1 ] && grep -q -- "$want" err &&
     [ "$(cat C.out)" = keep ] && [ "$(cat Q.out)" = keep ] && [ ! -s out ] &&
     [ "$(ls -A)" = "$before" ]; then ok
  else bad "$name: status $st, $lines lines: $(head -c 300 err)"; fi
}
mknpy i2.npy 1 '<i2' False '(4, 32)' 128 0001
mknpy f4inf.npy 1 '<f4' False '(4, 32)' 128 7f800000
mknpy f4big.npy 1 '<f4' False '(4, 32)' 128 4788b800   # 70000.0
mknpy r1.npy 1 '<f2' False '(128,)' 128 3c00
mknpy r3.npy 1 '<f2' False '(1, 4, 32)' 128 3c00
mknpy k64.npy 1 '<f2' False '(4, 64)' 256 3c00
mknpy k33.npy 1 '<f2' False '(4, 33)' 132 3c00
mknpy kn.npy 1 '<f2' False '(32, 4)' 128 3c00
mknpy f4r.npy 1 '<f4' False '(4, 32)' 128 3f800001    # 1 + 2^-23: rounds to 1.0
mknpy nan.npy 1 '<f2' False '(4, 32)' 128 7e00
mknpy inf.npy 1 '<f2' False '(4, 32)' 128 7c00
mknpy ninf.npy 1 '<f2' False '(2, 64)' 128 fc00
mknpy trunc.npy 1 '<f2' False '(4, 32)' 100 3c00
mknpy extra.npy 1 '<f2' False '(4, 32)' 128 3c00 3
mknpy empty.npy 1 '<f2' False '(0, 32)' 0 3c00
mknpy ver9.npy 9 '<f2' False '(4, 32)' 128 3c00
head -c 40 A.npy >hcut.npy                       # cut inside the header
: >zero.npy
printf 'PK\x03\x04 not numpy at all........' >magic.npy
sed 's/fortran_order/fortran_ordr/' A.npy >key.npy
sed "s/'shape': (4, 32)/'shape': [4, 32]/" A.npy >list.npy
# one non-finite element in the middle of otherwise good data
cp A.npy onenan.npy; printf '\x01\x7e' | dd of=onenan.npy bs=1 seek=$(( $(stat -c %s A.npy) - 100 )) conv=notrunc 2>/dev/null

expect_bad missing      "nosuch.npy: cannot open"  "$REF" gemm nosuch.npy B.npy C.out
expect_bad dtype-i2     "i2.npy: dtype '<i2' is not FP16, float32 or float64" "$REF" gemm i2.npy B.npy C.out
expect_bad f4-inf       "f4inf.npy: element \[0, 0\] (inf) is not finite" "$REF" gemm f4inf.npy B.npy C.out
expect_bad f4-overflow  "f4big.npy: element \[0, 0\] (70000) overflows FP16 (largest 65504): scale" "$REF" gemm A.npy f4big.npy C.out
expect_bad rank1        "r1.npy: rank 1"          "$REF" gemm r1.npy B.npy C.out
expect_bad rank3        "r3.npy: rank 3"          "$REF" quant r3.npy Q.out
expect_bad k-mismatch   "k64.npy: K = 64 differs" "$REF" gemm A.npy k64.npy C.out
expect_bad b-for-bt     "kn.npy: K = 4 differs from A.npy's K = 32: BT must be N x K (B transposed); this looks like B (32 x 4): save its transpose, np.save(path, B.T)" "$REF" gemm A.npy kn.npy C.out
expect_bad k33-quant    "k33.npy: row length 33"  "$REF" quant k33.npy Q.out
expect_bad nan          "nan.npy: non-finite value 0x7e00 (NaN) at \[0, 0\]" "$REF" gemm nan.npy B.npy C.out
expect_bad inf          "inf.npy: non-finite value 0x7c00 (Inf)" "$REF" gemm A.npy inf.npy C.out
expect_bad ninf-quant   "ninf.npy: non-finite value 0xfc00" "$REF" quant ninf.npy Q.out
expect_bad one-nan      "onenan.npy: non-finite value 0x7e01 (NaN) at \[2, 14\]" "$REF" gemm onenan.npy B.npy C.out
expect_bad truncated    "trunc.npy: truncated"    "$REF" gemm trunc.npy B.npy C.out
expect_bad header-cut   "hcut.npy: truncated"     "$REF" gemm hcut.npy B.npy C.out
expect_bad zero-bytes   "zero.npy: truncated"     "$REF" gemm zero.npy B.npy C.out
expect_bad bad-magic    "magic.npy: not a .npy"   "$REF" quant magic.npy Q.out
expect_bad extra-bytes  "extra.npy: 3 bytes after" "$REF" gemm extra.npy B.npy C.out
expect_bad empty        "empty.npy: empty matrix" "$REF" gemm empty.npy B.npy C.out
expect_bad version      "ver9.npy: unsupported .npy format version 9" "$REF" gemm ver9.npy B.npy C.out
expect_bad header-key   "key.npy: unexpected header key" "$REF" gemm key.npy B.npy C.out
expect_bad shape-list   "list.npy: shape is not a tuple" "$REF" gemm list.npy B.npy C.out
expect_bad out-dir      "nodir/C.npy: cannot create" "$REF" gemm A.npy B.npy nodir/C.npy
expect_bad no-args      "wrong arguments"         "$REF"
expect_bad few-args     "wrong arguments"         "$REF" gemm A.npy B.npy
expect_bad unknown-cmd  "unknown command 'gemv'"  "$REF" gemv A.npy B.npy C.out
expect_bad split-zero   "--split-k: '0' is not in 1..16" "$REF" gemm --split-k 0 A.npy B.npy C.out
expect_bad split-many   "--split-k 2: more parts than K's 1 blocks of 32 (K = 32)" "$REF" gemm --split-k 2 A.npy B.npy C.out
"$REF" gemm --split-k 1 A.npy B.npy C1.npy 2>err && cmp -s C.npy C1.npy && ok || bad "--split-k 1 is not the one-cluster C: $(cat err)"
"$REF" gemm --split-k=1 A.npy B.npy C2.npy 2>err && cmp -s C.npy C2.npy && ok || bad "--split-k=1 (the = form): $(cat err)"
expect_bad help-value   "--help takes no value ('--help=x')" "$REF" --help=x
"$REF" --version >out 2>err && grep -qE "^ktpu-ref [^ ]+$" out && ok || bad "--version: $(cat out err)"
# K padded with zeros to whole blocks, as ktpu-sim pads it: all ones with
# K = 33 give 33.125 = 0x5024 in every element (32.125 for K = 32, above);
# unpadded, the 33rd column would be refused
"$REF" gemm k33.npy k33.npy C33.npy 2>err && [ "$(npy_data C33.npy)" = "$(rep 2450 16)" ] && ok ||
  bad "K = 33 padded: $(npy_data C33.npy) $(cat err)"
# float32 input: the elements rounding changed are counted, on stderr
"$REF" gemm f4r.npy B.npy Cr.npy 2>err && cmp -s C.npy Cr.npy &&
  grep -q "^note: f4r.npy: 128 of 128 elements changed when rounded to FP16" err && ok ||
  bad "float32 rounding note: $(cat err)"
# usage errors are status 2, input errors 1
"$REF" gemm A.npy >/dev/null 2>&1; [ $? -eq 2 ] && ok || bad "usage error status"
"$REF" gemm nan.npy B.npy C.out >/dev/null 2>&1; [ $? -eq 1 ] && ok || bad "input error status"

# ---- outputs: only regular files are replaced, never through a link -------
# (the temporary file is mkstemp's, beside the target; a planted PATH.tmp
# is neither followed nor removed)
mkfifo fifo.out
expect_bad out-fifo     "fifo.out: exists and is not a regular file (a FIFO)" "$REF" gemm A.npy B.npy fifo.out
[ -p fifo.out ] && ok || bad "out-fifo: fifo.out is no longer a FIFO"
expect_bad quant-fifo   "fifo.out: exists and is not a regular file (a FIFO)" "$REF" quant X.npy fifo.out
[ -p fifo.out ] && ok || bad "quant-fifo: fifo.out is no longer a FIFO"
echo victim >victim; ln -s victim link.out
expect_bad out-symlink  "link.out: exists and is not a regular file (a symbolic link)" "$REF" gemm A.npy B.npy link.out
[ -L link.out ] && cmp -s victim <(echo victim) && ok || bad "out-symlink: link or target changed"
mkdir dir.out; echo mine >dir.out.tmp
expect_bad out-dir-target "dir.out: exists and is not a regular file (a directory)" "$REF" gemm A.npy B.npy dir.out
[ "$(cat dir.out.tmp)" = mine ] && ok || bad "out-dir-target: the user's own dir.out.tmp was changed or removed"
echo victim >victim2; ln -s victim2 P.npy.tmp
"$REF" gemm A.npy B.npy P.npy 2>err && cmp -s P.npy C.npy && ok || bad "planted P.npy.tmp: $(cat err)"
cmp -s victim2 <(echo victim) && [ -L P.npy.tmp ] && ok || bad "planted P.npy.tmp link followed or removed"
cp C.npy R.npy; chmod 640 R.npy
"$REF" gemm A35.npy B35.npy R.npy 2>err && cmp -s R.npy C35.npy && [ "$(stat -c %a R.npy)" = 640 ] && ok ||
  bad "replacing a regular file (content, mode $(stat -c %a R.npy)): $(cat err)"
# /dev/null: only once a FIFO was seen refused (an unfixed tool run as root
# would replace the machine's /dev/null), and it must still be a device.
if [ -c /dev/null ] && [ -p fifo.out ]; then
  "$REF" gemm A.npy B.npy /dev/null >out 2>err; st=$?
  [ $st -eq 1 ] && grep -q "/dev/null: exists and is not a regular file (a character device)" err &&
    [ -c /dev/null ] && ok || bad "/dev/null as the output: status $st: $(cat err)"
fi
expect_bad out-option   "'--stats' looks like an option" "$REF" gemm A.npy B.npy --stats
[ ! -e ./--stats ] && ok || bad "a file named --stats was written"
expect_bad in-option    "'-x' looks like an option" "$REF" quant -x Q.out

# ---- inputs: regular files only -------------------------------------------
bounded() { (ulimit -v 4194304; exec timeout 20 "$@"); }
mkfifo in.fifo
expect_bad in-devzero   "/dev/zero: not a regular file (a character device)" bounded "$REF" gemm /dev/zero B.npy C.out
expect_bad in-fifo      "in.fifo: not a regular file (a FIFO)" bounded "$REF" quant in.fifo Q.out
expect_bad in-dir       "dir.out: not a regular file (a directory)" "$REF" gemm A.npy dir.out C.out

# ---- ktpu-example: decimal numbers in range -------------------------------
if [ -n "$EXAMPLE" ]; then
  mkdir gen gen10
  "$EXAMPLE" gen gen 4 32 4 010 >/dev/null 2>err; "$EXAMPLE" gen gen10 4 32 4 10 >/dev/null 2>&1
  cmp -s gen/A.npy gen10/A.npy && ok || bad "ktpu-example: seed 010 is not seed 10: $(cat err)"
  expect_bad ex-sign    "K: '-1' is not a decimal number"   "$EXAMPLE" gen gen 4 -1 4 1
  expect_bad ex-junk    "M: '4x' is not a decimal number"   "$EXAMPLE" gen gen 4x 32 4 1
  expect_bad ex-zero    "N: '0' is not in 1..65536"         "$EXAMPLE" gen gen 4 32 0 1
  expect_bad ex-big     "SEED: '18446744073709551616' is not in" "$EXAMPLE" gen gen 4 32 4 18446744073709551616
  expect_bad ex-dir     "nodir/A.npy: cannot create"        "$EXAMPLE" gen nodir 4 32 4 1
fi

echo "ref_cli: $checks checks, $fails failed"
[ "$fails" -eq 0 ]
