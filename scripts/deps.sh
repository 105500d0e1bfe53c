#!/usr/bin/env bash
# Installs the Debian packages the project needs. A fast no-op when every tool
# is already present; needs root (or sudo) otherwise.
# `deps.sh fuzz` (make fuzz) checks only what the fuzz harnesses need: the
# host compiler and clang with libFuzzer's runtime; nothing else needs clang.
set -euo pipefail

need=()
have() { command -v "$1" >/dev/null 2>&1; }
if [ "${1:-}" = fuzz ]; then
  have gcc                    || need+=(gcc)
  have make                   || need+=(make)
  have clang                  || need+=(clang)
  # -fsanitize=fuzzer links libclang_rt.fuzzer, which clang alone lacks;
  # clang prints the bare name back when it cannot find the file.
  rt=libclang_rt.fuzzer-$(uname -m).a
  have clang && [ "$(clang -print-file-name="$rt")" != "$rt" ] || need+=(libclang-rt-dev)
else
  have verilator                || need+=(verilator)
  have yosys                    || need+=(yosys)
  have riscv64-unknown-elf-gcc  || need+=(gcc-riscv64-unknown-elf)
  have g++                      || need+=(g++)
  have make                     || need+=(make)
  [ -f /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs ] \
    || [ -f "$(riscv64-unknown-elf-gcc -print-file-name=picolibc.specs 2>/dev/null)" ] \
    || need+=(picolibc-riscv64-unknown-elf)
  # zlib is what Verilator's FST writer links against.
  [ -f /usr/include/zlib.h ]    || need+=(zlib1g-dev)
  # make bench plots its CSV (tests/soc/bench_gemm.sh).
  have gnuplot                  || need+=(gnuplot-nox)
fi

[ ${#need[@]} -eq 0 ] && exit 0

echo "deps: installing ${need[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if have sudo; then SUDO=sudo; else
    echo "deps: error: missing packages (${need[*]}) and not root; install them and rerun" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
