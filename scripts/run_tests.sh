#!/usr/bin/env bash
# Runs every test named in a list file (lines: NAME<TAB>COMMAND), one log per
# test under build/logs/, and ends with the line "N passed, N failed".
# A test passes when its command exits 0; nothing here greps output for "PASS".
set -u
list=$1
logdir=${2:-build/logs}
mkdir -p "$logdir"
pass=0; fail=0; failed=()
while IFS=$'\t' read -r name cmd; do
  name=${name#"${name%%[![:space:]]*}"}   # make's foreach leaves a leading blank
  [ -z "$name" ] && continue
  start=$(date +%s)
  if bash -c "$cmd" >"$logdir/$name.log" 2>&1 </dev/null; then
    status=PASS; pass=$((pass + 1))
  else
    status=FAIL; fail=$((fail + 1)); failed+=("$name")
  fi
  # The last line a test prints is its summary (check counts); show it.
  summary=$(grep -v '^[[:space:]]*$' "$logdir/$name.log" | tail -n 1 | cut -c1-100)
  printf '%-4s %-34s %4ss  %s\n' "$status" "$name" "$(( $(date +%s) - start ))" "$summary"
done <"$list"
for n in "${failed[@]+"${failed[@]}"}"; do
  echo "---- $n (last 20 lines of $logdir/$n.log)"
  tail -n 20 "$logdir/$n.log"
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
