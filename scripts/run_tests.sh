#!/usr/bin/env bash
# Runs the tests named in a list file (lines: NAME<TAB>COMMAND), one log per
# test under LOGDIR, and ends with the line "N passed, N failed".
# A test passes when its command exits 0; nothing here greps output for "PASS".
#
# KTPU_TEST_ONLY: blank-separated shell patterns (make test T='acc_* cpu_isa');
# only the tests whose names match one of them run, and none matching is an
# error. LOGDIR/failed lists the names that failed (empty after a clean run:
# make test-failed runs those again). JUNIT (third argument, optional): a
# JUnit XML report of the run, for CI systems that read one.
#
# KTPU_TEST_JOBS tests run at once (default: the machine's cores): every
# test keeps its temporary files under mktemp or its own directory, so none
# shares a path with another. The longest run first (LOGDIR/times keeps the
# last run's seconds per test; a fresh tree has none and takes tests/times,
# a copy of one such file in the repository; a test in neither counts as
# 60 s), so that the last one to finish is a short one. Lines print as
# tests finish; the failed ones are listed again at the end in the list's
# order.
#
# KTPU_TEST_PARALLEL (make test PARALLEL='...'): the tests are handed to GNU
# parallel instead, with these options (--jobs 100% for this machine's
# cores, --sshloginfile FILE for other machines too, which must see this
# tree at the same path); each job is scripts/run_one_test.sh, as here.
# Lines then print when all have run, in the list's order.
set -u
list=$1
logdir=${2:-build/logs}
junit=${3:-}
jobs=${KTPU_TEST_JOBS:-$(nproc)}
only=${KTPU_TEST_ONLY:-}
mkdir -p "$logdir"
declare -A prev hint
if [ -f "$logdir/times" ]; then
  while read -r n s; do prev[$n]=$s; done <"$logdir/times"
elif [ -f tests/times ]; then
  while read -r n s; do hint[$n]=$s; done <tests/times
fi
names=() cmds=()
while IFS=$'\t' read -r name cmd; do
  name=${name#"${name%%[![:space:]]*}"}   # make's foreach leaves a leading blank
  [ -z "$name" ] && continue
  if [ -n "$only" ]; then
    keep=0
    for pat in $only; do
      # shellcheck disable=SC2053  # a pattern on purpose
      [[ $name == $pat ]] && keep=1
    done
    [ "$keep" = 1 ] || continue
  fi
  names+=("$name")
  cmds+=("$cmd")
done <"$list"
if [ ${#names[@]} -eq 0 ]; then
  echo "run_tests.sh: no test matches '$only' (names: $list)" >&2
  exit 2
fi
rm -f "$logdir"/*.result   # an interrupted run's, never taken for this one's
mapfile -t order < <(for i in "${!names[@]}"; do echo "${prev[${names[$i]}]:-${hint[${names[$i]}]:-60}} $i"; done | sort -k1,1nr -k2,2n |
                     awk '{ print $2 }')

pass=0; fail=0
declare -A status_of=() secs_of=()
declare -A slot_of=()   # pid -> test index
running=0
report() {  # report INDEX: the test's line, from the result its job left
  local name=${names[$1]} status secs summary
  read -r status secs <"$logdir/$name.result"
  rm -f "$logdir/$name.result"
  if [ "$status" = PASS ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
  status_of[$name]=$status
  secs_of[$name]=$secs
  prev[$name]=$secs
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
run_one=$(cd "$(dirname "$0")" && pwd)/run_one_test.sh
if [ -n "${KTPU_TEST_PARALLEL:-}" ]; then
  command -v parallel >/dev/null ||
    { echo "run_tests.sh: KTPU_TEST_PARALLEL is set, but GNU parallel is not installed (make deps)" >&2; exit 2; }
  logabs=$(cd "$logdir" && pwd)
  for i in "${order[@]}"; do printf '%s\t%s\n' "${names[$i]}" "${cmds[$i]}"; done >"$logdir/jobs"
  # shellcheck disable=SC2086  # the options are words
  parallel --will-cite --workdir "$PWD" $KTPU_TEST_PARALLEL --colsep '\t' "$run_one" "$logabs" {1} {2} \
    :::: "$logdir/jobs"
  for i in "${!names[@]}"; do
    if [ -f "$logdir/${names[$i]}.result" ]; then report "$i"
    else echo "FAIL ${names[$i]}: GNU parallel ran no job for it" >"$logdir/${names[$i]}.log"
         echo "FAIL 0" >"$logdir/${names[$i]}.result"; report "$i"; fi
  done
else
  for i in "${order[@]}"; do
    while [ "$running" -ge "$jobs" ]; do reap; done
    "$run_one" "$logdir" "${names[$i]}" "${cmds[$i]}" &
    slot_of[$!]=$i
    running=$((running + 1))
  done
  while [ "$running" -gt 0 ]; do reap; done
fi

# times: this run's seconds over the last ones (a subset run keeps the rest)
for n in "${!prev[@]}"; do echo "$n ${prev[$n]}"; done | sort >"$logdir/times.new"
mv -f "$logdir/times.new" "$logdir/times"
: >"$logdir/failed"
for n in "${names[@]}"; do
  [ "${status_of[$n]}" = FAIL ] || continue
  echo "$n" >>"$logdir/failed"
  echo "---- $n (last 20 lines of $logdir/$n.log)"
  tail -n 20 "$logdir/$n.log"
done

if [ -n "$junit" ]; then
  xml() { sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' -e 's/"/\&quot;/g' | tr -d '\000-\010\013\014\016-\037'; }
  total=0
  for n in "${names[@]}"; do total=$((total + ${secs_of[$n]})); done
  {
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo "<testsuites tests=\"${#names[@]}\" failures=\"$fail\" time=\"$total\">"
    echo "<testsuite name=\"ktpu\" tests=\"${#names[@]}\" failures=\"$fail\" time=\"$total\">"
    for n in "${names[@]}"; do
      echo "<testcase classname=\"ktpu\" name=\"$n\" time=\"${secs_of[$n]}\">"
      if [ "${status_of[$n]}" = FAIL ]; then
        echo "<failure message=\"$(grep -v '^[[:space:]]*$' "$logdir/$n.log" | tail -n 1 | cut -c1-200 | xml)\">"
        tail -n 40 "$logdir/$n.log" | xml
        echo "</failure>"
      fi
      echo "<system-out>$logdir/$n.log</system-out>"
      echo "</testcase>"
    done
    echo "</testsuite>"
    echo "</testsuites>"
  } >"$junit"
fi
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
