#!/usr/bin/env bash
# Deliberately broken routers/meshes: each mutant is one textual change to a
# copy under build/noc_mutants/, and the 3x3 mesh stress must FAIL on it.
# Proves the stress checks can see each kind of bug. Run by `make regress`
# (tests/noc/tests.mk); exits non-zero if any mutant survives. Optional
# argument: run only mutants whose name contains it.
set -u
cd "$(dirname "$0")/../.."
out=build/noc_mutants
mkdir -p "$out"
# name | file | perl substitution (must change the file)
mutants=(
  "release_mid_packet|rtl/noc/ktpu_router.sv|s/mid_q   <= !flit\[HdrLast\];/mid_q   <= 1'b0;/"
  "no_hold_until_taken|rtl/noc/ktpu_router.sv|s/assign sel\[o\] = \(mid_q \|\| hold_q\)/assign sel[o] = (mid_q)/"
  "route_y_wrong_way|rtl/noc/ktpu_router.sv|s/else if \(dy > 4'\(Y\)\) want\[p\]\[PortS\]/else if (dy > 4'(Y)) want[p][PortN]/"
  "route_x_off_by_one|rtl/noc/ktpu_router.sv|s/if \(dx > 4'\(X\)\)      want/if (dx > 4'(X+1))    want/"
  "drop_when_ready_low|rtl/noc/ktpu_router.sv|s/assign take\[o\]               = out_ready_i\[o\] \? sel\[o\] : 5'b00000;/assign take[o] = sel[o];/"
  "fifo_overwrite_when_full|rtl/noc/ktpu_router.sv|s/assign in_ready_o\[p\] = \(cnt_q != \(PtrW\+1\)'\(FifoDepth\)\);/assign in_ready_o[p] = 1'b1;/"
  "arbiter_grants_two|rtl/noc/ktpu_router.sv|s/pick = 5'b00001 << \(\(r \+ k\) % 5\);/pick = pick | (5'b00001 << ((r + k) % 5));/"
  "arbiter_fixed_priority|rtl/noc/ktpu_router.sv|s/if \(ptr_q == 3'\(r\) && req/if (3'd0 == 3'(r) \&\& req/"
  "gate_ignores_arrivals|rtl/noc/ktpu_router.sv|s/\.en_i\(rst_i \|\| in_valid_i != '0 \|\| head_v != '0\)/.en_i(rst_i || head_v != '0)/"
  "gate_ignores_held_flits|rtl/noc/ktpu_router.sv|s/\.en_i\(rst_i \|\| in_valid_i != '0 \|\| head_v != '0\)/.en_i(rst_i || in_valid_i != '0)/"
  "mesh_wrong_neighbour|rtl/noc/ktpu_mesh.sv|s/assign r_in_flit\[Me\]\[PortN\*F \+: F\] = r_out_flit\[NN\]\[PortS\*F \+: F\];/assign r_in_flit[Me][PortN*F +: F] = r_out_flit[NN][PortE*F +: F];/"
)
survived=0
ran=0
for m in "${mutants[@]}"; do
  IFS='|' read -r name file sub <<<"$m"
  [ -n "${1:-}" ] && [[ $name != *$1* ]] && continue
  d=$out/$name; mkdir -p "$d"
  cp rtl/noc/ktpu_router.sv rtl/noc/ktpu_mesh.sv "$d/"
  perl -pi -e "$sub" "$d/$(basename "$file")"
  if cmp -s "$file" "$d/$(basename "$file")"; then
    echo "mutant $name: substitution did not apply (update this script)"; survived=1; continue
  fi
  ran=$((ran + 1))
  if ! verilator --cc --exe --build -j 2 -Wno-fatal -Wno-lint --x-assign unique --x-initial unique -O1 \
       --assert -CFLAGS "-O1 -std=c++17 -DMESH_W=3 -DMESH_H=3 -I$PWD/sim/ref -I$PWD/build/gen -I$PWD/tests/common" -Ibuild/gen build/gen/ktpu_pkg.sv \
       -GWidth=3 -GHeight=3 --top-module ktpu_mesh --Mdir "$d/obj" -o Vktpu_mesh \
       rtl/prim/ktpu_clk_gate.sv "$d/ktpu_router.sv" "$d/ktpu_mesh.sv" "$PWD/tests/noc/mesh_stress.cpp" >"$d/build.log" 2>&1; then
    echo "mutant $name: build failed (see $d/build.log)"; survived=1; continue
  fi
  if "$d/obj/Vktpu_mesh" --cycles 30000 --seed 5 >"$d/run.log" 2>&1; then
    echo "mutant $name: SURVIVED (stress passed on a broken design)"; survived=1
  else
    echo "mutant $name: caught -- $(grep -m1 -E 'FAIL|Assertion|Error|error' "$d/run.log" | cut -c1-110)"
  fi
done
# The EMPTY-node bench must count every stray.
for name in stray_empty_uncounted; do
  [ -n "${1:-}" ] && [[ $name != *$1* ]] && continue
  d=$out/$name; mkdir -p "$d"
  cp rtl/noc/ktpu_router.sv rtl/noc/ktpu_mesh.sv "$d/"
  perl -pi -e 's/assign stray\[Me\] = r_out_valid\[Me\] & \{Empty,/assign stray[Me] = r_out_valid[Me] & {1\x27b0,/' "$d/ktpu_mesh.sv"
  if cmp -s rtl/noc/ktpu_mesh.sv "$d/ktpu_mesh.sv"; then
    echo "mutant $name: substitution did not apply (update this script)"; survived=1; continue
  fi
  ran=$((ran + 1))
  if ! verilator --cc --exe --build -j 2 -Wno-fatal -Wno-lint -O1 --assert \
       -CFLAGS "-O1 -std=c++17 -DMESH_W=3 -DMESH_H=2 -DEMPTY_NODE=4 -I$PWD/sim/ref -I$PWD/build/gen -I$PWD/tests/common" -Ibuild/gen build/gen/ktpu_pkg.sv \
       -GWidth=3 -GHeight=2 -GEmptyNode=4 --top-module mesh_empty_top --Mdir "$d/obj" -o Vmesh_empty_top \
       rtl/prim/ktpu_clk_gate.sv "$d/ktpu_router.sv" "$d/ktpu_mesh.sv" tests/noc/mesh_empty_top.sv "$PWD/tests/noc/mesh_stress.cpp" \
       >"$d/build.log" 2>&1; then
    echo "mutant $name: build failed (see $d/build.log)"; survived=1; continue
  fi
  if "$d/obj/Vmesh_empty_top" --cycles 30000 --seed 4 >"$d/run.log" 2>&1; then
    echo "mutant $name: SURVIVED (stray count passed on a broken mesh)"; survived=1
  else
    echo "mutant $name: caught -- $(grep -m1 'FAIL' "$d/run.log" | cut -c1-110)"
  fi
done

# The two-plane system bench (noc_agent) must also see a broken router and a
# broken agent.
sys_mutants=(
  "sys_release_mid_packet|rtl/noc/ktpu_router.sv|s/mid_q   <= !flit\[HdrLast\];/mid_q   <= 1'b0;/"
  "sys_agent_tag_lane_lost|rtl/mem/ktpu_mem_agent.sv|s/\{m_entry, 5'd0, 1'b0, m_lane, rf_head/{m_entry, 5'd0, 1'b0, 2'd0, rf_head/"
)
for m in "${sys_mutants[@]}"; do
  IFS='|' read -r name file sub <<<"$m"
  [ -n "${1:-}" ] && [[ $name != *$1* ]] && continue
  d=$out/$name; mkdir -p "$d"
  cp "$file" "$d/"
  perl -pi -e "$sub" "$d/$(basename "$file")"
  if cmp -s "$file" "$d/$(basename "$file")"; then
    echo "mutant $name: substitution did not apply (update this script)"; survived=1; continue
  fi
  ran=$((ran + 1))
  if ! verilator --cc --exe --build -j 2 -Wno-fatal -Wno-lint --x-assign unique --x-initial unique -O1 \
       --assert -CFLAGS "-O1 -std=c++17 -I$PWD/sim/ref -I$PWD/build/gen -I$PWD/tests/common" -Ibuild/gen build/gen/ktpu_pkg.sv \
       --top-module noc_agent_top --Mdir "$d/obj" -o Vnoc_agent_top \
       $(make -s --no-print-directory rtl-srcs BLOCKS="mesh mem_agent dram" RTL_PATCH="$file=$d/$(basename "$file")") \
       tests/noc/noc_agent_top.sv \
       "$PWD/tests/noc/noc_agent_tb.cpp" "$PWD/build/host/libktpuref.a" >"$d/build.log" 2>&1; then
    echo "mutant $name: build failed (see $d/build.log)"; survived=1; continue
  fi
  if "$d/obj/Vnoc_agent_top" --cycles 30000 --seed 5 >"$d/run.log" 2>&1; then
    echo "mutant $name: SURVIVED (system bench passed on a broken design)"; survived=1
  else
    echo "mutant $name: caught -- $(grep -m1 -E 'FAIL|Assertion|Error|error' "$d/run.log" | cut -c1-110)"
  fi
done
[ $survived -eq 0 ] && echo "noc mutants: all $ran caught"
[ $survived -eq 0 ]
