#!/usr/bin/env bash
# Illegal parameters must stop elaboration with a named error (STYLE: $fatal
# in a generate if; Verilator needs -Werror-USERFATAL since the shared flags
# carry -Wno-fatal). Each case: the legal default must elaborate, the illegal
# value must fail with its message. Usage: elab_errors.sh build/gen/ktpu_pkg.sv
set -u
cd "$(dirname "$0")/../.."
pkg=${1:-build/gen/ktpu_pkg.sv}
pass=0; fail=0
vl() { verilator --lint-only -Wall -Werror-USERFATAL "$pkg" "$@" 2>&1; }

# case NAME 'expected message' TOP FILES -- -GPARAM=VALUE
case_() {
  local name=$1 msg=$2 top=$3; shift 3
  local files=() p
  while [ "$1" != "--" ]; do files+=("$1"); shift; done; shift
  if ! out=$(vl --top-module "$top" "${files[@]}"); then
    echo "FAIL $name: the legal default does not elaborate:"; echo "$out" | head -5; fail=$((fail + 1)); return
  fi
  if out=$(vl --top-module "$top" "${files[@]}" "$@"); then
    echo "FAIL $name: $* elaborated without error"; fail=$((fail + 1)); return
  fi
  if ! grep -qF "$msg" <<<"$out"; then
    echo "FAIL $name: error without the message '$msg':"; echo "$out" | head -3; fail=$((fail + 1)); return
  fi
  echo "ok   $name: $*"; pass=$((pass + 1))
}

dsp=rtl/dsp/DSP48E2.sv
case_ ram_latency   "ReadLatency=3: must be 1 or 2" ktpu_ram rtl/prim/ktpu_ram.sv -- -GReadLatency=3
case_ ram_primitive "Primitive=bram: must be"       ktpu_ram rtl/prim/ktpu_ram.sv -- '-GPrimitive="bram"'
case_ ram_depth     "need Width >= 1, Depth >= 2"   ktpu_ram rtl/prim/ktpu_ram.sv -- -GDepth=1
case_ dsp_areg      "AREG=3 BREG=1 not in 0..2"     DSP48E2 $dsp -- -GAREG=3
case_ dsp_acascreg  "ACASCREG=2 illegal with AREG=1" DSP48E2 $dsp -- -GACASCREG=2
case_ dsp_preaddsel "PREADDINSEL=B not modelled"    DSP48E2 $dsp -- '-GPREADDINSEL="B"'
case_ dsp_amultsel  "AMULTSEL=X not modelled"       DSP48E2 $dsp -- '-GAMULTSEL="X"'
case_ dsp_simd      "SIMD, pattern detect"          DSP48E2 $dsp -- '-GUSE_SIMD="FOUR12"'
case_ dsp_usemult   "USE_MULT=NONE not modelled"    DSP48E2 $dsp -- '-GUSE_MULT="NONE"'
case_ dsp_invert    "inverted pins"                 DSP48E2 $dsp -- "-GIS_CLK_INVERTED=1'b1"
case_ dsp_mreg      "register attribute is out of range" DSP48E2 $dsp -- -GMREG=2
case_ mac_shift20   "Shift=20"                      ktpu_mx_mac $dsp rtl/dsp/ktpu_mx_mac.sv -- -GShift=20
case_ delay_width   "Width must be at least 1"      ktpu_delay rtl/prim/ktpu_delay.sv -- -GWidth=0
echo "elab_errors: $((pass + fail)) cases, $((pass)) checks passed, $fail failed"
[ $fail -eq 0 ]
