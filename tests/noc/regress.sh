#!/usr/bin/env bash
# Long mesh runs for `make regress`: 4x4 for 300k cycles, more 3x3 seeds,
# then the deliberately broken routers (tests/noc/mutants.sh).
set -eu
cd "$(dirname "$0")/../.."
vl=${VL_DIR:-build/vl}
"$vl/noc_mesh4x4/Vktpu_mesh" --cycles 300000 --seed 3
for s in 11 12 13 14; do "$vl/noc_mesh3x3/Vktpu_mesh" --cycles 200000 --seed "$s"; done
tests/noc/mutants.sh
