#!/usr/bin/env bash
# Long mesh runs for `make regress`: 4x4 for 1M cycles (every node injecting
# under random back-pressure; no flit lost, duplicated or reordered), more 3x3 seeds,
# then the deliberately broken routers (tests/noc/mutants.tsv).
set -eu
cd "$(dirname "$0")/../.."
vl=${VL_DIR:-build/vl}
"$vl/noc_mesh4x4/Vktpu_mesh" --cycles 1000000 --seed 3
for s in 11 12 13 14; do "$vl/noc_mesh3x3/Vktpu_mesh" --cycles 200000 --seed "$s"; done
scripts/mutants.sh noc
