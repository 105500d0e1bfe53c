#!/usr/bin/env bash
# One test of scripts/run_tests.sh, wherever it runs (a local job, or a GNU
# parallel job on this or another machine sharing the tree): COMMAND under
# bash, its output in LOGDIR/NAME.log, "PASS|FAIL SECONDS" in
# LOGDIR/NAME.result. A test passes when its command exits 0.
# Usage: scripts/run_one_test.sh LOGDIR NAME COMMAND
set -u
logdir=$1 name=$2 cmd=$3
start=$(date +%s)
if bash -c "$cmd" >"$logdir/$name.log" 2>&1 </dev/null; then status=PASS; else status=FAIL; fi
echo "$status $(($(date +%s) - start))" >"$logdir/$name.result"
