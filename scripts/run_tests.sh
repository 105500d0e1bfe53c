#!/usr/bin/env bash
# Runs every test named in a list file (lines: NAME<TAB>COMMAND), one log per
# test under LOGDIR, and ends with the line "N passed, N failed".
# A test passes when its command exits 0; nothing here greps output for "PASS".
#
# KTPU_TEST_JOBS tests run at once (default: the machine's cores): every
# test keeps its temporary files under mktemp or its own directory, so none
# shares a path with another. The longest run first (LOGDIR/times keeps the
# last run's seconds per test; a test not in it counts as 60 s), so that the
# last one to finish is a short one.
set -u
list=$1
logdir=${2:-build/logs}
jobs=${KTPU_TEST_JOBS:-$(nproc)}
mkdir -p "$logdir"
declare -A prev
if [ -f "$logdir/times" ]; then
  while read -r n s; do prev[$n]=$s; done <"$logdir/times"
fi
names=() cmds=()
while IFS=$'\t' read -r name cmd; do
  name=${name#"${name%%[![:space:]]*}"}   # make's foreach leaves a leading blank
  [ -z "$name" ] && continue
  names+=("$name")
  cmds+=("$cmd")
done <"$list"
mapfile -t order < <(for i in "${!names[@]}"; do echo "${prev[${names[$i]}]:-60} $i"; done | sort -k1,1nr -k2,2n |
                     awk '{ print $2 }')

pass=0; fail=0; failed=()
declare -A slot_of=()   # pid -> test index
running=0
: >"$logdir/times.new"
report() {  # report INDEX: the test's line, from the result its job left
  local name=${names[$1]} status secs summary
  read -r status secs <"$logdir/$name.result"
  rm -f "$logdir/$name.result"
  if [ "$status" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$name"); fi
  echo "$name $secs" >>"$logdir/times.new"
  # The last line a test prints is its summary (check counts); show it.
  summary=$(grep -v '^[[:space:]]*$' "$logdir/$name.log" | tail -n 1 | cut -c1-100)
  printf '%-4s %-34s %4ss  %s\n' "$status" "$name" "$secs" "$summary"
}
reap() {  # waits for one test to end and reports it
  local pid
  wait -n -p pid
  report "${slot_of[$pid]}"
  unset "slot_of[$pid]"
  running=$((running - 1))
}
for i in "${order[@]}"; do
  while [ "$running" -ge "$jobs" ]; do reap; done
  name=${names[$i]}
  (
    start=$(date +%s)
    if bash -c "${cmds[$i]}" >"$logdir/$name.log" 2>&1 </dev/null; then status=PASS; else status=FAIL; fi
    echo "$status $(($(date +%s) - start))" >"$logdir/$name.result"
  ) &
  slot_of[$!]=$i
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do reap; done
mv -f "$logdir/times.new" "$logdir/times"
for n in "${failed[@]+"${failed[@]}"}"; do
  echo "---- $n (last 20 lines of $logdir/$n.log)"
  tail -n 20 "$logdir/$n.log"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
