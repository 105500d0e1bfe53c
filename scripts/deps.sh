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
  # the models' C++ through a cache (the Makefile: one build of Verilator's runtime, not 26)
  have ccache                   || need+=(ccache)
  [ -f /usr/lib/picolibc/riscv64-unknown-elf/picolibc.specs ] \
    || [ -f "$(riscv64-unknown-elf-gcc -print-file-name=picolibc.specs 2>/dev/null)" ] \
    || need+=(picolibc-riscv64-unknown-elf)
  # zlib is what Verilator's FST writer links against.
  [ -f /usr/include/zlib.h ]    || need+=(zlib1g-dev)
  # make bench plots its CSV (tests/soc/bench_gemm.sh).
  have gnuplot                  || need+=(gnuplot-nox)
  # the FPGA flow's Tcl runs under tclsh against stub Vivado commands (tests/fpga).
  have tclsh                    || need+=(tcl)
  # make test PARALLEL=... hands the tests to GNU parallel (scripts/run_tests.sh; its test runs both ways).
  have parallel                 || need+=(parallel)
  # docs/numpy.md's walk-through runs under Debian's python3 (tests/soc/check_numpy_doc.sh).
  /usr/bin/python3 -c 'import numpy' 2>/dev/null || need+=(python3-numpy)
  # the debugger test drives ktpu-sim --gdb with it (tests/cpu/check_gdb.sh).
  have gdb-multiarch            || need+=(gdb-multiarch)
fi

# The oldest versions the project is built and tested with: one line when a
# tool here is older (the build still runs; expect differences).
check_versions() {
  [ "${1:-}" = fuzz ] && return 0
  local v
  v=$(verilator --version 2>/dev/null | awk '{print $2}')
  [ -n "$v" ] && [ "$(printf '%s\n' 5.006 "$v" | sort -V | head -n1)" != 5.006 ] &&
    echo "deps: warning: Verilator $v is older than 5.006, the version this project is tested with" >&2
  v=$(yosys -V 2>/dev/null | awk '{print $2}')
  [ -n "$v" ] && [ "$(printf '%s\n' 0.23 "$v" | sort -V | head -n1)" != 0.23 ] &&
    echo "deps: warning: Yosys $v is older than 0.23, the version this project is tested with" >&2
  return 0
}

[ ${#need[@]} -eq 0 ] && { check_versions "${1:-}"; exit 0; }

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
check_versions "${1:-}"
