#!/usr/bin/env bash
# Deliberately broken cluster nodes: each mutant is one textual change to a
# copy of rtl/node under build/node_mutants/, and the node bench must FAIL on
# it (a mismatch, a wrong completion, a time-out or an RTL assertion).
# Optional argument: run only mutants whose name contains it.
# Run by `make regress` (tests/node/tests.mk); non-zero if any mutant survives.
set -u
cd "$(dirname "$0")/../.."
out=build/node_mutants
mkdir -p "$out"
REF_LIB=$PWD/build/host/libktpuref.a
# NODE_MUT_ROOT=DIR takes every source outside rtl/node from DIR (e.g. a
# `git archive HEAD` copy), so work in progress elsewhere cannot decide a mutant.
R=${NODE_MUT_ROOT:-.}
# name[@p2] | file | perl -0 substitution (must change the file); @p2: on the
# 4-cluster bench with two memory agents (node4p2 in tests/node/tests.mk)
mutants=(
  "baseline|ktpu_node.sv|s/^//"
  "kloop_innermost|ktpu_node_seq.sv|s/if \(!last_h\) begin\n(.*?)end else if \(pass2_q\) begin/if (!last_kb) begin\n          kb_q <= kb_q + 16'd1;\n          arow_q <= arow_q + L1W'(1);\n          brow_q <= brow_q + L1W'(1);\n        end else if (!last_h) begin\n          kb_q <= '0;\n          h_q <= h_q + 16'd1;\n          arow_q <= arow_q - L1W'(nk_q - 16'd1);\n          brow_q <= brow_q + L1W'(1);\n          tile_q <= tile_q + TW'(1);\n        end else if (!last_g) begin\n          kb_q <= '0;\n          h_q <= '0;\n          g_q <= g_q + 16'd1;\n          arow_q <= arow_q + L1W'(1);\n          brow_q <= boff_q;\n          tile_q <= tile_q + TW'(1);\n        end else if (pass2_q) begin/s"
  "acc_bit_ignored|ktpu_node_seq.sv|s/if \(kb_q == 16'd0 && !acc_q\)/if (kb_q == 16'd0)/"
  "drain_mask_one_byte_more|ktpu_node_drain.sv|s/\(\(32'd1 << \{ocnt_q, 3'd0\}\) - 32'd1\)/((32'd2 << {ocnt_q, 3'd0}) - 32'd1)/"
  "reuse_interlock_off|ktpu_node_seq.sv|s/== s1_tile_q\) hazard = 1'b1;/== s1_tile_q) hazard = 1'b0;/"
  "reuse_interlock_short|ktpu_node_seq.sv|s/HistN = ReuseMin - 1;/HistN = ReuseMin - 2;/"
  "l1_offset_ignored|ktpu_node_fill.sv|s/assign l1_waddr_o = hf_off_q\[dh\] \+ /assign l1_waddr_o = /"
  "scales_one_cycle_early|ktpu_node.sv|s/\.Depth\(ktpu_pkg::CLUSTER_DP_LATENCY\)\) u_scales/.Depth(ktpu_pkg::CLUSTER_DP_LATENCY - 1)) u_scales/"
  "unfusable_emit_dropped|ktpu_node_seq.sv|s/pass2_q <= mode_i == ModeGemm && emit_i && !acc_i && nk_i == 16'd1;/pass2_q <= 1'b0;/"
  "l1_range_off_by_one|ktpu_node_iq.sv|s/\(L1W\+2\)'\(n\[L1W:0\]\) <= \(L1W\+2\)'\(L1Depth\)/(L1W+2)'(n[L1W:0]) < (L1W+2)'(L1Depth)/"
  "tile_range_unchecked|ktpu_node_iq.sv|s/(OpDrain: begin\n.*?)else if \(!acc_fits\(c_toff, c_gmgn\)\)/\$1else if (1'b0)/s"
  "head_check_ignored|ktpu_node.sv|s/    err = hd_chk_q;/    err = 8'(ktpu_pkg::CLERR_OK);/"
  "head_check_stale|ktpu_node_iq.sv|s/      chk_o  <= chk;/      if (!valid_o) chk_o <= chk;/"
  "head_valid_kept|ktpu_node_iq.sv|s/    else if \(pop_i\)   valid_o <= 1'b0;//"
  "head_gmgn_stale|ktpu_node_iq.sv|s/      gmgn_o <= chk_gmgn;//"
  "head_overwritten|ktpu_node_iq.sv|s/assign hd_load = !fifo_empty && \(!valid_o \|\| pop_i\);/assign hd_load = !fifo_empty;/"
  "peer_index_stuck|ktpu_node.sv|s/pk_idx_q  <= pk_idx_q \+ 16'd1;//"
  "gemm_ignores_fills|ktpu_node.sv|s/seq_free && fills_ok &&/seq_free \&\&/"
  "stream_gate_off|ktpu_node_fill.sv|s/if \(dep_q\[s\] && \(hf_blk_q\[s\] <= seq_kb_i \|\| \(Split && hf_blk_q\[NSlot \+ s\] <= seq_kb_i\)\)\) kb_ready_o = 1'b0;//"
  "stream_gate_one_block_early|ktpu_node_fill.sv|s/hf_blk_q\[s\] <= seq_kb_i \|\|/hf_blk_q[s] < seq_kb_i ||/"
  "stream_dep_not_taken|ktpu_node_fill.sv|s/dep_q <= \(g_start_i \? sl_v_q : dep_q\) & ~done_clr;/dep_q <= dep_q \& ~done_clr;/"
  "stream_block_half_counted|ktpu_node_fill.sv|s/hf_bw_q\[dh\]  <= hf_gm_q\[dh\] << 2;/hf_bw_q[dh]  <= hf_gm_q[dh] << 1;/"
  "stream_nk_unmatched|ktpu_node_fill.sv|s/!sl_err\[s\] && sl_nk_q\[s\] == g_nk_i &&/!sl_err[s] \&\&/"
  "refused_fill_no_poison|ktpu_node_fill.sv|s/if \(sl_err\[done_slot\]\) poison_o <= 1'b1;//"
  "stream_before_first_word|ktpu_node_fill.sv|s/!\(streamed\[s\] && sl_got\[s\]\)/!streamed[s]/"
  "poison_spares_drain|ktpu_node.sv|s/op != OpFill && op != OpStatus\)/op != OpFill \&\& op != OpStatus \&\& op != OpDrain)/"
  "stream_offset_unmatched|ktpu_node_fill.sv|s/hf_off_q\[s\] == \(sl_side_q\[s\] \? g_boff_i : g_aoff_i\)/1'b1/"
  "fill_lane_ignored|ktpu_node_fill.sv|s/d_lane == 2'\(l\);/d_lane == 2'(0);/g"
  "drain_row_stride_x2|ktpu_node_drain.sv|s/row_q <= row_q \+ \{j_stride\[29:0\], 2'b00\};/row_q <= row_q + {j_stride[28:0], 3'b000};/"
  "drain_2d_column_step_x2|ktpu_node_drain.sv|s/payload\[32\*ktpu_pkg::WR_STRIDE2_WORD \+: 32\] = 32'd32;/payload[32*ktpu_pkg::WR_STRIDE2_WORD +: 32] = 32'd64;/"
  "drain_burst_cols_unlimited|ktpu_node_drain.sv|s/assign ncols     = \(full_left > 14'\(MaxCols\)\) \? 8'\(MaxCols\) : full_left\[7:0\];/assign ncols     = full_left[7:0];/"
  "drain_slot_not_reset_on_move|ktpu_node_drain.sv|s/assign slot      = \(cfull_q && move\) \? 2'd0 : ccnt_q\[1:0\];/assign slot      = ccnt_q[1:0];/"
  "drain_burst_last_early|ktpu_node_drain.sv|s/: bleft_q == 8'd1;/: bleft_q == 8'd2;/"
  "emit_buffer_shallow|ktpu_node_drain.sv|s/parameter int unsigned BufDepth = ktpu_pkg::ACC_DEPTH,/parameter int unsigned BufDepth = 16,/"
  "fwd_sends_tile|ktpu_node_seq.sv|s/if \(fwd_q\)                         s0_op = OpFwd;/if (fwd_q)                         s0_op = OpSend;/"
  "fwd_nk_unchecked|ktpu_node_iq.sv|s/else if \(c_fwd && \(c_nk != 16'd1 \|\| c_acc/else if (c_fwd && (c_acc/"
  "fwd_no_grant_wait|ktpu_node.sv|s/!\(i_fwd && \(!gr_hit \|\| pk_left_q/!(i_fwd && (pk_left_q/"
  "gate_misses_fifo_ram|ktpu_node_iq.sv|s/assign empty_o = fifo_count == '0 && !valid_o;/assign empty_o = fifo_empty \&\& !valid_o;/"
  "gate_misses_completion|ktpu_node.sv|s/ && !eng_v_q && !fill_v;/ \&\& !eng_v_q;/"
  "gate_misses_answer|ktpu_node.sv|s/quiet && !eng_v_q && /quiet \&\& /"
  "gate_misses_responses_in|ktpu_node.sv|s/rst_i \|\| rq_in_valid_i \|\| rs_in_valid_i \|\| !asleep/rst_i || rq_in_valid_i || !asleep/"
  "gate_misses_requests_in|ktpu_node.sv|s/rst_i \|\| rq_in_valid_i \|\| rs_in_valid_i \|\| !asleep/rst_i || rs_in_valid_i || !asleep/"
  "gate_never_closes|ktpu_node.sv|s/\.en_i\(rst_i \|\| rq_in_valid_i/.en_i(1'b1 || rq_in_valid_i/"
  "fwd_flags_unchecked|ktpu_node_iq.sv|s/ \|\| c_acc \|\| c_emit\)\) chk/)) chk/"
  "written_before_acks|ktpu_node_drain.sv|s/assign reached         = !mk_dist\[15\];/assign reached         = 1'b1;/"
  "written_one_burst_early|ktpu_node_drain.sv|s/\.wdata_i\(\{otag_q, sent_q\}\)/.wdata_i({otag_q, sent_q - 16'd1})/"
  "written_marks_overrun|ktpu_node_drain.sv|s/assign ohold       = ost_q == 3'd5 && oend_q && mk_full;/assign ohold       = 1'b0;/"
  "written_never|ktpu_node.sv|s/if \(wr_v && wr_r && wr_tag\[16\]\)/if (wr_v \&\& wr_r \&\& 1'b0)/"
  "written_for_drain_too|ktpu_node.sv|s/\.job_tag_i\(\{op == OpGemm && i_written,/.job_tag_i({1'b1,/"
  "written_unasked|ktpu_node.sv|s/\.job_tag_i\(\{op == OpGemm && i_written,/.job_tag_i({op == OpGemm,/"
  "written_error_dropped|ktpu_node.sv|s/if \(wrerr_q\) begin   \/\/ a write refused/if (1'b0) begin   \/\/ a write refused/"
  "status_before_written|ktpu_node.sv|s/pk_left_q == '0 && !wn_v_q;/pk_left_q == '0;/"
  # a FILL split over two agents
  "baseline_p2@p2|ktpu_node.sv|s/^//"
  "split_half1_unawaited@p2|ktpu_node_fill.sv|s/\(!Split \|\| hf_blk_q\[NSlot \+ s\] == sl_nk_q\[s\] \|\| hf_err_q\[NSlot \+ s\]\)/1'b1/"
  "split_gate_half0_only@p2|ktpu_node_fill.sv|s/ \|\| \(Split && hf_blk_q\[NSlot \+ s\] <= seq_kb_i\)\)/)/"
  "split_half1_entries_unshifted@p2|ktpu_node_fill.sv|s/p_off_q \+ L1W'\(p_nk_q << p_sh_q\)/p_off_q + L1W'(p_nk_q)/"
  "split_half1_rows_off@p2|ktpu_node_fill.sv|s/\(5'\(p_sh_q\) \+ 5'd2\)/(5'(p_sh_q) + 5'd1)/"
  "split_halves_counted_together@p2|ktpu_node_fill.sv|s/assign dh      = \{d_half, d_slot\};/assign dh      = {1'b0, d_slot};/"
  "split_refusal_frees_slot@p2|ktpu_node_fill.sv|s/sl_done\[s\] = \(/sl_done[s] = sl_err[s] || (/"
  "split_got_half0_only@p2|ktpu_node_fill.sv|s/sl_got\[s\]  = hf_got_q\[s\] && \(!Split \|\| hf_got_q\[NSlot \+ s\]\);/sl_got[s]  = hf_got_q[s];/"
)
# the node bench's sources, from the blocks' declarations (tests/node/tests.mk)
bench_srcs=$(make -s --no-print-directory rtl-srcs BLOCKS="node mesh mem_agent dram") || exit 2
p2_flags=$(make -s --no-print-directory node4p2-vflags) || exit 2   # @p2: node4p2's build
srcs() {  # dir: the bench sources, rtl/node's from the mutant copy in dir, the rest from $R
  local f
  for f in $bench_srcs; do
    case $f in rtl/node/*) echo "$1/${f#rtl/node/}" ;; *) echo "$R/$f" ;; esac
  done
  echo tests/node/node_top.sv
}
survived=0
ran=0
for m in "${mutants[@]}"; do
  IFS='|' read -r name file sub <<<"$m"
  gflags=(); [[ $name = *@p2 ]] && gflags=($p2_flags)
  [ -n "${1:-}" ] && [[ $name != *$1* ]] && continue
  d=$out/$name; mkdir -p "$d"
  cp rtl/node/*.sv "$d/"
  perl -0pi -e "$sub" "$d/$file"
  if [[ $name != baseline* ]] && cmp -s "rtl/node/$file" "$d/$file"; then
    echo "mutant $name: substitution did not apply"; survived=$((survived+1)); continue
  fi
  ran=$((ran+1))
  # shellcheck disable=SC2046
  if ! verilator --cc --exe --build -j 2 -Wno-fatal -Wno-lint --x-assign unique --x-initial unique \
      --assert -CFLAGS "-O0 -std=c++17 -I$PWD/sim/ref -I$PWD/build/gen -I$PWD/tests/common" -Ibuild/gen build/gen/ktpu_pkg.sv \
      "${gflags[@]}" --top-module node_top --Mdir "$d/obj" -o Vnode_top $(srcs "$d") \
      "$PWD/tests/node/node_tb.cpp" "$REF_LIB" >"$d/build.log" 2>&1; then
    echo "mutant $name: build failed (see $d/build.log)"; survived=$((survived+1)); continue
  fi
  if timeout 300 "$d/obj/Vnode_top" --seed 5 >"$d/run.log" 2>&1; then
    if [[ $name = baseline* ]]; then echo "$name: passes ($(tail -n1 "$d/run.log"))"; ran=$((ran-1)); continue; fi
    echo "mutant $name: SURVIVED"; survived=$((survived+1))
  elif [[ $name = baseline* ]]; then
    echo "$name FAILS: mutants mean nothing (see $d/run.log)"; exit 1
  else
    echo "mutant $name: killed ($(grep -m1 -E '^FAIL|%Error|no completion|time-out' "$d/run.log" | cut -c1-110))"
  fi
done
echo "node mutants: $ran run, $survived survived"
[ "$survived" -eq 0 ]
