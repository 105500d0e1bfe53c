# Sourced by the ktpu-sim command-line checks (check_cli.sh, check_gemm.sh):
# check DESCRIPTION WANT_STATUS PATTERN -- command...
# passes when the command exits WANT_STATUS and its output (stdout and
# stderr) matches the extended regex PATTERN; counts into $ok of $n.
ok=0; n=0
check() {
  local desc=$1 want=$2 pat=$3; shift 4
  n=$((n + 1))
  local out rc
  out=$("$@" 2>&1 </dev/null); rc=$?
  if [ "$rc" -eq "$want" ] && grep -qE -- "$pat" <<<"$out"; then ok=$((ok + 1));
  else echo "FAIL: $desc: status $rc (want $want, /$pat/), output: $(tail -c 600 <<<"$out")"; fi
}
# check_no DESCRIPTION WANT_STATUS PATTERN NOT_PATTERN -- command...
# as check, and the output must not match NOT_PATTERN (e.g. a run that was
# to be refused before it simulated must print no GEMM report).
check_no() {
  local desc=$1 want=$2 pat=$3 nopat=$4; shift 5
  n=$((n + 1))
  local out rc
  out=$("$@" 2>&1 </dev/null); rc=$?
  if [ "$rc" -eq "$want" ] && grep -qE -- "$pat" <<<"$out" && ! grep -qE -- "$nopat" <<<"$out"; then ok=$((ok + 1));
  else echo "FAIL: $desc: status $rc (want $want, /$pat/, not /$nopat/), output: $(tail -c 600 <<<"$out")"; fi
}
# bounded command...: at most 20 s and 4 GiB of address space, for the
# cases whose failure mode is a hang or a runaway allocation.
bounded() { (ulimit -v 4194304; exec timeout 20 "$@"); }
# expect DESCRIPTION TEST...: one check of a shell test ([ ... ]).
expect() {
  local desc=$1; shift
  n=$((n + 1))
  if "$@"; then ok=$((ok + 1)); else echo "FAIL: $desc"; fi
}
