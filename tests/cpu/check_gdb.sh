#!/usr/bin/env bash
# usage: check_gdb.sh KTPU_SIM GDB_PROG.elf
# The debugger as a user drives it: gdb-multiarch, attached to
# `ktpu-sim --gdb 0` (its port read from the simulator's line), breaks at
# main and in a function, steps, reads a variable and the pc, and continues
# to the program's exit; a second session kills the run. Both on the
# instruction-set model (--iss, where a variable is also written) and on the
# RTL co-simulation (where memory is read-only: the write is refused).
set -u
sim=$(realpath "$1") elf=$(realpath "$2")
tmp=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
command -v gdb-multiarch >/dev/null || { echo "FAIL: gdb-multiarch is not installed (make deps)"; exit 1; }
ok=0 n=0
expect() { local d=$1; shift; n=$((n + 1)); if "$@"; then ok=$((ok + 1)); else echo "FAIL: $d"; fi; }
# session NAME: ktpu-sim --iss --gdb 0 in the background, then gdb runs the
# commands on stdin; the simulator's status in $tmp/NAME.rc
session() {
  local name=$1 port=""
  rm -f "$tmp/$name".*
  "$sim" $mode --gdb 0 "$elf" >"$tmp/$name.out" 2>"$tmp/$name.err" & local pid=$!
  for _ in $(seq 100); do
    port=$(sed -n 's/.*waiting on localhost:\([0-9]*\) .*/\1/p' "$tmp/$name.err"); [ -n "$port" ] && break; sleep 0.1
  done
  { echo "set confirm off"; echo "set pagination off"; echo "target remote localhost:$port"; cat; } >"$tmp/$name.gdb"
  timeout 60 gdb-multiarch -nx -batch -x "$tmp/$name.gdb" "$elf" >"$tmp/$name.log" 2>&1
  wait $pid; echo $? >"$tmp/$name.rc"
}
for mode in --iss ""; do
  what=${mode:-RTL}
  write=""; [ "$mode" = --iss ] && write="set var total = 29"
  session run <<GDB
break main
continue
next
print total
break square
continue
print x
finish
delete
break gdb_prog.c:13
continue
print total
$write
print total + 1
info registers pc
stepi
continue
GDB
  log=$tmp/run.log
  expect "$what: break at main" grep -q "^Breakpoint 1, main () at .*gdb_prog.c:11" "$log"
  expect "$what: next: line 12" grep -q "^12	" "$log"
  expect "$what: a variable read (total = 0 before the loop)" grep -q '^\$1 = 0$' "$log"
  expect "$what: break in square, its argument" grep -q '^\$2 = 1$' "$log"
  expect "$what: finish: the value returned" grep -q "^Value returned is \$3 = 1$" "$log"
  expect "$what: break at line 13: total is 30" grep -q '^\$4 = 30$' "$log"
  expect "$what: the pc at the line's address" grep -qE "^pc +0x[0-9a-f]+	0x[0-9a-f]+ <main\+[0-9]+>" "$log"
  if [ "$mode" = --iss ]; then
    expect "$what: a variable written (set var total = 29)" grep -q '^\$5 = 30$' "$log"
    expect "$what: continue to the exit: status 1 (total was changed to 29)" grep -q "exited with code 01" "$log"
    expect "$what: ktpu-sim's status is the program's (1)" [ "$(cat "$tmp/run.rc")" = 1 ]
    expect "$what: the program's output" grep -q "^total 29$" "$tmp/run.out"
  else
    expect "$what: continue to the exit: exited normally" grep -q "exited normally" "$log"
    expect "$what: ktpu-sim's status is the program's (0)" [ "$(cat "$tmp/run.rc")" = 0 ]
    expect "$what: the program's output" grep -q "^total 30$" "$tmp/run.out"
    expect "$what: in lockstep all along" grep -qE "lockstep: [0-9]+ records checked, 0 mismatches" "$tmp/run.err"
  fi
  [ $ok -eq $n ] || { echo "--- gdb's log ($what):"; cat "$log"; }
  if [ -z "$mode" ]; then
    # the RTL's memory is read-only to gdb: the write is refused (gdb's batch
    # stops there and detaches), and the program runs on unchanged
    session write <<'GDB'
break square
continue
set var total = 29
GDB
    expect "$what: a variable write refused" grep -q "Cannot access memory at address" "$tmp/write.log"
    expect "$what: detached, the program ran on unchanged" eval '[ "$(cat "$tmp/write.rc")" = 0 ] && grep -q "^total 30$" "$tmp/write.out"'
  fi
  session kill <<'GDB'
break square
continue
kill
GDB
  expect "$what: kill: ktpu-sim ends with status 1, named" eval '[ "$(cat "$tmp/kill.rc")" = 1 ] && grep -q "gdb: killed" "$tmp/kill.err"'
done
echo "gdb over --iss and the RTL: $ok of $n checks passed"
[ $ok -eq $n ]
