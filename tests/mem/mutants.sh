#!/usr/bin/env bash
# Deliberately broken quantiser / memory agent / AXI4 bridge, port and slave / DRAM model gate: each mutant is one textual
# change to a copy under build/mem_mutants/, and its bench must FAIL on it.
# Optional argument: run only mutants whose name contains it.
# Run by `make regress` (tests/mem/tests.mk); non-zero if any mutant survives.
set -u
cd "$(dirname "$0")/../.."
out=build/mem_mutants
mkdir -p "$out"
REF_LIB=$PWD/build/host/libktpuref.a
# name | file | perl substitution (must change the file)
mutants=(
  "quant_ties_away|rtl/mem/ktpu_quant.sv|s/rb && \(sticky \|\| ax\[t9_q\]\)/rb/"
  "quant_flush_subnormals|rtl/mem/ktpu_quant.sv|s/sig  = \{\(x\[14:10\] != 5'd0\), x\[9:0\]\};/sig  = (x[14:10] != 5'd0) ? {1'b1, x[9:0]} : 11'd0;/"
  "quant_scale_threshold|rtl/mem/ktpu_quant.sv|s/gt\[k\] = psig > 11'\(126 \* k\);/gt[k] = psig >= 11'(126 * k);/"
  "quant_scale_thermometer|rtl/mem/ktpu_quant.sv|s/\(gt\[9\] && !gt\[11\]\) \|\| gt\[13\]/gt[9] || gt[13]/"
  "quant_divider_stage_skew|rtl/mem/ktpu_quant.sv|s/sig8_q\[1:0\], scale_q\[8\]\[2:0\]/sig8_q[1:0], scale_q[7][2:0]/"
  "quant_ignore_nonfinite|rtl/mem/ktpu_quant.sv|s/\(z10_q \|\| nf_q\[10\]\)/(z10_q)/"
  "quant_zero_block_scale|rtl/mem/ktpu_quant.sv|s/\(nf_q\[4\] \|\| peak4_q == 15'd0\)/(nf_q[4])/"
  "quant_sticky_no_remainder|rtl/mem/ktpu_quant.sv|s/sticky = \(r9_q != 5'd0\) \|\| /sticky = /"
  "quant_stall_drops|rtl/mem/ktpu_quant.sv|s/assign adv     = !v_q\[NSt\] \|\| ready_i;/assign adv     = 1'b1;/"
  "quant_peak_tree_half|rtl/mem/ktpu_quant.sv|s/peak3 = max15\(lvl4_q\[0\], lvl4_q\[1\]\);/peak3 = lvl4_q[0];/"
  "quant_divider_compare|rtl/mem/ktpu_quant.sv|s/rem\[2:0\] >= m\)/rem[2:0] > m)/"
  "agent_tag_lane_lost|rtl/mem/ktpu_mem_agent.sv|s/\{m_entry, 5'd0, 1'b0, m_lane, rf_head/{m_entry, 5'd0, 1'b0, 2'd0, rf_head/"
  "agent_window_refuses_exact_fit|rtl/mem/ktpu_mem_check.sv|s/\(hi1 > win_hi\)/(hi1 >= win_hi)/"
  "agent_window_addr_last_byte|rtl/mem/ktpu_mem_check.sv|s/\(\(lo1 > win_hi\) \? lo1\[31:0\] : win_hi\[31:0\]\)/32'(hi1 - 34'd1)/"
  "agent_window_ignores_base|rtl/mem/ktpu_mem_check.sv|s/out1 = \(lo1 < win_lo\) \|\| /out1 = /"
  "agent_mask_ignored|rtl/mem/ktpu_mem_agent.sv|s/fe_wr_strb  = shift_up_strb\(m_in, off\);/fe_wr_strb  = 32'hFFFF_FFFF;/"
  "agent_straddle_beat_dropped|rtl/mem/ktpu_mem_agent.sv|s/b2_v_q    <= 1'b1;/b2_v_q    <= 1'b0;/"
  "agent_no_read_credit|rtl/mem/ktpu_mem_agent.sv|s/assign is_rd_valid = any_act && \(credit_q != '0\);/assign is_rd_valid = any_act;/"
  "agent_job_no_barrier|rtl/mem/ktpu_mem_agent.sv|s/have_free && !job_busy_q;/have_free;/"
  "agent_write_overtakes_reads|rtl/mem/ktpu_mem_agent.sv|s/FWWait: if \(wr_clear\) fs_q <= FWData;/FWWait: fs_q <= FWData;/"
  "agent_write_overtakes_queued_reads|rtl/mem/ktpu_mem_agent.sv|s/\(iq_empty \|\| !\(iqr_lo_q < wr_hi_q && wr_lo_q < iqr_hi_q\)\)/1'b1/"
  "agent_write_overtakes_queued_job|rtl/mem/ktpu_mem_agent.sv|s/wr_clear = !job_busy_q && !iq_job_q && /wr_clear = !job_busy_q \&\& /"
  "agent_queued_bound_not_widened|rtl/mem/ktpu_mem_agent.sv|s/if \(iq_empty \|\| hi1 > iqr_hi_q\) iqr_hi_q <= hi1;/if (iq_empty) iqr_hi_q <= hi1;/"
  "agent_write_overtakes_streams|rtl/mem/ktpu_mem_agent.sv|s/if \(st_act\[s\] && st_lo_q\[s\] < wr_hi_q && wr_lo_q < st_hi_q\[s\]\) wr_clear/if (1'b0) wr_clear/"
  "agent_nonfinite_tag_dropped|rtl/mem/ktpu_mem_agent.sv|s/\{qo_entry, 5'd0, qo_nf, qo_lane/{qo_entry, 5'd0, 1'b0, qo_lane/"
  "agent_write_ack_before_data|rtl/mem/ktpu_mem_agent.sv|s/assign aq_push = \(fs_q == FWAck\) && !aq_full;/assign aq_push = (fs_q == FWWait) \&\& wr_clear \&\& !aq_full;/"
  "agent_output_no_hold|rtl/mem/ktpu_mem_agent.sv|s/assign load_out = !out_v_q \|\| rsp_ready_i;/assign load_out = 1'b1;/"
  "agent_iter_entry_count|rtl/mem/ktpu_mem_iter.sv|s/entry_q   <= entry_q \+ mid_de_q;/entry_q   <= entry_q + 16'd1;/"
  "agent_iter_row_major_reads|rtl/mem/ktpu_mem_iter.sv|s/<= (four_lanes_i|four_q) \? /<= 1'b0 ? /g"
  "agent_stream_txn_of_stream0|rtl/mem/ktpu_mem_agent.sv|s/st_dy_q\[sel\], st_txn_q\[sel\],/st_dy_q[sel], st_txn_q[0],/"
  "agent_stream_loads_busy_slot|rtl/mem/ktpu_mem_agent.sv|s/if \(!st_act\[s\]\) begin have_free = 1'b1;/begin have_free = 1'b1;/"
  "agent_job_window_dst_unchecked|rtl/mem/ktpu_mem_check.sv|s/out2 = \(cur_ty == TyQj\) &&/out2 = 1'b0 &&/"
  "agent_2d_column_step_ignored|rtl/mem/ktpu_mem_agent.sv|s/assign wr_next  = \(wr_2d && wr_r_q == wr_rows - 8'd1\) \? wr_col_q \+ w4 : wr_addr_q \+ w1;/assign wr_next  = wr_addr_q + w1;/"
  "agent_2d_extent_rows_only|rtl/mem/ktpu_mem_check.sv|s/\(\(cur_ty == TyWr && wr_2d\) \? 34'\(ext2_q\) : 34'd0\)/34'd0/"
  "agent_extent_ignores_mask|rtl/mem/ktpu_mem_check.sv|s/mask_hi = mask_hi \| 5'\(b\);/mask_hi = 5'd31;/"
  "agent_extent_ignores_mask_lo|rtl/mem/ktpu_mem_check.sv|s/mask_lo = mask_lo \| 5'\(b\);/mask_lo = 5'd0;/"
  "agent_check_skips_sum|rtl/mem/ktpu_mem_agent.sv|s/FAdd1: fs_q <= FAdd2;/FAdd1: fs_q <= FDecide;/"
  "agent_extent_wraps|rtl/mem/ktpu_mem_check.sv|s/sat32 = \(p\[49:32\] != 18'd0\) \? 32'hFFFF_FFFF : p\[31:0\];/sat32 = p[31:0];/"
  "agent_2d_shape_unchecked|rtl/mem/ktpu_mem_check.sv|s/\(wr_2d && total_q != 32'\(wr_count\)\)/1'b0/"
  "agent_gate_misses_front_end|rtl/mem/ktpu_mem_agent.sv|s/assign asleep = fs_q == FIdle && /assign asleep = /"
  "agent_gate_misses_request_queue|rtl/mem/ktpu_mem_agent.sv|s/ && iq_count == '0 && / \&\& /"
  "agent_gate_misses_read_names|rtl/mem/ktpu_mem_agent.sv|s/ && mf_count == '0 && / \&\& /"
  "agent_gate_misses_ack_queue|rtl/mem/ktpu_mem_agent.sv|s/ && aq_count == '0 && / \&\& /"
  "agent_gate_misses_streams|rtl/mem/ktpu_mem_agent.sv|s/mf_count == '0 && !any_act &&/mf_count == '0 \&\&/"
  "agent_gate_misses_job|rtl/mem/ktpu_mem_agent.sv|s/!job_busy_q && !job_q && //"
  "agent_gate_misses_quantiser|rtl/mem/ktpu_mem_agent.sv|s/!q_busy && //"
  "agent_gate_misses_flits_out|rtl/mem/ktpu_mem_agent.sv|s/ && src_v == '0 && !out_v_q;/;/"
  "agent_gate_misses_requests_in|rtl/mem/ktpu_mem_agent.sv|s/rst_i \|\| req_valid_i \|\| /rst_i || /"
  "agent_gate_never_closes|rtl/mem/ktpu_mem_agent.sv|s/\.en_i\(rst_i \|\| req_valid_i/.en_i(1'b1 || req_valid_i/"
  "agent_qgate_misses_input|rtl/mem/ktpu_mem_agent.sv|s/\.en_i\(rst_i \|\| qi_valid \|\| q_busy\)/.en_i(rst_i || q_busy)/"
  "agent_qgate_misses_pipe|rtl/mem/ktpu_mem_agent.sv|s/\.en_i\(rst_i \|\| qi_valid \|\| q_busy\)/.en_i(rst_i || qi_valid)/"
  "axi_read_passes_write|rtl/mem/ktpu_axi_bridge.sv|s/assign hazard = head.w \? r_any_hit : w_any_hit;/assign hazard = head.w ? r_any_hit : 1'b0;/"
  "axi_write_passes_read|rtl/mem/ktpu_axi_bridge.sv|s/assign hazard = head.w \? r_any_hit : w_any_hit;/assign hazard = head.w ? 1'b0 : w_any_hit;/"
  "axi_page_counted_down_wrong|rtl/mem/ktpu_axi_bridge.sv|s/FW'\(r_end && rs_head == SW'\(i\)\)/FW'(r_end \&\& SW'(0) == SW'(i))/"
  "axi_burst_crosses_page|rtl/mem/ktpu_axi_bridge.sv|s/ && req_beat\[6:0\] != 7'd0;/;/"
  "axi_wlast_early|rtl/mem/ktpu_axi_bridge.sv|s/assign wlast_o  = w_beat_q == wl_q\[wl_head_q\];/assign wlast_o  = w_beat_q + LB'(1) == wl_q[wl_head_q];/"
  "axi_ack_before_b|rtl/mem/ktpu_axi_bridge.sv|s/\(ord_w \? b_owed_q != '0 : !rd_empty\)/(ord_w ? 1'b1 : !rd_empty)/"
  "axi_slave_rlast_first|rtl/mem/ktpu_dram_axi.sv|s/assign rlast_o  = rsp_tag_i\[6\];/assign rlast_o  = rsp_tag_i[6] || rb_left_q == arlen_i;/"
  "axi_slave_b_per_beat|rtl/mem/ktpu_dram_axi.sv|s/assign bvalid_o = rsp_valid_i\[1\] && b_last && /assign bvalid_o = rsp_valid_i[1] \&\& /"
  "axi_port_gate_misses_requests|rtl/mem/ktpu_axi_dram_port.sv|s/\.en_i\(rst_i \|\| req_valid_i \|\| /.en_i(rst_i || /"
  "axi_port_gate_misses_busy|rtl/mem/ktpu_axi_dram_port.sv|s/ \|\| !idle\)/)/"
  "axi_port_gate_never_closes|rtl/mem/ktpu_axi_dram_port.sv|s/\.en_i\(rst_i \|\| /.en_i(1'b1 || /"
  "axi_dram_gate_misses_in_flight|rtl/mem/ktpu_dram.sv|s/\.en_i\(rst_i \|\| \|req_valid_i \|\| in_flight\)/.en_i(rst_i || |req_valid_i)/"
)
run_quant() {  # dir
  verilator --cc --exe --build -j 2 -Wno-fatal -Wno-lint --x-assign unique --x-initial unique -O1 \
    --assert -CFLAGS "-O1 -std=c++17 -I$PWD/sim/ref -I$PWD/build/gen -I$PWD/tests/common" -Ibuild/gen build/gen/ktpu_pkg.sv \
    --top-module ktpu_quant --Mdir "$1/obj" -o Vktpu_quant "$1/ktpu_quant.sv" \
    "$PWD/tests/mem/quant_tb.cpp" "$REF_LIB" >"$1/build.log" 2>&1 || return 2
  "$1/obj/Vktpu_quant" --random 3000 --seed 9 >"$1/run.log" 2>&1
}
run_axi() {  # dir
  verilator --cc --exe --build -j 2 -Wno-fatal -Wno-lint --x-assign unique --x-initial unique -O1 \
    --assert -CFLAGS "-O1 -std=c++17 -I$PWD/sim/ref -I$PWD/build/gen -I$PWD/tests/common" -Ibuild/gen build/gen/ktpu_pkg.sv \
    --top-module axi_top --Mdir "$1/obj" -o Vaxi_top \
    $(make -s --no-print-directory rtl-srcs BLOCKS="axi_port dram" \
        RTL_PATCH="rtl/mem/ktpu_axi_bridge.sv=$1/ktpu_axi_bridge.sv rtl/mem/ktpu_dram_axi.sv=$1/ktpu_dram_axi.sv rtl/mem/ktpu_axi_dram_port.sv=$1/ktpu_axi_dram_port.sv rtl/mem/ktpu_dram.sv=$1/ktpu_dram.sv") \
    tests/mem/axi_top.sv "$PWD/tests/mem/axi_tb.cpp" >"$1/build.log" 2>&1 || return 2
  "$1/obj/Vaxi_top" --seed 9 >"$1/run.log" 2>&1 || return 1
  "$1/obj/Vaxi_top" --seed 10 +ktpu_dram_latency=1 >>"$1/run.log" 2>&1
}
run_agent() {  # dir
  verilator --cc --exe --build -j 2 -Wno-fatal -Wno-lint --x-assign unique --x-initial unique -O1 \
    --assert -CFLAGS "-O1 -std=c++17 -I$PWD/sim/ref -I$PWD/build/gen -I$PWD/tests/common" -Ibuild/gen build/gen/ktpu_pkg.sv \
    --top-module mem_agent_top --Mdir "$1/obj" -o Vmem_agent_top \
    $(make -s --no-print-directory rtl-srcs BLOCKS="mem_agent dram" \
        RTL_PATCH="rtl/mem/ktpu_quant.sv=$1/ktpu_quant.sv rtl/mem/ktpu_mem_iter.sv=$1/ktpu_mem_iter.sv rtl/mem/ktpu_mem_check.sv=$1/ktpu_mem_check.sv rtl/mem/ktpu_mem_agent.sv=$1/ktpu_mem_agent.sv") \
    tests/mem/mem_agent_top.sv "$PWD/tests/mem/mem_agent_tb.cpp" "$REF_LIB" >"$1/build.log" 2>&1 || return 2
  "$1/obj/Vmem_agent_top" --seed 9 >"$1/run.log" 2>&1 || return 1
  "$1/obj/Vmem_agent_top" --seed 10 +ktpu_dram_latency=1 >>"$1/run.log" 2>&1
}
survived=0
ran=0
for m in "${mutants[@]}"; do
  IFS='|' read -r name file sub <<<"$m"
  [ -n "${1:-}" ] && [[ $name != *$1* ]] && continue
  d=$out/$name; mkdir -p "$d"
  cp rtl/mem/*.sv "$d/"
  perl -pi -e "$sub" "$d/$(basename "$file")"
  if cmp -s "$file" "$d/$(basename "$file")"; then
    echo "mutant $name: substitution did not apply (update this script)"; survived=1; continue
  fi
  ran=$((ran + 1))
  case $name in quant_*) run_quant "$d" ;; axi_*) run_axi "$d" ;; *) run_agent "$d" ;; esac
  rc=$?
  if [ $rc -eq 2 ]; then echo "mutant $name: build failed (see $d/build.log)"; survived=1
  elif [ $rc -eq 0 ]; then echo "mutant $name: SURVIVED (bench passed on a broken design)"; survived=1
  else echo "mutant $name: caught -- $(grep -m1 -E 'FAIL|Assertion|Error|fatal|%F' "$d/run.log" | cut -c1-110)"
  fi
done
[ $survived -eq 0 ] && echo "mem mutants: all $ran caught"
[ $survived -eq 0 ]
