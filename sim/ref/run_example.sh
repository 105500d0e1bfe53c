#!/usr/bin/env bash
# `make run` until the co-simulator takes it over: a fixed-seed example GEMM
# through the reference (build/ktpu-ref), reported against FP64.
# One script because a *_CMDS entry must be a single word (the top Makefile
# splits the list on blanks).
set -euo pipefail
dir=build/run
mkdir -p "$dir"
build/tools/ktpu-example gen "$dir" 64 256 48 1
build/ktpu-ref gemm "$dir/A.npy" "$dir/BT.npy" "$dir/C.npy"
build/tools/ktpu-example report "$dir/A.npy" "$dir/BT.npy" "$dir/C.npy"
