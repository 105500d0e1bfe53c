#!/usr/bin/env bash
# Deliberately broken accumulators: each mutant is a copy of one source with
# one change, built with the same make rules (RTL_PATCH names the copy on the
# command line, output under build/mutants-acc/) and run through the unit
# bench and the reuse-assertion bench. Every mutant must make one of them
# fail; one that survives means a check is missing.
# Usage: tests/acc/mutants.sh [name-filter]
set -u
cd "$(dirname "$0")/../.."
filter=${1:-}
root=build/mutants-acc
survived=0; killed=0; broken=0

# mutant NAME FILE PERL-SUBSTITUTION
mutant() {
  local name=$1 file=$2 expr=$3
  [ -n "$filter" ] && [[ $name != *$filter* ]] && return
  local dir=$root/$name base; base=$(basename "$file")
  mkdir -p "$dir"
  cp "$file" "$dir/$base"
  perl -0pi -e "$expr" "$dir/$base"
  if cmp -s "$file" "$dir/$base"; then
    echo "mutants: $name: the change did not apply to $file" >&2; exit 2
  fi
  local out=$dir/vl/acc/Vktpu_acc
  if ! make --no-print-directory -s VL_DIR="$dir/vl" RTL_PATCH="$file=$dir/$base" "$out" >"$dir/build.log" 2>&1; then
    broken=$((broken + 1)); echo "BROKEN   $name (does not build: $dir/build.log)"; return
  fi
  local verdict=""
  if "$out" --seed 1 >"$dir/unit.log" 2>&1; then verdict="unit:pass"; else verdict="unit:FAIL"; fi
  if "$out" --expect reuse >"$dir/reuse.log" 2>&1; then verdict="$verdict reuse:pass"; else verdict="$verdict reuse:FAIL"; fi
  if [[ $verdict != *FAIL* ]]; then
    survived=$((survived + 1)); echo "SURVIVED $name: $verdict"
  else
    killed=$((killed + 1))
    echo "killed   $name: $verdict  $(grep -m1 -h 'FAIL\|Error' "$dir/unit.log" "$dir/reuse.log" | cut -c1-90)"
  fi
}

L=rtl/acc/ktpu_acc_lane.sv; T=rtl/acc/ktpu_acc.sv; R=rtl/acc/ktpu_acc_r16.sv; F=rtl/prim/ktpu_fifo.sv
mutant round_half_up     $L 's/assign inc10  = rnd10 && \(st10_q \|\| n10_q\[1\]\);/assign inc10  = rnd10;/'
mutant no_align_sticky   $L 's/: \{prod8\[PW-1:14\], \(prod8\[13:0\] != 14.d0\)\}/: {prod8[PW-1:14], 1\x27b0}/'
mutant no_hi_sticky      $L 's/\(prod8\[13\+HiSh:0\] != .0\)/1\x27b0/'
mutant hi_window_low     $L 's/prod8\[PW-1:14\+HiSh\]/prod8[PW-2:13+HiSh]/'
mutant sub_no_carry_in   $L 's/ \+ SumW\x27\(sub8_q\);/;/'
mutant no_norm_sticky    $L 's/st10_q <= st9;/st10_q <= 1\x27b0;/'
mutant norm_sticky_mask  $L 's/14.h3FFF >> \{lzh4_9, lzh1_9\}/14\x27h1FFF >> {lzh4_9, lzh1_9}/'
mutant norm_low_count    $L 's/lz1_9  = lz16_9 \? lzl1_9 : lzh1_9;/lz1_9  = lzh1_9;/'
mutant no_round_carry    $L 's/assign \{eb10, frac10\} = \{e10_q, n10_q\[SigW-1:1\]\} \+ \(EW \+ 14\)\x27\(inc10\);/assign eb10 = e10_q; assign frac10 = n10_q[SigW-1:1] + 14\x27(inc10);/'
mutant ovf_off_by_one    $L 's/\(eb10\[EW-2:7\] != .0\)/(eb10[EW-2:8] != \x270)/'
mutant unf_off_by_one    $L 's/assign unf10 = eb10\[EW-1\] \|\| \(eb10 == .0\);/assign unf10 = eb10[EW-1];/'
mutant neg_zero_r22      $L 's/r22_o <= 22.d0;( +)\/\/ exact zero is \+0/r22_o <= {sb10_q, 21\x27d0};$1\/\/ -0/'
mutant mant_wrong_scale  $L 's/\{5.d1, sa_i\[2:0\]\} \* \{5.d1, sb_i\[2:0\]\}/{5\x27d1, sa_i[2:0]} * {5\x27d1, sa_i[2:0]}/'
mutant exp_offset        $L 's/- ktpu_pkg::BLOCK_EXP_OFFSET;/- ktpu_pkg::BLOCK_EXP_OFFSET - 1;/'
mutant mag_17bit         $L 's/mag2_q  <= p_i\[PWidth-1\] \? MagW\x27\(-p_i\) : MagW\x27\(p_i\);/mag2_q  <= MagW\x27(p_i[PWidth-1] ? (MagW-1)\x27(-p_i) : (MagW-1)\x27(p_i));/'
mutant exp_only_compare  $L 's/assign v_big6 = kv6 > kt6;/assign v_big6 = ev6_q > et6;/'
mutant scale_mul_no_mreg $L 's/\.MReg\(1\), \.PReg\(1\)\) u_scale_mul/.MReg(0), .PReg(1)) u_scale_mul/'
mutant align_mul_b_late  $L 's/\.AReg\(1\), \.BReg\(0\), \.MReg\(0\), \.PReg\(1\)\) u_align_mul/.AReg(0), .BReg(0), .MReg(1), .PReg(1)) u_align_mul/'
mutant align_threshold   $L 's/assign hi7  = d7_q > DW\x27\(16\);/assign hi7  = d7_q > DW\x27(17);/'
mutant r16_subnormal     $R 's/7.d48: sh = 4.d1;/7\x27d48: sh = 4\x27d2;/'
mutant r16_ovf_bound     $R 's/big_q \|\| enc\[14:10\] == 5.h1F/big_q/'
mutant r16_neg_zero      $R 's/\{sgn_q && \(enc\[14:0\] != 15.d0\), enc\[14:0\]\}/{sgn_q, enc[14:0]}/'
mutant r16_sticky_short  $R 's/5.d3 \+ 5.\(sh\)/5\x27d4 + 5\x27(sh)/'
mutant r16_tie_up        $R 's/inc = y\[3\] && \(stk \|\| y\[4\]\);/inc = y[3];/'
mutant reuse_assert_short $T 's/for \(int s = 1; s < ReuseMin; s\+\+\)/for (int s = 1; s < ReuseMin - 1; s++)/'
mutant retire_early      $T 's/assign retire = vld_q\[NSt\];/assign retire = vld_q[NSt-6];/'
mutant no_reuse_gap_busy $T 's/assign busy_o     = \(inflight_q != .0\) \|\| \(gap_q != .0\);/assign busy_o     = 1\x27b0;/'
mutant no_emit_credit    $T 's/!\(op_emit\(cmd_op_i\) && emit_cred_q == .0\) &&/1\x27b1 \&\&/'
mutant peer_stage        $T 's/\.use_peer_i \(op_q\[StPeer\] == OpAddPeer\)/.use_peer_i (op_q[StPeer-1] == OpAddPeer)/'
mutant fwd_writes        $T 's/op_writes = op == OpLoad \|\|/op_writes = op == OpFwd || op == OpLoad ||/'
mutant emit_takes_v      $T 's/\.v_zero_i   \(!op_uses_v\(op_q\[1\]\)\)/.v_zero_i   (op_q[1] == OpAddPeer)/'
mutant send_no_read      $T 's/op_reads = op == OpAdd \|\| op == OpAddPeer \|\| op == OpSend \|\|/op_reads = op == OpAdd || op == OpAddPeer ||/'
mutant flag_count_once   $T 's/n_aovf_q <= popcnt\(aovf_v\);/n_aovf_q <= 5\x27(|aovf_v);/'
mutant cmd_fifo_order    $F 's/if \(re\)     rptr_q <= rptr_q \+ AW\x27\(1\);/if (re)     rptr_q <= rptr_q + AW\x27(2);/'
mutant norm_stage_skip   $L 's/b9 = a9 << \{lz4_9, 2.b00\};/b9 = a9 << {1\x27b0, lz4_9[0], 2\x27b00};/'
mutant fifo_no_prefetch  $F 's/assign re      = \(ram_cnt_q != .0\) && \(!head_q \|\| pop_i\);/assign re      = (ram_cnt_q != \x270) \&\& !head_q;/'

echo "acc mutants: $killed killed, $survived survived, $broken broken"
[ "$survived" -eq 0 ] && [ "$broken" -eq 0 ]
