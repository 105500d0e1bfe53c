#!/usr/bin/env bash
# usage: check_numpy_doc.sh BUILD_DIR
# docs/numpy.md's walk-through, run as a user would: its ```python blocks,
# in order, as one script (Debian's python3 with python3-numpy, which
# scripts/deps.sh installs), against BUILD_DIR's ktpu-sim and ktpu-ref.
set -u
b=$(realpath "$1")
py=/usr/bin/python3   # Debian's, where python3-numpy lives (not a pyenv's first on PATH)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
awk '/^```python$/ { on = 1; next } /^```$/ { on = 0 } on' docs/numpy.md >"$tmp/walk.py"
[ -s "$tmp/walk.py" ] || { echo "FAIL: no python blocks in docs/numpy.md"; exit 1; }
"$py" -c 'import numpy' 2>/dev/null || { echo "FAIL: $py has no numpy (make deps installs python3-numpy)"; exit 1; }
KTPU_BUILD=$b "$py" "$tmp/walk.py" >"$tmp/out" 2>&1; rc=$?
if [ $rc -eq 0 ] && grep -q "^walk-through: all steps passed$" "$tmp/out"; then
  echo "numpy walk-through: passed ($(grep -c . "$tmp/walk.py") lines of docs/numpy.md run)"
else
  echo "FAIL: docs/numpy.md's walk-through (status $rc):"; tail -n 20 "$tmp/out"; exit 1
fi
