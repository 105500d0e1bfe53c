#!/usr/bin/env bash
# usage: check_fresh.sh GEN_DEFS DEF_FILE SV H
set -euo pipefail
gen=$1 def=$2 sv=$3 h=$4
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
"$gen" "$def" "$tmp/pkg.sv" "$tmp/defs.h"
ok=1
cmp -s "$tmp/pkg.sv" "$sv" || { echo "stale or edited: $sv (rerun make)"; ok=0; }
cmp -s "$tmp/defs.h" "$h"  || { echo "stale or edited: $h (rerun make)"; ok=0; }
# The generator itself must refuse a malformed description.
printf 'field X Y 3 5\n' >"$tmp/bad.def"
if "$gen" "$tmp/bad.def" "$tmp/b.sv" "$tmp/b.h" 2>/dev/null; then
  echo "generator accepted a field with MSB < LSB"; ok=0
fi
printf 'const A 1\nconst A 2\n' >"$tmp/dup.def"
if "$gen" "$tmp/dup.def" "$tmp/b.sv" "$tmp/b.h" 2>/dev/null; then
  echo "generator accepted a duplicate name"; ok=0
fi
[ $ok -eq 1 ] && echo "defs: 2 generated files fresh, 2 malformed descriptions refused"
[ $ok -eq 1 ]
