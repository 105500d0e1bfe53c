#!/usr/bin/env bash
# Fill rate through the memory agent at DRAM latency 64: cycles per L1 entry
# for a 256-entry fill, MX storage and FP16 (quantised on the way).
# Writes build/bench/mem_fill.csv.
set -eu
cd "$(dirname "$0")/../.."
mkdir -p build/bench
"${VL_DIR:-build/vl}/mem_agent/Vmem_agent_top" --seed 1 --csv build/bench/mem_fill.csv | grep '^fill'
