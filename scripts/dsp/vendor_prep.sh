#!/usr/bin/env bash
# usage: vendor_prep.sh VENDOR/DSP48E2.v VENDOR/glbl.v OUT_DIR
# Private build copies (OUT_DIR/DSP48E2.v, OUT_DIR/glbl.v) of the vendor's
# DSP48E2 simulation model and its glbl (unisims, as published) that
# Verilator 5.006 builds and runs at a usable speed. In DSP48E2.v two kinds
# of edit, both exact, every one counted:
#  1. The unconnected-pin tests. Each input is read as
#       assign X_in = (X !== 1'bz) && X;      (default 0 when unconnected)
#       assign X_in = (X === 1'bz) || X;      (default 1 when unconnected)
#     Verilator turns `=== 1'bz` into tristate logic and refuses the ports
#     ("Unsupported: tristate in top-level IO"). Every DSP48E2 in this design
#     has every input connected (rtl/dsp/ktpu_mx_mac.sv; tests/dsp's
#     interface check), so for every pin the test is the constant it then is:
#     `X !== 1'bz` is 1 and `X === 1'bz` is 0, and the line becomes X_in = X
#     (with its inversion term kept, where the pin has one).
#  2. `assign #1 ALU_OUT_in = ...; // break 0 delay feedback`: a delay that
#     makes Verilator's --timing scheduler step every picosecond (about 2 ms
#     of host time per 10 ns cycle). It only breaks a zero-delay loop for an
#     event simulator; the ALU output is registered (PREG) or feeds no loop in
#     this design, and the benches are bit-exact against the C model with it
#     gone (make DSP48E2_MODEL=... test-dsp), which is the check.
# In glbl.v one: `#(TOC_WIDTH)` with TOC_WIDTH = 0 is a #0, which Verilator
# refuses (ZERODLY); a delay of zero is no delay, so the line goes.
# Fails, naming the line, if a file has a pin test of another form or the
# counts do not add up (a different release: read it before using it).
set -euo pipefail
in=$1 glbl=$2 out=$3/DSP48E2.v
total=$(grep -c "1'bz" "$in" || true)
odd=$(grep -n "1'bz" "$in" | grep -vE "\(([A-Z0-9_]+(\[[0-9]+\])?) (!==|===) 1'bz\) (&&|\|\|) " || true)
[ -z "$odd" ] || { echo "vendor_prep: $in: a pin test of another form: ${odd%%$'\n'*}" >&2; exit 1; }
delays=$(grep -c "^ *assign #1 ALU_OUT_in" "$in" || true)
[ "$delays" -eq 1 ] || { echo "vendor_prep: $in: expected one 'assign #1 ALU_OUT_in', found $delays" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
sed -E "s/\(([A-Z0-9_]+(\[[0-9]+\])?) !== 1'bz\) && //; s/\(([A-Z0-9_]+(\[[0-9]+\])?) === 1'bz\) \|\| //; \
        s/^( *assign) #1 (ALU_OUT_in)/\1 \2/" "$in" >"$out.tmp"
left=$(grep -c "1'bz\|assign #1" "$out.tmp" || true)
[ "$left" -eq 0 ] || { echo "vendor_prep: $left unconnected-pin tests or delays left in $out" >&2; exit 1; }
{ echo "// $(basename "$in") from $in, prepared by scripts/dsp/vendor_prep.sh:"
  echo "// $total unconnected-pin tests made the constants they are with every pin driven, one #1 dropped."
  cat "$out.tmp"; } >"$out"
rm -f "$out.tmp"
grep -qE "parameter TOC_WIDTH = 0;" "$glbl" && [ "$(grep -cE '^\s*#\(TOC_WIDTH\)$' "$glbl")" -eq 1 ] ||
  { echo "vendor_prep: $glbl: expected TOC_WIDTH = 0 and one '#(TOC_WIDTH)' line" >&2; exit 1; }
{ echo "// $(basename "$glbl") from $glbl, prepared by scripts/dsp/vendor_prep.sh: the #0 of TOC_WIDTH = 0 dropped."
  sed -E 's|^(\s*)#\(TOC_WIDTH\)$|\1// #(TOC_WIDTH): TOC_WIDTH is 0|' "$glbl"; } >"$3/glbl.v"
echo "vendor_prep: $3: DSP48E2.v ($total pin tests, 1 delay), glbl.v (1 zero delay)" >&2
