#!/usr/bin/env bash
# usage: check_cli.sh KTPU_SIM DIR
# build/ktpu-sim's contract (SPEC §2): exit status passthrough, time-out,
# options, and a named one-line error with status 125 for every bad input.
# DIR holds spin.elf exit42.elf dram_latency.elf echo.elf far.elf hello.elf.
set -u
sim=$1 d=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/check_lib.sh"
check "help" 0 "--max-cycles" -- "$sim" --help
check "no program" 125 "error: no program" -- "$sim"
check "unknown option" 125 "unknown option --frobnicate" -- "$sim" --frobnicate "$d/hello.elf"
check "gemm operand missing" 125 "error: a.npy: cannot open" -- "$sim" --gemm a.npy b.npy -o c.npy
check "bad number" 125 "bad number for option: --max-cycles" -- "$sim" --max-cycles 12x "$d/hello.elf"
check "zero cycles" 125 "at least 1" -- "$sim" --max-cycles 0 "$d/hello.elf"
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
check "trace" 0 "" -- "$sim" --trace "$tmp/t.fst" --max-cycles 2000 "$d/hello.elf"
n=$((n + 1)); if [ -s "$tmp/t.fst" ]; then ok=$((ok + 1)); else echo "FAIL: no FST written"; fi
check "trace unwritable" 125 "cannot open trace file" -- "$sim" --trace "$tmp/no/dir/t.fst" "$d/hello.elf"
# DRAM latency: one load takes latency + 2 cycles (issue, then W); the
# difference between two latencies is exact.
"$sim" "$d/dram_latency.elf" >/dev/null 2>&1; l64=$?
"$sim" --dram-latency 10 "$d/dram_latency.elf" >/dev/null 2>&1; l10=$?
n=$((n + 1)); if [ $((l64 - l10)) -eq 54 ] && [ "$l64" -ge 64 ]; then ok=$((ok + 1));
else echo "FAIL: DRAM load took $l64 cycles at the default latency, $l10 at 10"; fi
check "bad latency" 125 "must be 1..100000" -- "$sim" --dram-latency 0 "$d/hello.elf"
echo "ktpu-sim CLI: $ok of $n checks passed (DRAM load: $l64 cycles at latency 64)"
[ $ok -eq $n ]
