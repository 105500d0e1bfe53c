#!/usr/bin/env bash
# usage: check_cli.sh KTPU_SIM DIR
# build/ktpu-sim's contract (SPEC §2): exit status passthrough, time-out,
# options, and a named one-line error with status 125 for every bad input.
# DIR holds spin.elf exit42.elf dram_latency.elf echo.elf far.elf hello.elf
# exit_sb.elf exit_sh.elf dram_only.elf gemm_one_m0.elf uart_burst.elf.
set -u
sim=$(realpath "$1") d=$(realpath "$2")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check_lib.sh"
check "help" 0 "--max-cycles" -- "$sim" --help
check "no program" 125 "error: no program" -- "$sim"
check "unknown option" 125 "unknown option --frobnicate" -- "$sim" --frobnicate "$d/hello.elf"
check "gemm operand missing" 125 "error: .*/a.npy: cannot open" -- "$sim" --firmware "$d/gemm_one_m0.elf" --gemm "$tmp/a.npy" "$tmp/b.npy" -o "$tmp/c.npy"
check "bad number" 125 "--max-cycles: '12x' is not a decimal number" -- "$sim" --max-cycles 12x "$d/hello.elf"
check "zero cycles" 125 "--max-cycles: '0' is not in 1\.\." -- "$sim" --max-cycles 0 "$d/hello.elf"
check "two programs" 125 "more than one program" -- "$sim" "$d/hello.elf" "$d/hello.elf"
check "missing file" 125 "cannot open" -- "$sim" "$tmp/none.elf"
printf 'this is not an elf file, just text that is long enough to be read\n' >"$tmp/text.elf"
check "not an ELF" 125 "not an ELF file" -- "$sim" "$tmp/text.elf"
head -c 30 "$d/hello.elf" >"$tmp/short.elf"
check "truncated ELF" 125 "not an ELF file" -- "$sim" "$tmp/short.elf"
cp "$d/hello.elf" "$tmp/class.elf"; printf '\x02' | dd of="$tmp/class.elf" bs=1 seek=4 conv=notrunc status=none
check "64-bit ELF" 125 "not a 32-bit ELF" -- "$sim" "$tmp/class.elf"
cp "$d/hello.elf" "$tmp/mach.elf"; printf '\x3e\x00' | dd of="$tmp/mach.elf" bs=1 seek=18 conv=notrunc status=none
check "x86-64 machine" 125 "not a RISC-V ELF \(machine 62\)" -- "$sim" "$tmp/mach.elf"
head -c 2000 "$d/hello.elf" >"$tmp/cut.elf"
check "segment past end of file" 125 "outside the file" -- "$sim" "$tmp/cut.elf"
check "segment outside memory" 125 "outside memory" -- "$sim" "$d/far.elf"
check "time-out" 124 "time-out: no SIM_EXIT within 5000 cycles" -- "$sim" --max-cycles 5000 "$d/spin.elf"
check "exit status passthrough" 42 "^K" -- "$sim" "$d/exit42.elf"
check "mailbox print" 42 "mailbox: 0x1234abcd" -- "$sim" "$d/exit42.elf"
check "hello" 0 "^hello from the KohakuTPU sequencer" -- "$sim" --seed 99 "$d/hello.elf"
printf 'hello, uart\n' >"$tmp/in.txt"
check "uart echo" 0 "^HELLO, UART$" -- "$sim" --uart-in "$tmp/in.txt" "$d/echo.elf"
check "uart-in missing" 125 "cannot open" -- "$sim" --uart-in "$tmp/none" "$d/echo.elf"
{ seq 1 600 | tr '\n' ' '; echo; } >"$tmp/burst.txt"
"$sim" --max-cycles 2000000 --uart-in "$tmp/burst.txt" "$d/uart_burst.elf" >"$tmp/burst.out" 2>&1
expect "uart: a byte arriving while the empty receiver is read is kept" cmp -s "$tmp/burst.txt" "$tmp/burst.out"
check "trace" 0 "" -- "$sim" --trace "$tmp/t.fst" --max-cycles 20000 "$d/hello.elf"
n=$((n + 1)); if [ -s "$tmp/t.fst" ]; then ok=$((ok + 1)); else echo "FAIL: no FST written"; fi
check_no "trace unwritable, refused before the run" 125 "t.fst: cannot create: No such file" "^hello" -- "$sim" --trace "$tmp/no/dir/t.fst" "$d/hello.elf"
# DRAM latency: one load takes latency + 2 cycles (issue, then W); the
# difference between two latencies is exact.
"$sim" "$d/dram_latency.elf" >/dev/null 2>&1; l64=$?
"$sim" --dram-latency 10 "$d/dram_latency.elf" >/dev/null 2>&1; l10=$?
n=$((n + 1)); if [ $((l64 - l10)) -eq 54 ] && [ "$l64" -ge 64 ]; then ok=$((ok + 1));
else echo "FAIL: DRAM load took $l64 cycles at the default latency, $l10 at 10"; fi
check "bad latency" 125 "--dram-latency: '0' is not in 1\.\.100000" -- "$sim" --dram-latency 0 "$d/hello.elf"
# ---- hostile but realistic use: each case below was seen failing first ----
# Runs in $tmp/h: a wrongly accepted file name lands there, nowhere else.
mkdir "$tmp/h" && cd "$tmp/h" || exit 1
one=$d/gemm_one_m0.elf
gen() { "$sim" --max-cycles 400000 --firmware "$one" "$@"; }
# numbers: decimal digits in the option's range, nothing else
check "--clusters 2^64-1" 125 "--clusters: '18446744073709551615' is not one of 1, 2, 4" -- "$sim" --clusters 18446744073709551615 "$d/hello.elf"
check "--clusters 3" 125 "--clusters: '3' is not one of 1, 2, 4" -- "$sim" --clusters 3 "$d/hello.elf"
check "--max-cycles ' -1'" 125 "--max-cycles: ' -1' is not a decimal number" -- "$sim" --max-cycles " -1" "$d/hello.elf"
check "--max-cycles -1" 125 "--max-cycles: '-1' is not a decimal number" -- "$sim" --max-cycles -1 "$d/hello.elf"
check "--max-cycles +5" 125 "--max-cycles: '\+5' is not a decimal number" -- "$sim" --max-cycles +5 "$d/hello.elf"
check "--max-cycles 0x10" 125 "--max-cycles: '0x10' is not a decimal number" -- "$sim" --max-cycles 0x10 "$d/hello.elf"
check "--max-cycles 2^64" 125 "--max-cycles: '18446744073709551616' is not in 1\.\.18446744073709551615" -- "$sim" --max-cycles 18446744073709551616 "$d/hello.elf"
check "--max-cycles 010 is ten" 124 "no SIM_EXIT within 10 cycles" -- "$sim" --max-cycles 010 "$d/spin.elf"
check "--dram-latency -1" 125 "--dram-latency: '-1' is not a decimal number" -- "$sim" --dram-latency -1 "$d/hello.elf"
check "--seed ''" 125 "--seed: '' is not a decimal number" -- "$sim" --seed "" "$d/hello.elf"
check "--use-clusters 2^32+1" 125 "--use-clusters: '4294967297' is not in 1\.\.4" -- gen --gemm-gen 4x32x4 --use-clusters 4294967297
check "--test-corrupt-ref -1,2" 125 "--test-corrupt-ref: ROW in '-1,2' is not a decimal number" -- gen --gemm-gen 4x32x4 --test-corrupt-ref -1,2
check "--mem-window 16,16" 125 "--mem-window 16,16: BASE must be below LIMIT" -- "$sim" --mem-window 16,16 "$d/hello.elf"
check "--mem-window past the DRAM" 125 "--mem-window: LIMIT in '0,16777217' is not in 0\.\.16777216" -- "$sim" --mem-window 0,16777217 "$d/hello.elf"
check "--cluster-hold 91" 125 "--cluster-hold: '91' is not in 0\.\.90" -- "$sim" --cluster-hold 91 "$d/hello.elf"
check "--hold-only 2 (2 clusters)" 125 "--hold-only: '2' is not in 0\.\.1" -- "$sim" --hold-only 2 "$d/hello.elf"
check "--test-corrupt-ref 1" 125 "--test-corrupt-ref: '1' is not ROW,COL" -- gen --gemm-gen 4x32x4 --test-corrupt-ref 1
# --seed is decimal: 010 is the seed 10, not 8
gen --gemm-gen 4x32x4 --seed 010 -o s010.npy >/dev/null 2>&1
gen --gemm-gen 4x32x4 --seed 10 -o s10.npy >/dev/null 2>&1
gen --gemm-gen 4x32x4 --seed 8 -o s8.npy >/dev/null 2>&1
expect "--seed 010 is seed 10" cmp -s s010.npy s10.npy
expect "--seed 8 differs from 10" eval '[ -s s8.npy ] && ! cmp -s s8.npy s10.npy'
# an option-looking value for an option that takes a file
check "-o --stats" 125 "-o: '--stats' looks like an option, not a file name" -- gen --gemm-gen 4x32x4 -o --stats
expect "no file named --stats" eval '[ ! -e ./--stats ]'
check "--csv -o" 125 "--csv: '-o' looks like an option" -- gen --gemm-gen 4x32x4 --csv -o x.npy
check "--trace --stats" 125 "--trace: '--stats' looks like an option" -- "$sim" --trace --stats "$d/hello.elf"
check "--gemm A -o" 125 "--gemm: '-o' looks like an option" -- gen --gemm a.npy -o c.npy
# --gemm-gen MxKxN: each 1..65536, decimal (a sign was read by %lu and wrapped)
for s in -1x32x4 4x-1x4 4x32x-1 18446744073709551615x32x4 " 4x32x4" 4x32x4x 4x32 65537x32x4 4x0x4; do
  check "--gemm-gen '$s'" 125 "--gemm-gen: (. in )?'$s' is not" -- gen --gemm-gen "$s"
done
# the DRAM fit is checked before anything is generated: at once, not minutes
check "65536x16384x4 refused at once" 125 "needs [0-9]+ bytes of DRAM" -- bounded "$sim" --firmware "$one" --gemm-gen 65536x16384x4
# the scratch region an FP16 job is lent is optional: a job with room for
# A, BT and C but not for it runs without it (12 MiB of operands, 6 more
# of scratch, 16 MiB of DRAM)
check "48x65536x48 FP16 fits without its scratch region" 124 "time-out: no SIM_EXIT" -- bounded "$sim" --gemm-gen 48x65536x48 --max-cycles 100
# outputs: validated (created) before the run; only regular files replaced
check_no "--csv in a missing directory" 125 "nodir/x.csv: cannot create" "GEMM report|GEMM passed" -- gen --gemm-gen 4x32x4 --csv "$tmp/h/nodir/x.csv" -o c6.npy
expect "no C after a refused --csv" eval '[ ! -e c6.npy ]'
check_no "-o in a missing directory" 125 "nodir/c.npy: cannot create" "GEMM report" -- gen --gemm-gen 4x32x4 -o "$tmp/h/nodir/c.npy"
echo victim >victim; ln -s victim link.npy
check_no "-o a symbolic link" 125 "link.npy: exists and is not a regular file \(a symbolic link\)" "GEMM report" -- gen --gemm-gen 4x32x4 -o link.npy
expect "the link and its target untouched" eval '[ -L link.npy ] && cmp -s victim <(echo victim)'
mkfifo fifo.npy
check_no "-o a FIFO" 125 "fifo.npy: exists and is not a regular file \(a FIFO\)" "GEMM report" -- bounded "$sim" --firmware "$one" --gemm-gen 4x32x4 -o fifo.npy
check_no "--csv a FIFO" 125 "fifo.npy: exists and is not a regular file \(a FIFO\)" "GEMM report" -- bounded "$sim" --firmware "$one" --gemm-gen 4x32x4 --csv fifo.npy
expect "the FIFO is still a FIFO" test -p fifo.npy
mkdir adir; echo mine >adir.tmp
check_no "-o a directory" 125 "adir: exists and is not a regular file \(a directory\)" "GEMM report" -- gen --gemm-gen 4x32x4 -o adir
expect "the user's own adir.tmp untouched" eval '[ "$(cat adir.tmp)" = mine ]'
# a planted PATH.tmp link is not followed (the temporary name is mkstemp's)
echo victim >victim3; ln -s victim3 c3.npy.tmp
check "-o beside a planted c3.npy.tmp link" 0 "GEMM passed" -- gen --gemm-gen 4x32x4 -o c3.npy --csv r.csv
expect "the planted link's target untouched" eval 'cmp -s victim3 <(echo victim) && [ -L c3.npy.tmp ]'
expect "C is a regular file" eval '[ -f c3.npy ] && [ ! -L c3.npy ]'
gen --gemm-gen 4x32x4 --csv r.csv >/dev/null 2>&1
expect "--csv appends: a header and two rows" eval '[ "$(wc -l <r.csv)" -eq 3 ] && head -n1 r.csv | grep -q ^m,k,n'
check "--trace a symbolic link" 125 "link.npy: exists and is not a regular file" -- "$sim" --trace link.npy "$d/hello.elf"
left=$(ls -A | grep -vE "^(victim3?|link\.npy|fifo\.npy|adir|adir\.tmp|c3\.npy(\.tmp)?|r\.csv|s(010|10|8)\.npy)$")
expect "no temporary file left behind: $left" test -z "$left"
# inputs: regular files only, read without blocking
mkfifo p.fifo
check "a FIFO as the program" 125 "p.fifo: not a regular file \(a FIFO\)" -- bounded "$sim" p.fifo
check "/dev/zero as the program" 125 "/dev/zero: not a regular file \(a character device\)" -- bounded "$sim" /dev/zero
check "/dev/zero as an operand" 125 "/dev/zero: not a regular file \(a character device\)" -- bounded "$sim" --firmware "$one" --gemm /dev/zero /dev/zero -o cz.npy
check "a FIFO as an operand" 125 "p.fifo: not a regular file \(a FIFO\)" -- bounded "$sim" --firmware "$one" --gemm p.fifo p.fifo -o cz.npy
# conventions: --version, --opt=value, flags without values, plusargs
check "--version" 0 "^ktpu-sim [0-9a-f]+(-dirty)? \(2 clusters, 1 memory agent\)$|^ktpu-sim .*-g[0-9a-f]+" -- "$sim" --version
check "--clusters 4 --version names that machine" 0 "\(4 clusters, 2 memory agents\)" -- "$sim" --clusters 4 --version
check "--max-cycles=10 (the = form)" 124 "no SIM_EXIT within 10 cycles" -- "$sim" --max-cycles=10 "$d/spin.elf"
check "--stats=1" 125 "--stats takes no value \('--stats=1'\)" -- "$sim" --stats=1 "$d/hello.elf"
check "--seed= (empty value)" 125 "--seed: '' is not a decimal number" -- "$sim" --seed= "$d/hello.elf"
check "+trace is a plusarg, not a program" 125 "'\+trace' is a plusarg" -- "$sim" +trace "$d/hello.elf"
# the run line: seed, DRAM latency, cycle limit and version in the report and the CSV
check "report: run line" 0 "^run: seed 7, DRAM latency 33, cycle limit 400000, ktpu-sim [^ ]+$" -- gen --gemm-gen 4x32x4 --seed=7 --dram-latency=33 --csv run.csv
# a GEMM without --max-cycles sizes its own: 4000000 + 8 per 512 MACs (8x32x12 pads to 8x32x12: 3072 MACs, 48)
check "a GEMM's own cycle limit" 0 "^run: seed 1, DRAM latency 64, cycle limit 4000048, ktpu-sim" -- "$sim" --firmware "$one" --gemm-gen 8x32x12
expect "CSV: seed, latency and version columns" eval 'head -n1 run.csv | grep -q ",seed,dram_latency,version$" && tail -n1 run.csv | grep -qE ",7,33,[^,]+$"'
expect "CSV: the run's rate, then the rate while a cluster was busy, then the datapath" eval \
  'head -n1 run.csv | grep -q ",host_seconds,sim_cycles_per_s,busy_cycles_per_s,datapath,seed," && tail -n1 run.csv | grep -qE ",[1-9][0-9]*,[1-9][0-9]*,rtl,7,33,"'
rm -f run.csv
# --stats' busy cycles: none in a CPU-only program; in a GEMM at least
# cluster 0's sweeping cycles (its STATUS counter) and at most the job's
# (the firmware's mcycle: the clusters have work only inside the job)
check "--stats: no cluster busy in a CPU-only run" 0 "; 0 cycles with a cluster busy, 0 a second$" -- "$sim" --stats "$d/hello.elf"
gen --gemm-gen 16x64x16 --stats >"$tmp/stats.txt" 2>&1
expect "--stats: a GEMM's busy cycles between cluster 0's sweep and the job" awk '
  /^cycles: [0-9]+ in the job/ { job = $2 }
  / cycles with a cluster busy, / { for (i = 2; i <= NF; i++) if ($i == "cycles" && $(i + 1) == "with") busy = $(i - 1) }
  /^cluster 0: fill / { sweep = $6 + 0 }
  END { exit !(sweep > 0 && busy >= sweep && busy <= job) }' "$tmp/stats.txt"
# long runs: progress lines, a signal ends the run with the waveform kept
# (--progress 1 needs a run longer than a second of host time: a CPU-only
# program runs at some 300k cycles/s with the clusters' clocks gated)
check "--progress 1" 124 "progress: [0-9]+ cycles \([0-9]+/s\), [0-9]+ instructions retired" -- "$sim" --progress 1 --max-cycles 2000000 "$d/spin.elf"
check_no "--progress 0: none" 124 "no SIM_EXIT" "progress:" -- "$sim" --progress 0 --max-cycles 150000 "$d/spin.elf"
# fst_blocks FILE: the FST's block types in order, or "bad" if they do not
# tile the file (an FST left unclosed lacks its geometry and hierarchy)
fst_blocks() {
  local f=$1 pos=0 size t l out=""
  size=$(stat -c %s "$f")
  while [ "$pos" -lt "$size" ]; do
    t=$(od -An -tu1 -j "$pos" -N1 "$f" | tr -d ' ')
    l=$(od -An -tu8 --endian=big -j $((pos + 1)) -N8 "$f" | tr -d ' ')
    [ -n "$l" ] && [ "$l" -ge 8 ] || { echo bad; return; }
    out="$out $t"; pos=$((pos + 1 + l))
  done
  [ "$pos" -eq "$size" ] && echo "$out" || echo bad
}
# fst_times FILE: the header block's start and end times (ps)
fst_times() { od -An -tu8 --endian=big -j 9 -N16 "$1" | awk '{ print $1, $2 }'; }
"$sim" --trace "$tmp/int.fst" --max-cycles 100000000 "$d/spin.elf" >"$tmp/int.out" 2>&1 & pid=$!
for _ in $(seq 100); do [ -s "$tmp/int.fst" ] && break; sleep 0.1; done; sleep 1
kill -INT $pid; wait $pid; rc=$?
expect "SIGINT: status 130 (got $rc)" [ "$rc" -eq 130 ]
expect "SIGINT: named, with the cycle" grep -qE "stopped by SIGINT at cycle [0-9]+ .*waveform kept in" "$tmp/int.out"
blocks=$(fst_blocks "$tmp/int.fst")
expect "SIGINT: the FST is closed (header, hierarchy, geometry, changes: '$blocks')" \
  eval '[[ "$blocks" =~ ^\ 0\  ]] && [[ "$blocks" =~ \ (4|6|7)( |$) ]] && [[ "$blocks" =~ \ 3( |$) ]]'
"$sim" --trace "$tmp/term.fst" --max-cycles 100000000 "$d/spin.elf" >/dev/null 2>&1 & pid=$!
for _ in $(seq 100); do [ -s "$tmp/term.fst" ] && break; sleep 0.1; done
kill -TERM $pid; wait $pid; rc=$?
expect "SIGTERM: status 143 (got $rc)" [ "$rc" -eq 143 ]
# a window of the run: cycles 100..199 at 10 ns each, 5 ns per half period
check "--trace-from/--trace-to" 124 "" -- "$sim" --trace "$tmp/w.fst" --trace-from=100 --trace-to 199 --max-cycles 1000 "$d/spin.elf"
read -r t0 t1 < <(fst_times "$tmp/w.fst")
expect "trace window: 995 ns from first to last change (got ${t0:-?}..${t1:-?} ps)" [ $((t1 - t0)) -eq 995000 ]
"$sim" --trace "$tmp/d1.fst" --trace-depth 1 --max-cycles 1000 "$d/spin.elf" >/dev/null 2>&1
"$sim" --trace "$tmp/d99.fst" --max-cycles 1000 "$d/spin.elf" >/dev/null 2>&1
expect "--trace-depth 1 keeps less of the hierarchy" [ "$(stat -c %s "$tmp/d1.fst")" -lt "$(stat -c %s "$tmp/d99.fst")" ]
check "--trace-from without --trace" 125 "need --trace FILE" -- "$sim" --trace-from 5 "$d/hello.elf"
# --iss: the instruction-set model alone, the same platform contract
check "--iss: exit status passthrough" 42 "mailbox: 0x1234abcd" -- "$sim" --iss "$d/exit42.elf"
check "--iss: time-out" 124 "time-out: no SIM_EXIT within 1000 cycles" -- "$sim" --iss --max-cycles 1000 "$d/spin.elf"
check "--iss: uart echo" 0 "^HELLO, UART$" -- "$sim" --iss --uart-in "$tmp/in.txt" "$d/echo.elf"
check "--iss: sb to SIM_EXIT" 125 "SIM_EXIT: a 1-byte store \(sb, byte lanes 0x1\)" -- "$sim" --iss "$d/exit_sb.elf"
check "--iss: no GEMM" 125 "--iss runs a CPU-only program" -- "$sim" --iss --gemm-gen 4x32x4
check "--iss: 64 KiB of data in DRAM checked" 0 "blob ok" -- "$sim" --iss "$d/../boot/dram_blob.elf"
# lockstep on a GEMM: the model's DRAM loads read the DRAM the harness and
# the clusters wrote (the job block, here), not a copy only the loader fills
check "--lockstep on a GEMM" 0 "lockstep: [0-9]+ records checked, 0 mismatches" -- "$sim" --gemm-gen 32x64x32 --lockstep
# SIM_EXIT is a 32-bit store (SPEC §2): sb and sh are refused by name
check "sb to SIM_EXIT" 125 "SIM_EXIT: a 1-byte store \(sb, byte lanes 0x1\)" -- "$sim" --max-cycles 5000 "$d/exit_sb.elf"
check "sh to SIM_EXIT" 125 "SIM_EXIT: a 2-byte store \(sh, byte lanes 0x3\)" -- "$sim" --max-cycles 5000 "$d/exit_sh.elf"
# an ELF with nothing for local RAM, where the CPU starts
check "DRAM-only ELF warned" 124 "warning: .*dram_only.elf: no segment in local RAM" -- "$sim" --max-cycles 2000 "$d/dram_only.elf"
cd - >/dev/null
echo "ktpu-sim CLI: $ok of $n checks passed (DRAM load: $l64 cycles at latency 64)"
[ $ok -eq $n ]
