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
