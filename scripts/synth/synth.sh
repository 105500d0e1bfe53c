#!/usr/bin/env bash
# Yosys resource table (SPEC §13): for each block, synth_xilinx -family xcup
# (flattened, out of context: no I/O buffers, no clock buffer), then `stat`
# and the longest LUT path, printed as a table and written as CSV.
#
#   scripts/synth/synth.sh [--csv FILE] [--logdir DIR] [--expect 'COL=N ...'] [BLOCK...]
#   BLOCK = 'name|top_module[#PARAM=VALUE...]|source files...' (the
#   parameters set on the top by chparam); with no BLOCK, one per line
#   from build/synth-blocks.list (written by `make synth` from SYNTH_BLOCKS).
#
# Columns: LUT (LUT1..LUT6), LUTRAM (RAM*M/RAM*X), FF (FD*), SRL (SRL16E,
# SRLC32E), DSP48E2, BRAM (RAMB36E2 + RAMB18E2/2, in 36 Kb blocks), URAM
# (URAM288), LUT_PATH: logic levels of the longest path through LUT, MUXF and
# CARRY4/8 cells only (`ltp` restricted to them and all wires, on the flattened mapped
# netlist; FF, SRL, LUTRAM, DSP and RAM cells end a path). A level count,
# not a timing analysis: Yosys has no UltraScale+ delay model. Under a row:
# the longest path's start and the named signals it passes, and which
# pipeline registers the block's DSP48E2s hold (docs/timing.md).
# The DSP48E2 is Yosys's own cell: any DSP48E2 model among the sources is
# left out, so synthesis sees the primitive, never our behavioural twin.
# --expect 'LUT=0 FF=0 DSP48E2=1' fails (status 1) if a block differs.
set -u
cd "$(dirname "$0")/../.."
csv=build/synth/synth.csv; logdir=build/synth; expect=""
while [ $# -gt 0 ]; do
  case $1 in
    --csv) csv=$2; shift 2 ;;
    --logdir) logdir=$2; shift 2 ;;
    --expect) expect=$2; shift 2 ;;
    -*) echo "synth.sh: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
if [ $# -eq 0 ]; then
  list=build/synth-blocks.list
  [ -f $list ] || { echo "synth.sh: no blocks given and no $list (run make synth)" >&2; exit 2; }
  mapfile -t blocks < <(grep -v '^[[:space:]]*$' $list)
  [ ${#blocks[@]} -gt 0 ] || { echo "synth.sh: $list names no blocks" >&2; exit 2; }
  set -- "${blocks[@]}"
fi
command -v yosys >/dev/null || { echo "synth.sh: yosys not found (make deps)" >&2; exit 2; }
pkg=build/gen/ktpu_pkg.sv
[ -f $pkg ] || { echo "synth.sh: $pkg missing (make $pkg)" >&2; exit 2; }
mkdir -p "$logdir" "$(dirname "$csv")"

cols="LUT LUTRAM FF SRL DSP48E2 BRAM URAM LUT_PATH"
tmpcsv=$(mktemp); trap 'rm -f "$tmpcsv"' EXIT
echo "block,top,${cols// /,}" >"$tmpcsv"
printf '%-12s %-22s %7s %7s %7s %7s %8s %6s %5s %9s\n' block top $cols
status=0
for spec in "$@"; do
  IFS="|" read -r name top srcs <<<"$spec"
  name=${name//[[:space:]]/}; top=${top//[[:space:]]/}
  params=""   # top#P=V#Q=W: chparam -set P V top, and so on
  if [[ $top == *'#'* ]]; then
    IFS='#' read -ra tp <<<"$top"; top=${tp[0]}
    for p in "${tp[@]:1}"; do params="$params chparam -set ${p%%=*} ${p#*=} $top;"; done
  fi
  if [ -z "$name" ] || [ -z "$top" ] || [ -z "$srcs" ]; then
    echo "synth.sh: bad block spec '$spec' (want name|top|sources)" >&2; status=1; continue
  fi
  # One read_verilog per file: Yosys 0.23 mis-resolves package references
  # (ktpu_pkg::X) in some files when several are read by one command.
  reads="read_verilog -sv $pkg;"
  for f in $srcs; do
    case $(basename "$f") in DSP48E2.sv|DSP48E2.v|glbl.v) continue ;; esac
    [ -f "$f" ] || { echo "synth.sh: $name: source $f missing" >&2; status=1; continue 2; }
    reads="$reads read_verilog -sv $f;"
  done
  log=$logdir/$name.log
  if ! yosys -q -l "$log" -p "$reads $params \
        synth_xilinx -family xcup -flatten -noiopad -noclkbuf -top $top; \
        tee -o $logdir/$name.stat stat; \
        tee -o $logdir/$name.ltp ltp w:* t:LUT* t:MUXF* t:CARRY*; \
        tee -q -o $logdir/$name.dsp dump t:DSP48E2" >/dev/null 2>&1; then
    echo "synth.sh: $name: yosys failed ($(grep -m1 'ERROR' "$log" | cut -c1-120)), see $log" >&2
    status=1; continue
  fi
  # `stat` lines look like "     FDRE    168"; sum the cell types per column.
  read -r lut lutram ff srl dsp b36 b18 uram < <(awk '
    $1 ~ /^LUT[1-6]$/ {lut += $2}
    $1 ~ /^RAM(16|32|64|128|256|512)[XM]/ || $1 ~ /^RAM(32|64)X1[SD]/ {lutram += $2}
    $1 ~ /^FD[RSCP]E$/ {ff += $2}
    $1 == "SRL16E" || $1 == "SRLC32E" {srl += $2}
    $1 == "DSP48E2" {dsp += $2}
    $1 == "RAMB36E2" {b36 += $2}
    $1 == "RAMB18E2" {b18 += $2}
    $1 == "URAM288" || $1 == "URAM288_BASE" {uram += $2}
    END {printf "%d %d %d %d %d %d %d %d\n", lut, lutram, ff, srl, dsp, b36, b18, uram}
  ' "$logdir/$name.stat")
  bram=$(awk -v a="$b36" -v b="$b18" 'BEGIN {x = a + b / 2; printf (x == int(x)) ? "%d" : "%.1f", x}')
  path=$(sed -n 's/.*Longest topological path in .* (length=\([0-9]*\)).*/\1/p' "$logdir/$name.ltp" | head -n 1)
  [ -n "$path" ] || path=0
  printf '%-12s %-22s %7s %7s %7s %7s %8s %6s %5s %9s\n' \
    "$name" "$top" "$lut" "$lutram" "$ff" "$srl" "$dsp" "$bram" "$uram" "$path"
  echo "$name,$top,$lut,$lutram,$ff,$srl,$dsp,$bram,$uram,$path" >>"$tmpcsv"
  # Where the longest path runs: its start (a register or an input port) and
  # the named signals it passes, then how many levels remain after the last
  # one (the nets Yosys made itself, $-names, are left out).
  if [ "$path" != 0 ]; then
    awk -v len="$path" '
      /^ +[0-9]+: / { i = $1 + 0; w = $0; sub(/^ +[0-9]+: /, "", w); sub(/ \(via .*/, "", w)
                      if (w ~ /^\$/ || w ~ /^[0-9]+\047/) next; sub(/^\\/, "", w); gsub(/ /, "", w)
                      base = w; sub(/\[[0-9]+\]$/, "", base)
                      if (base == prev) next; prev = base; at = i; s = s (s == "" ? "" : " -> ") w }
      END { if (s != "") printf "  longest path: %s (+%d levels)\n", s, len - at }
    ' "$logdir/$name.ltp"
  fi
  # Which pipeline registers the DSP48E2s hold themselves (a register left
  # in the fabric makes the multiply a combinational pass between flip-flops).
  if [ "$dsp" != 0 ]; then
    awk '$1 == "cell" { r = "" }
         $1 == "parameter" { k = $2 == "signed" ? $3 : $2; v = $2 == "signed" ? $4 : $3; sub(/^\\/, "", k)
                             if (k ~ /^(A|B|AD|M|P)REG$/) r = r " " k "=" v }
         $1 == "end" && r != "" { n[r]++; r = "" }
         END { for (k in n) printf "  DSP48E2 registers: %4d x%s\n", n[k], k }
        ' "$logdir/$name.dsp" | sort -k5
  fi
  for e in $expect; do
    col=${e%%=*}; want=${e#*=}
    case $col in
      LUT) got=$lut ;; LUTRAM) got=$lutram ;; FF) got=$ff ;; SRL) got=$srl ;;
      DSP48E2) got=$dsp ;; BRAM) got=$bram ;; URAM) got=$uram ;; LUT_PATH) got=$path ;;
      *) echo "synth.sh: unknown column $col in --expect" >&2; exit 2 ;;
    esac
    if [ "$got" != "$want" ]; then
      echo "synth.sh: $name: $col = $got, expected $want" >&2; status=1
    fi
  done
done
cp "$tmpcsv" "$csv"
echo "table written to $csv"
[ -n "$expect" ] && [ $status -eq 0 ] && echo "synth: every block as expected ($expect)"
exit $status
