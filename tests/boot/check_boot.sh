#!/usr/bin/env bash
# usage: check_boot.sh BUILD DIR
# The boot contract (SPEC §9.1, docs/boot.md) through build/ktpu-sim --boot
# and build/ktpu-upload: programs loaded by the bootloader run to their exit
# status (RAM, and 64 KiB into DRAM); with no image the built-in firmware
# runs; every corrupt, truncated, oversized or misaddressed image is refused
# with its own "boot:" line, runs nothing and leaves the built-in firmware
# whole (it then runs a GEMM, every tile checked); the tool sends through a
# pseudo-terminal the simulator bridges to the UART, and names its errors.
# DIR holds dram_blob.elf and stage.elf (tests/boot/tests.mk).
set -u
b=$(realpath "$1") d=$(realpath "$2")
sim=$b/ktpu-sim up=$b/ktpu-upload
tmp=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../soc/check_lib.sh"
gemm=(--gemm-gen 16x32x16)   # what the built-in firmware runs after a refusal
builtin="GEMM passed: 1 tiles checked, 0 failed"

"$up" "$b/fw/hello.elf" -o "$tmp/hello.img" || echo "FAIL: ktpu-upload hello.elf -o"
"$up" "$b/tests/soc/exit42.elf" -o "$tmp/exit42.img" || echo "FAIL: ktpu-upload exit42.elf -o"
"$up" "$d/dram_blob.elf" -o "$tmp/blob.img" || echo "FAIL: ktpu-upload dram_blob.elf -o"

# ---- accepted ----
check_no "hello through the bootloader" 0 "^hello from the KohakuTPU sequencer" "boot:" -- \
  "$sim" --boot --uart-in "$tmp/hello.img"
check "exit status through the bootloader" 42 "^K" -- "$sim" --boot --uart-in "$tmp/exit42.img"
expect "64 KiB image" [ "$(stat -c %s "$tmp/blob.img")" -ge 65536 ]
check "64 KiB into DRAM, every word checked by the program" 0 "^blob ok" -- \
  "$sim" --boot --uart-in "$tmp/blob.img"
check_no "no image: the built-in firmware after the wait" 0 "$builtin" "boot:" -- "$sim" --boot "${gemm[@]}"

# ---- refused: one named line, nothing of the image runs, the built-in firmware does ----
refused() {   # refused DESCRIPTION IMAGE PATTERN
  check_no "$1" 0 "^boot: refused: $3.*; starting the built-in firmware\$.*" "hello from" -- \
    "$sim" --boot --uart-in "$2" "${gemm[@]}"
  check "$1: the built-in firmware runs whole" 0 "$builtin" -- "$sim" --boot --uart-in "$2" "${gemm[@]}"
}
flip() {   # flip IMAGE OFFSET OUT: the byte at OFFSET inverted
  cp "$1" "$3"
  local v; v=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
  printf "\\$(printf %03o $((255 - v)))" | dd of="$3" bs=1 seek="$2" conv=notrunc status=none
}
flip "$tmp/hello.img" 0 "$tmp/magic.img";   refused "bad magic" "$tmp/magic.img" "bad magic"
flip "$tmp/hello.img" 8 "$tmp/hdr.img";     refused "a header byte flipped" "$tmp/hdr.img" "header CRC mismatch"
flip "$tmp/hello.img" 25 "$tmp/hcrc.img";   refused "the header's CRC flipped" "$tmp/hcrc.img" "header CRC mismatch"
flip "$tmp/hello.img" 128 "$tmp/pay.img";   refused "a payload byte flipped" "$tmp/pay.img" "block CRC mismatch, block 0x00000000"
flip "$tmp/hello.img" $((28 + 256 + 256 + 4 + 2)) "$tmp/bcrc.img"
refused "a block's CRC flipped" "$tmp/bcrc.img" "block CRC mismatch, block 0x00000001"
"$up" "$b/fw/hello.elf" -o "$tmp/pcrc.img" --test-crc 12345
refused "the payload CRC wrong (header resealed)" "$tmp/pcrc.img" "payload CRC mismatch"
# 3000 bytes: the header, 11 blocks with their CRCs, 112 bytes of the 12th
head -c 3000 "$tmp/hello.img" >"$tmp/cut.img"
refused "truncated in the payload" "$tmp/cut.img" "truncated: payload bytes received 0x00000b70"
head -c 20 "$tmp/hello.img" >"$tmp/cuth.img"; refused "truncated in the header" "$tmp/cuth.img" "truncated header"
"$up" "$b/fw/hello.elf" -o "$tmp/big.img" --test-bytes 1048577
refused "oversized" "$tmp/big.img" "oversized"
"$up" "$b/fw/ktpu_boot.elf" -o "$tmp/over.img" --test-unchecked
refused "misaddressed: over the bootloader" "$tmp/over.img" "misaddressed: .* at 0x0001e000"
"$up" "$d/stage.elf" -o "$tmp/stage.img" --test-unchecked
refused "misaddressed: into the staging area" "$tmp/stage.img" "misaddressed: .* at 0x80f00000"

# ---- the tool's own refusals ----
check "tool: misaddressed ELF" 2 "segment 0 at 0x0001e000 .* is outside what an upload may load" -- \
  "$up" "$b/fw/ktpu_boot.elf" -o "$tmp/x.img"
check "tool: no program" 1 "no program given" -- "$up" -o "$tmp/x.img"
check "tool: -o and --port" 1 "give one of -o IMAGE and --port DEV" -- "$up" "$b/fw/hello.elf"
check "tool: not an ELF" 2 "not an ELF file" -- "$up" "$tmp/hello.img" -o "$tmp/x.img"
check "tool: bad baud" 1 "--baud 1234: not a speed" -- "$up" "$b/fw/hello.elf" --port /dev/null --baud 1234
check "tool: bad baud, the = form" 1 "--baud 1234: not a speed" -- "$up" "$b/fw/hello.elf" --port=/dev/null --baud=1234
check "tool: --version" 0 "^ktpu-upload [^ ]+$" -- "$up" --version
check "tool: no device" 5 "$tmp/none: No such file" -- "$up" "$b/fw/hello.elf" --port "$tmp/none"
check "tool: help" 0 "usage: ktpu-upload" -- "$up" --help

# ---- through a pseudo-terminal: the tool's own send loop ----
pty_run() {   # pty_run NAME SIM-ARGS... : ktpu-sim in the background on a new pty
  local name=$1; shift
  "$sim" "$@" --uart-pty "$tmp/$name.pty" >"$tmp/$name.out" 2>&1 &
  echo $! >"$tmp/$name.pid"
  for _ in $(seq 100); do [ -s "$tmp/$name.pty" ] && break; sleep 0.1; done
}
pty_wait() { wait "$(cat "$tmp/$1.pid")"; }   # its exit status
pty_run ok --boot
check "tool over a pty: hello acknowledged" 0 "payload bytes acknowledged" -- \
  timeout 120 "$up" "$b/fw/hello.elf" --port "$(head -n 1 "$tmp/ok.pty")"
pty_wait ok; rc=$?
expect "pty: the uploaded program ran to status 0 (got $rc)" [ "$rc" -eq 0 ]
expect "pty: the uploaded program's output" grep -q "hello from the KohakuTPU sequencer" "$tmp/ok.out"
pty_run no --boot "${gemm[@]}"
check "tool over a pty: refusal named" 3 "the bootloader refused the image: boot: refused: misaddressed" -- \
  timeout 120 "$up" "$b/fw/ktpu_boot.elf" --test-unchecked --port "$(head -n 1 "$tmp/no.pty")"
pty_wait no; rc=$?
expect "pty: after the refusal the built-in firmware ran (status $rc)" [ "$rc" -eq 0 ]
expect "pty: ... and its GEMM passed" grep -q "$builtin" "$tmp/no.out"
pty_run quiet --max-cycles 2000000 "$b/tests/soc/spin.elf"
check "tool over a pty: nobody answers" 4 "no acknowledgement of the header in 1 s" -- \
  "$up" "$b/fw/hello.elf" --timeout 1 --port "$(head -n 1 "$tmp/quiet.pty")"
kill "$(cat "$tmp/quiet.pid")" 2>/dev/null; wait "$(cat "$tmp/quiet.pid")" 2>/dev/null

echo "boot contract: $ok of $n checks passed"
[ "$ok" -eq "$n" ]
