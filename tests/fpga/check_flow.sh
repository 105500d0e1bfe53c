#!/usr/bin/env bash
# The FPGA flow as far as it runs here (docs/fpga.md):
#   - ktpu-mem writes the boot image's four lane files and --check reads them
#     back against the ELFs; a flipped byte, a missing line and a DRAM
#     segment are each refused by name;
#   - fpga/build.tcl under tclsh with stub Vivado commands: refused while the
#     XDC has EDIT_ME placeholders; with pins filled it reads exactly the
#     files of build/filelists/ktpu_fpga_top.f in order, the XDC, constrains
#     the clock from FPGA_CLK_HZ and synthesises ktpu_fpga_top for the part
#     with the lane files' prefix;
#   - the files Verilator read to build ktpu-sim are its file list's;
#   - `make bitstream` and `make flash` without Vivado or openFPGALoader on
#     PATH stop with one line naming what is missing.
# usage: check_flow.sh BUILD_DIR
set -u
B=$1
T=$B/tests/fpga
mkdir -p "$T"
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
expect_fail() {  # name, expected message fragment, command...
  local name=$1 frag=$2; shift 2
  local out; out=$("$@" 2>&1)
  if [ $? -eq 0 ]; then bad "$name: exit status 0"; elif [[ $out != *"$frag"* ]]; then bad "$name: no '$frag' in: $out"; else ok; fi
}
boot=("$B/fw/ktpu_boot.elf" "$B/fw/ktpu_gemm_resident.elf")
mem=$B/ktpu-mem

# ---- lane files
if "$mem" -o "$T/ram" "${boot[@]}" >/dev/null && "$mem" --check "$T/ram" "${boot[@]}" >/dev/null; then ok; else bad "ktpu-mem round trip"; fi
if [ "$(wc -l <"$T/ram2.mem")" -eq $((0x20000 / 4)) ]; then ok; else bad "ram2.mem is not one line per word"; fi
if "$mem" --check "$B/fpga/boot_ram" "${boot[@]}" >/dev/null; then ok; else bad "build/fpga/boot_ram*.mem are not the boot image's"; fi
cp "$T/ram1.mem" "$T/ram1.good"
# the first byte that differs from zero in lane 1 gets one bit flipped
n=$(grep -n -m1 -v '^00$' "$T/ram1.mem" | cut -d: -f1)
v=$(sed -n "${n}p" "$T/ram1.good")
sed "${n}s/.*/$(printf '%02x' $((0x$v ^ 1)))/" "$T/ram1.good" >"$T/ram1.mem"
expect_fail "flipped byte" "ram1.mem: line $n" "$mem" --check "$T/ram" "${boot[@]}"
head -n -1 "$T/ram1.good" >"$T/ram1.mem"
expect_fail "missing line" "ram1.mem: line 32768 is not two hex digits" "$mem" --check "$T/ram" "${boot[@]}"
cp "$T/ram1.good" "$T/ram1.mem"
expect_fail "DRAM segment" "only local RAM is in the bitstream" "$mem" -o "$T/x" "$B/tests/boot/stage.elf"
expect_fail "two ELFs on one byte" "which an earlier ELF already loads" "$mem" -o "$T/x" "${boot[0]}" "${boot[0]}"

# ---- build.tcl against stub Vivado commands
if ! command -v tclsh >/dev/null; then bad "tclsh not found (scripts/deps.sh installs tcl)"; else
  fl=$B/filelists/ktpu_fpga_top.f
  run_tcl() {  # xdc
    STUB_LOG=$T/stub.log tclsh <<TCL 2>&1
source tests/fpga/vivado_stub.tcl
set argv [list $fl $1 $B/fpga/boot_ram xcvu13p-fhgb2104-2L-e 125000000 2 $T/out]
set argc 7
source fpga/build.tcl
TCL
  }
  out=$(run_tcl fpga/ktpu_vu13p.xdc)
  if [[ $out == *"still has EDIT_ME pin placeholders"* ]] && [ ! -s "$T/stub.log" ]; then ok
  else bad "build.tcl with the placeholder XDC: $out"; fi
  sed 's/EDIT_ME/A1/' fpga/ktpu_vu13p.xdc >"$T/pins.xdc"
  out=$(run_tcl "$T/pins.xdc")
  log=$T/stub.log
  if [[ $out == *"ktpu_fpga_top.bit"* ]]; then ok; else bad "build.tcl did not finish under the stubs: $out"; fi
  if diff <(sed -n 's/^read_verilog -sv //p' "$log") <(grep -v '^$' "$fl") >/dev/null; then ok
  else bad "build.tcl's read_verilog calls are not the file list $fl"; fi
  grep -qx "read_xdc $T/pins.xdc" "$log" && ok || bad "read_xdc of the XDC missing"
  grep -qx "create_clock -period 8.000 -name clk clk_i" "$log" && ok || bad "clock not constrained from CLK_HZ (125 MHz: 8 ns)"
  grep -q "^synth_design -top ktpu_fpga_top -part xcvu13p-fhgb2104-2L-e .*ClkHz=125000000 .*Clusters=2 .*RamInit=\"$B/fpga/boot_ram\"" "$log" && ok \
    || bad "synth_design call: $(grep synth_design "$log")"
  grep -q "^write_bitstream -force $T/out/ktpu_fpga_top.bit" "$log" && ok || bad "write_bitstream missing"
fi

# ---- one file list per top: what Verilator read for ktpu-sim is its list
vf=$B/vl/ktpu_sim/Vktpu_sim_top__verFiles.dat
if [ -f "$vf" ]; then
  if diff <(sed -n 's/^S .*"\(.*\.s\?v\)"$/\1/p' "$vf" | sed "s|^$PWD/||" | sort) \
          <(grep -v '^$' "$B/filelists/ktpu_sim_top.f" | sort) >/dev/null; then ok
  else bad "Verilator read other files for ktpu-sim than $B/filelists/ktpu_sim_top.f"; fi
else bad "$vf missing (ktpu-sim not built from its file list)"; fi

# ---- the make targets without the vendor tools
nopath=$(echo "$PATH" | tr ':' '\n' | while read -r d; do [ -x "$d/vivado" ] || [ -x "$d/openFPGALoader" ] || echo "$d"; done | paste -sd:)
expect_fail "make bitstream without vivado" "vivado is not on PATH" env PATH="$nopath" make -s --no-print-directory bitstream
expect_fail "make flash without tools" "neither openFPGALoader" env PATH="$nopath" make -s --no-print-directory flash

echo "fpga flow: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
