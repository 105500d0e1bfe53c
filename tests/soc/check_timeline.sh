#!/usr/bin/env bash
# usage: check_timeline.sh BUILD_DIR
# ktpu-sim --timeline: GEMM runs on 2 and 4 clusters write a Chrome
# trace-event JSON that loads, whose per-cluster tracks add up to the
# counters the same run reports (fill, sweep, drain, starved and
# back-pressured exactly; idle at least: the timeline also has the cycles
# before the job's first STATUS CLEAR; back-pressure up to the end of the
# cluster's last fill, sweep or drain, and the run that starts there: the
# last completion, a CL_WRITTEN the CPU has not taken yet, which the final
# STATUS waits behind; the report's counters are that STATUS's, read when
# the node went idle, and its own answer may then wait for the CPU, on the
# timeline only), whose slices on each track are in
# order and never overlap, and whose CPU tracks name functions and the GEMM
# service's phases (the CPU of the small FP16 job never waits). A timeline path that cannot be written, and --timeline
# with --iss, are refused before the run.
set -u
b=$(realpath "$1")
py=/usr/bin/python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

run() {  # run NAME PHASES ARGS...: the run passes, its timeline matches its report and
         # shows the CPU phases named (comma-separated)
  local name=$1 phases=$2; shift 2
  if ! "$b/ktpu-sim" --timeline "$tmp/$name.json" "$@" >"$tmp/$name.out" 2>&1; then
    bad "$name: ktpu-sim $* failed"; tail -n 5 "$tmp/$name.out"; return
  fi
  ok
  if out=$("$py" - "$tmp/$name.json" "$tmp/$name.out" "$phases" 2>&1 <<'EOF'
import json, re, sys
tl = json.load(open(sys.argv[1]))
report = open(sys.argv[2]).read()
ev = tl["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
procs = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
tracks = {}
for e in ev:
    if e["ph"] == "X":
        tracks.setdefault((e["pid"], e["tid"]), []).append(e)
errors = []
for key, sl in tracks.items():
    end = -1
    for e in sl:   # written as they end: in order on each track
        if e["dur"] <= 0 or e["ts"] < end:
            errors.append("track %s: slice at %d (dur %d) overlaps or is empty" % (key, e["ts"], e["dur"]))
            break
        end = e["ts"] + e["dur"]
n = 0
for m in re.finditer(r"^cluster (\d+): fill (\d+), sweep (\d+), drain (\d+), idle (\d+) cycles; "
                     r"starved (\d+), back-pressured (\d+);", report, re.M):
    c = int(m.group(1)); n += 1
    want = dict(zip(["fill", "sweep", "drain", "idle", "starved", "back-pressured"], map(int, m.groups()[1:])))
    if procs.get(1 + c) != "cluster %d" % c:
        errors.append("no process for cluster %d" % c)
        continue
    busy_end = max((e["ts"] + e["dur"] for tid in range(6) for e in tracks.get((1 + c, tid), [])
                    if e["name"] in ("fill", "sweep", "drain")), default=0)
    for tid in range(6):
        act = names.get((1 + c, tid))
        got = sum(e["dur"] for e in tracks.get((1 + c, tid), [])
                  if e["name"] == act and (act != "back-pressured" or e["ts"] <= busy_end))
        if act not in want or (got != want[act] if act != "idle" else got < want[act]):
            errors.append("cluster %d %s: timeline %d cycles, report %s" % (c, act, got, want.get(act)))
if not n:
    errors.append("no cluster counters in the report")
phases = {e["name"] for e in tracks.get((0, 1), [])}
if not set(sys.argv[3].split(",")) <= phases or not phases <= {"plan", "issue", "wait", "completion", "service", "other"}:
    errors.append("CPU phases %s" % sorted(phases))
fns = {e["name"] for e in tracks.get((0, 0), [])}
if not {"ktpu_plan_init", "ktpu_cl_poll", "main"} <= fns:
    errors.append("CPU functions lack ktpu_plan_init, ktpu_cl_poll or main")
print("\n".join(errors) if errors else "%d clusters' tracks match the report" % n)
sys.exit(1 if errors else 0)
EOF
  ); then ok; else bad "$name: $out"; fi
}

run gemm2 plan,issue,wait,completion --gemm-gen 64x128x64 --preq
run gemm2_fp16 plan,issue,completion --gemm-gen 128x64x96
run gemm4 plan,issue,wait,completion --clusters 4 --gemm-gen 256x256x256 --preq

# refused before the run: a path that cannot be written, --iss
out=$("$b/ktpu-sim" --timeline "$tmp/no/such/dir/t.json" --gemm-gen 64x128x64 2>&1); rc=$?
if [ $rc -eq 125 ] && grep -q "no/such/dir" <<<"$out" && ! grep -q "GEMM" <<<"$out"; then ok
else bad "an unwritable --timeline path: status $rc: $out"; fi
out=$("$b/ktpu-sim" --iss --timeline "$tmp/t.json" "$b/tests/soc/exit42.elf" 2>&1); rc=$?
if [ $rc -eq 125 ] && grep -q -- "--timeline" <<<"$out" && [ ! -e "$tmp/t.json" ]; then ok
else bad "--iss --timeline: status $rc: $out"; fi

echo "timeline: $pass of $((pass + fail)) checks passed"
[ "$fail" -eq 0 ]
