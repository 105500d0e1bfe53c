#!/usr/bin/env bash
# usage: compare.sh BASELINE.csv NEW.csv
# make synth's diff against the table kept in the repository
# (scripts/synth/baseline.csv): one line per block, and a flag on every block
# whose LUT, FF, SRL, DSP48E2, BRAM or URAM count grew by more than 2 %, or
# whose LUT_PATH got longer. Blocks new or gone are named. Exit status 0
# always: the flags are for the reader (and the issue note); to accept a new
# table, copy NEW.csv over the baseline in the same commit as the change.
set -u
base=$1 new=$2
[ -f "$base" ] || { echo "synth: no baseline $base"; exit 0; }
awk -F, -v base="$base" '
  NR == FNR { if (FNR > 1) for (i = 3; i <= NF; i++) old[$1, i] = $i; seen[$1] = FNR > 1; if (FNR == 1) for (i = 3; i <= NF; i++) col[i] = $i; next }
  FNR == 1 { next }
  {
    name = $1; line = sprintf("%-12s", name); flag = ""
    if (!(name in seen)) { printf "%s new block (no baseline row)\n", line; next }
    for (i = 3; i <= NF; i++) {
      o = old[name, i] + 0; n = $i + 0
      if (n != o) line = line sprintf(" %s %s->%s", col[i], old[name, i], $i)
      if (col[i] == "LUT_PATH") { if (n > o) flag = flag " LONGER-PATH" }
      else if (n > o * 1.02) flag = flag " +" col[i]
    }
    done[name] = 1
    print line (line ~ /->/ ? "" : " unchanged") (flag != "" ? "   <-- GREW:" flag : "")
  }
  END { for (b in seen) if (seen[b] && !(b in done)) printf "%-12s gone (in the baseline only)\n", b }
' "$base" "$new"
