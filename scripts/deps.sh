#!/usr/bin/env bash
# Installs the Debian packages the project needs. A fast no-op when every tool
# is already present; needs root (or sudo) otherwise.
set -euo pipefail

need=()
have() { command -v "$1" >/dev/null 2>&1; }
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
