#!/usr/bin/env bash
# Drop-in checks for the DSP48E2 model that need no vendor file:
#  1. its ports (direction, width, name) and attributes (type, name, default)
#     equal the DSP48E2 description Yosys ships in cells_xtra.v, which is
#     generated from the vendor's own library: same names, same widths, same
#     defaults as the vendor simulation model;
#  2. every DSP48E2 instance in rtl/ connects every input port by name (the
#     vendor model reads a floating input through === 1'bz).
set -u
cd "$(dirname "$0")/../.."
model=${DSP48E2_IFACE_MODEL:-rtl/dsp/DSP48E2.sv}
# yosys-config comes with the dev package; fall back to the Debian data path.
datdir=$(yosys-config --datdir 2>/dev/null || echo /usr/share/yosys)
lib=$datdir/xilinx/cells_xtra.v
[ -f "$lib" ] || { echo "dsp48e2_iface: $lib not found (yosys installed?)" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# One line per item: "param TYPE NAME DEFAULT" / "DIR WIDTH NAME".
norm() {
  sed -e 's/\/\/.*//' -e 's/\bwire\b//' -e 's/[,;]\s*$//' |
  awk '
    $1 == "parameter" {
      type = "-"; i = 2
      if ($2 == "integer" || $2 ~ /^\[/) { type = $2; i = 3 }
      name = $i; def = ""
      for (j = i + 2; j <= NF; j++) def = def $j
      print "param", type, name, def; next
    }
    $1 == "input" || $1 == "output" {
      w = "-"; i = 2
      if ($2 ~ /^\[/) { w = $2; i = 3 }
      print $1, w, $i
    }'
}
awk '/^module DSP48E2 /,/^endmodule/' "$lib" | grep -v '(\*' | norm | sort >"$tmp/vendor"
awk '/^module DSP48E2 /,/^\);/' "$model" | norm | sort >"$tmp/model"
n_vendor=$(wc -l <"$tmp/vendor")
checks=0; fails=0
if [ "$n_vendor" -lt 90 ]; then
  echo "dsp48e2_iface: only $n_vendor items read from $lib" >&2; exit 2
fi
checks=$((checks + 1))
if ! diff -u "$tmp/vendor" "$tmp/model" >"$tmp/diff"; then
  echo "MISMATCH: DSP48E2 model interface differs from the vendor library (- vendor, + model):"
  grep '^[-+][^-+]' "$tmp/diff"
  fails=$((fails + 1))
fi

# Every input of every instance, connected by name.
inputs=$(awk '$1 == "input" {print $3}' "$tmp/vendor")
for f in $(grep -l 'DSP48E2 #(' rtl/*/*.sv | grep -v '/DSP48E2\.sv$'); do
  for p in $inputs; do
    checks=$((checks + 1))
    if ! grep -q "\.$p(" "$f"; then
      echo "MISMATCH: $f: DSP48E2 input $p not connected by name"; fails=$((fails + 1))
    fi
  done
done
echo "dsp48e2_iface: $n_vendor ports/attributes compared, $checks checks, $fails failed"
[ $fails -eq 0 ]
