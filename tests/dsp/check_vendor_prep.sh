#!/usr/bin/env bash
# scripts/dsp/vendor_prep.sh on a file with the vendor model's forms (the
# vendor's own file is not in the repository): every pin test made its
# constant, the one #1 dropped, glbl's #(TOC_WIDTH) dropped; a pin test of
# another form, a second #1, or a TOC_WIDTH that is not 0 refused by name.
set -u
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
ok=0 n=0
expect() { local d=$1; shift; n=$((n + 1)); if "$@"; then ok=$((ok + 1)); else echo "FAIL: $d"; fi; }
cat >"$tmp/DSP48E2.v" <<'V'
  assign ALUMODE_in[0] = (ALUMODE[0] !== 1'bz) && (ALUMODE[0] ^ IS_ALUMODE_INVERTED_REG[0]); // rv 0
  assign A_in[10] = (A[10] === 1'bz) || A[10]; // rv 1
  assign CEA1_in = (CEA1 !== 1'bz) && CEA1; // rv 0
  assign #1 ALU_OUT_in = {48{ALUMODE_DATA[1]}} ^ {s3[11:0],s2[11:0],s1[11:0],s0[11:0]}; // break 0 delay feedback
V
printf '    parameter TOC_WIDTH = 0;\n\tGTS_int = 1'"'"'b1;\n\t#(TOC_WIDTH)\n\tGTS_int = 1'"'"'b0;\n' >"$tmp/glbl.v"
scripts/dsp/vendor_prep.sh "$tmp/DSP48E2.v" "$tmp/glbl.v" "$tmp/out" 2>"$tmp/err"
expect "prepared" [ -s "$tmp/out/DSP48E2.v" ]
expect "inverted pin: the inversion kept" grep -qF "assign ALUMODE_in[0] = (ALUMODE[0] ^ IS_ALUMODE_INVERTED_REG[0]);" "$tmp/out/DSP48E2.v"
expect "default-1 pin: the pin itself" grep -qF "assign A_in[10] = A[10];" "$tmp/out/DSP48E2.v"
expect "default-0 pin: the pin itself" grep -qF "assign CEA1_in = CEA1;" "$tmp/out/DSP48E2.v"
expect "the #1 dropped, the expression kept" grep -qF "  assign ALU_OUT_in = {48{ALUMODE_DATA[1]}} ^ {s3[11:0]" "$tmp/out/DSP48E2.v"
expect "glbl: the #0 dropped" eval '! grep -qE "^\s*#\(TOC_WIDTH\)" "$tmp/out/glbl.v" && grep -q "GTS_int = 1.b0" "$tmp/out/glbl.v"'
expect "counted" grep -q "3 pin tests, 1 delay" "$tmp/err"
echo "  assign X_in = (X == 1'bz) ? 1'b0 : X;" >>"$tmp/DSP48E2.v"
expect "another form refused" eval '! scripts/dsp/vendor_prep.sh "$tmp/DSP48E2.v" "$tmp/glbl.v" "$tmp/o2" 2>"$tmp/e2" && grep -q "a pin test of another form" "$tmp/e2"'
sed -i '$d' "$tmp/DSP48E2.v"; sed -i 's/TOC_WIDTH = 0/TOC_WIDTH = 5/' "$tmp/glbl.v"
expect "a TOC_WIDTH that is not 0 refused" eval '! scripts/dsp/vendor_prep.sh "$tmp/DSP48E2.v" "$tmp/glbl.v" "$tmp/o3" 2>"$tmp/e3" && grep -q "expected TOC_WIDTH = 0" "$tmp/e3"'
echo "vendor model preparation: $ok of $n checks passed"
[ $ok -eq $n ]
