#!/bin/bash
# make test's fuzz_corpus: every harness's gcc replay (build/tests/fuzz/
# replay_<target>) over its seed corpus, tests/fuzz/corpus/<target>/.
# Usage: replay_all.sh DIR TARGET...
set -u
dir=$1; shift
total=0; failed=0
for t in "$@"; do
    if out=$("$dir/replay_$t" "$t" "tests/fuzz/corpus/$t" 2>&1); then
        echo "$out"
        total=$((total + $(sed -n 's/^replay .*: \([0-9]*\) inputs$/\1/p' <<<"$out")))
    else
        echo "$out"; echo "replay $t: FAILED"; failed=$((failed + 1))
    fi
done
echo "fuzz corpus: $total inputs over $# targets, $failed targets failed"
[ "$failed" -eq 0 ]
