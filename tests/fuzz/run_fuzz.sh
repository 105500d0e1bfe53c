#!/bin/bash
# make fuzz: runs each libFuzzer harness for SECONDS, one after another
# (the machine is shared), on a working corpus in DIR/<target>/corpus
# seeded from tests/fuzz/corpus/<target>/ (which libFuzzer only reads).
# Crash inputs land in DIR/<target>/ (crash-*, leak-*, timeout-*), the log
# in DIR/<target>/fuzz.log. Prints executions per harness; exits non-zero
# if any harness failed. Usage: run_fuzz.sh DIR SECONDS TARGET...
set -u
dir=$1; secs=$2; shift 2
failed=()
for t in "$@"; do
    mkdir -p "$dir/$t/corpus"
    touch "$dir/$t/.start"   # what this run found is newer than this
    "$dir/$t/fuzz_$t" -max_total_time="$secs" -print_final_stats=1 -max_len=8192 -timeout=10 \
        -rss_limit_mb=2048 -artifact_prefix="$dir/$t/" "$dir/$t/corpus" "tests/fuzz/corpus/$t" \
        >"$dir/$t/fuzz.log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/$t/fuzz.log")
    cov=$(grep -o 'cov: [0-9]*' "$dir/$t/fuzz.log" | tail -n 1)
    found=$(find "$dir/$t" -maxdepth 1 -newer "$dir/$t/.start" -regextype egrep \
                 -regex '.*/(crash|leak|timeout|oom)-[^/]*' -printf '%f ')
    if [ "$rc" -ne 0 ] || [ -n "$found" ]; then
        failed+=("$t")
        echo "fuzz $t: FAILED (exit $rc) after ${execs:-?} executions; inputs: ${found:-none}"
        grep -m 5 -E 'ERROR|invariant broken|runtime error' "$dir/$t/fuzz.log"
    else
        echo "fuzz $t: ${execs:-?} executions in ${secs}s, ${cov:-cov: ?}, corpus $(ls "$dir/$t/corpus" | wc -l) inputs"
    fi
done
echo "fuzz: $# harnesses, ${#failed[@]} failed${failed[*]:+ (${failed[*]})}"
[ ${#failed[@]} -eq 0 ]
