#!/usr/bin/env bash
# `make flash` (docs/fpga.md): loads BITSTREAM into the board's FPGA through
# openFPGALoader when it lists the part's device, else through Vivado's
# hardware manager (fpga/program.tcl); says which, and stops with one line
# when neither can serve the part.
# usage: fpga/flash.sh BITSTREAM PART CABLE
set -u
bit=$1 part=$2 cable=$3
dev=${part%%-*}
if command -v openFPGALoader >/dev/null && openFPGALoader --list-fpga 2>/dev/null | grep -qiw "$dev"; then
  tool=openFPGALoader; why="openFPGALoader lists $dev"
elif command -v vivado >/dev/null; then
  tool=vivado
  if command -v openFPGALoader >/dev/null; then why="openFPGALoader does not list $dev"; else why="no openFPGALoader"; fi
  why="$why: Vivado's hardware manager (fpga/program.tcl)"
else
  echo "make flash: $dev: neither openFPGALoader (listing $dev) nor vivado is on PATH; install one (docs/fpga.md)" >&2
  exit 1
fi
[ -f "$bit" ] || { echo "make flash: no bitstream $bit (make bitstream first)" >&2; exit 1; }
echo "make flash: $dev: $why"
if [ $tool = openFPGALoader ]; then
  exec openFPGALoader -c "$cable" "$bit"
else
  exec vivado -mode batch -nojournal -nolog -source fpga/program.tcl -tclargs "$bit"
fi
