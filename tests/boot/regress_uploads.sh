#!/usr/bin/env bash
# usage: regress_uploads.sh BUILD [COUNT]
# The upload sweep (make regress): COUNT (100) programs of random size (1 to
# 4096 words of pseudo-random data in DRAM, tests/boot/rand_blob.S with a
# random seed), each framed by build/ktpu-upload and loaded by the
# bootloader in `ktpu-sim --boot`; every one must check all its words and
# exit 0. Every tenth goes through the real tool's send loop (--port on the
# pseudo-terminal ktpu-sim bridges to the UART), the rest from a file.
set -u
b=$(realpath "$1") n=${2:-100}
tmp=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
ok=0
RANDOM=11
for i in $(seq "$n"); do
  words=$(( (RANDOM % 4096) + 1 )) seed=$(( RANDOM * 32768 + RANDOM ))
  riscv64-unknown-elf-gcc -march=rv32im_zicsr -mabi=ilp32 -nostdlib -nostartfiles -I"$b/fw" -Itests/cpu \
    -Ttests/cpu/asm.ld -L"$b/fw" -Wl,--no-warn-rwx-segments -DWORDS=$words -DSEED=$seed \
    -o "$tmp/p.elf" tests/boot/rand_blob.S || { echo "upload $i: build failed"; continue; }
  if [ $((i % 10)) -eq 0 ]; then
    "$b/ktpu-sim" --boot --uart-pty "$tmp/pty" >"$tmp/out" 2>&1 & sim=$!
    for _ in $(seq 100); do [ -s "$tmp/pty" ] && break; sleep 0.1; done
    "$b/ktpu-upload" "$tmp/p.elf" --port "$(cat "$tmp/pty")" >"$tmp/up" 2>&1; up=$?
    wait $sim; rc=$?; rm -f "$tmp/pty"
    how="--port"
  else
    "$b/ktpu-upload" "$tmp/p.elf" -o "$tmp/p.img" >/dev/null 2>&1; up=$?
    "$b/ktpu-sim" --boot --uart-in "$tmp/p.img" >"$tmp/out" 2>&1; rc=$?
    how="-o"
  fi
  # over --port the bootloader's ACK bytes (0x06) are on the line, and so in
  # the run's transcript, just before the program's first output
  if [ $up -eq 0 ] && [ $rc -eq 0 ] && tr -d '\006' <"$tmp/out" | grep -q '^blob ok'; then ok=$((ok + 1))
  else echo "upload $i ($how, $words words, seed $seed): upload status $up, run status $rc: $(grep -m1 -E 'boot:|error' "$tmp/out")"; fi
done
echo "uploads: $ok of $n loaded and checked"
[ "$ok" -eq "$n" ]
