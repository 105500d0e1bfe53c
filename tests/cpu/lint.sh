#!/usr/bin/env bash
# usage: lint.sh PKG.sv TOP FILE...
# verilator --lint-only -Wall over the given files; every warning must be
# waived in the source (line-scoped) or fixed. Warnings about the generated
# package's unused constants are not ours and are not counted.
set -u
pkg=$1 top=$2; shift 2
out=$(verilator --lint-only -Wall --top-module "$top" "$pkg" "$@" 2>&1)
mine=$(grep -E '^%(Warning|Error)' <<<"$out" | grep -v "$pkg" | grep -v 'Exiting due to')
n=$(grep -c . <<<"$mine")
if [ -n "$mine" ]; then
  echo "$mine" | head -20
  echo "lint $top: $n warnings"
  exit 1
fi
echo "lint $top: clean ($# files)"
