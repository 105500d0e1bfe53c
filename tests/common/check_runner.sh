#!/usr/bin/env bash
# The test runner itself (scripts/run_tests.sh), both ways it runs tests:
# its own jobs and GNU parallel (KTPU_TEST_PARALLEL). A list of four small
# tests, one failing and one whose command needs the shell's quoting, must
# give the same summary, status, failed list, JUnit counts and logs either
# way; a name filter and a filter matching nothing are checked once.
set -u
cd "$(dirname "$0")/../.."
# run under make test, which sets these for its own runner (make test T=...)
unset KTPU_TEST_ONLY KTPU_TEST_PARALLEL KTPU_TEST_JOBS
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tab=$(printf '\t')
cat >"$tmp/list" <<LIST
t_pass${tab}echo "t_pass: 3 checks, 0 failed"
t_fail${tab}echo "t_fail: 1 check failed"; exit 1
t_quote${tab}printf '%s\n' "a  b" | grep -q 'a  b' && echo "t_quote: \$((6 * 7)) quoted"
t_cwd${tab}test -f scripts/run_tests.sh && echo "t_cwd: in the tree"
LIST
# shellcheck source=tests/soc/check_lib.sh
. tests/soc/check_lib.sh   # expect DESCRIPTION TEST...: counts into $ok of $n
for mode in local parallel; do
  d=$tmp/$mode; mkdir -p "$d"
  if [ $mode = parallel ]; then par='--jobs 2'; else par=''; fi
  KTPU_TEST_PARALLEL=$par scripts/run_tests.sh "$tmp/list" "$d/logs" "$d/junit.xml" >"$d/out" 2>&1
  st=$?
  expect "$mode: status 1 (a test failed), got $st" [ $st -eq 1 ]
  expect "$mode: summary line" [ "$(tail -n 1 "$d/out")" = "3 passed, 1 failed" ]
  expect "$mode: one line per test" [ "$(grep -cE '^(PASS|FAIL) +t_' "$d/out")" -eq 4 ]
  expect "$mode: t_fail reported failed" grep -qE '^FAIL +t_fail .*t_fail: 1 check failed' "$d/out"
  expect "$mode: failed list" [ "$(cat "$d/logs/failed")" = t_fail ]
  expect "$mode: quoting kept" grep -qx 't_quote: 42 quoted' "$d/logs/t_quote.log"
  expect "$mode: run in the tree" grep -qx 't_cwd: in the tree' "$d/logs/t_cwd.log"
  expect "$mode: JUnit counts" grep -q 'tests="4" failures="1"' "$d/junit.xml"
  expect "$mode: times kept" [ "$(wc -l <"$d/logs/times")" -eq 4 ]
  expect "$mode: no result left" [ -z "$(find "$d/logs" -name '*.result')" ]
done
expect "same lines either way" [ "$(grep -E '^(PASS|FAIL)' "$tmp/local/out" | awk '{print $1, $2}' | sort)" = \
                                 "$(grep -E '^(PASS|FAIL)' "$tmp/parallel/out" | awk '{print $1, $2}' | sort)" ]
KTPU_TEST_ONLY='t_p* t_c*' scripts/run_tests.sh "$tmp/list" "$tmp/only" >"$tmp/only.out" 2>&1
st=$?
expect "a filter: status 0, got $st" [ $st -eq 0 ]
expect "a filter: two tests" [ "$(tail -n 1 "$tmp/only.out")" = "2 passed, 0 failed" ]
KTPU_TEST_ONLY='nothing_*' scripts/run_tests.sh "$tmp/list" "$tmp/none" >"$tmp/none.out" 2>&1
st=$?
expect "a filter matching nothing: status 2, got $st" [ $st -eq 2 ]
echo "test runner: $ok of $n checks passed (its own jobs and GNU parallel)"
[ "$ok" -eq "$n" ]
