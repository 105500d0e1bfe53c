#!/usr/bin/env bash
# `make run`: the default job. An example GEMM (64 x 256 x 48, FP16 operands
# from a fixed seed) through the built-in GEMM firmware on the 2-cluster
# co-simulator, every C tile checked bit for bit against the C reference as
# it lands, then the report (SPEC §11), and a timeline of the run beside it
# (build/run/timeline.json: open it in ui.perfetto.dev; docs/soc.md). One
# script because a *_CMDS entry is a single command.
set -euo pipefail
dir=build/run
mkdir -p "$dir"
build/tools/ktpu-example gen "$dir" 64 256 48 1
build/ktpu-sim --gemm "$dir/A.npy" "$dir/BT.npy" -o "$dir/C.npy" --timeline "$dir/timeline.json"
