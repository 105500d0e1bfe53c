#!/usr/bin/env bash
# Deliberately broken datapaths: each mutant is a copy of one source with one
# change, built with the same make rules (RTL_PATCH names the copy on the
# command line, output under build/mutants/) and run through the benches. Every
# mutant must make at least one bench fail; one that survives means a check
# is missing. Usage: tests/tensor/mutants.sh [name-filter]
set -u
cd "$(dirname "$0")/../.."
filter=${1:-}
root=build/mutants
survived=0; killed=0; broken=0

# mutant NAME FILE PERL-SUBSTITUTION BENCHES...
#   BENCHES: mx_mac and/or cluster_dp; the mutant is killed when any fails.
mutant() {
  local name=$1 file=$2 expr=$3; shift 3
  [ -n "$filter" ] && [[ $name != *$filter* ]] && return
  local dir=$root/$name base; base=$(basename "$file")
  mkdir -p "$dir"
  cp "$file" "$dir/$base"
  perl -0pi -e "$expr" "$dir/$base"
  if cmp -s "$file" "$dir/$base"; then
    echo "mutants: $name: the change did not apply to $file" >&2; exit 2
  fi
  # Every listed bench runs; the mutant is killed if at least one fails.
  local verdict="" b out first=""
  for b in "$@"; do
    local args=(--seed 1 --cycles 3000)
    case $b in
      mx_mac)     out=$dir/vl/dsp_mx_mac/Vtb_mx_mac ;;
      cluster_dp) out=$dir/vl/tensor_cluster_dp/Vtb_cluster_dp; args=(--seed 1 --pairs 3000) ;;
      tcu)        out=$dir/vl/tensor_tcu/Vtb_tcu ;;
      dsp_cfg)    out=$dir/vl/dsp_cfg/Vtb_dsp_cfg ;;
      ram)        out=$dir/vl/prim_ram/Vtb_ram ;;
    esac
    if ! make --no-print-directory -s VL_DIR="$dir/vl" RTL_PATCH="$file=$dir/$base" \
           "$out" >"$dir/build-$b.log" 2>&1; then
      verdict="$verdict $b:BUILD-ERROR"; continue
    fi
    if "$out" "${args[@]}" >"$dir/run-$b.log" 2>&1; then
      verdict="$verdict $b:pass"
    else
      verdict="$verdict $b:FAIL"
      [ -n "$first" ] || first=$(grep -m1 MISMATCH "$dir/run-$b.log" | cut -c1-100)
    fi
  done
  if [[ $verdict == *BUILD-ERROR* ]]; then
    broken=$((broken + 1)); echo "BROKEN   $name:$verdict (the mutant does not build: see $dir)"
  elif [[ $verdict != *FAIL* ]]; then
    survived=$((survived + 1)); echo "SURVIVED $name:$verdict"
  else
    killed=$((killed + 1)); echo "killed   $name:$verdict  [$first]"
  fi
}

mx=rtl/dsp/ktpu_mx_mac.sv; cdp=rtl/tensor/ktpu_cluster_dp.sv; tcu=rtl/tensor/ktpu_tcu.sv
dsp=rtl/dsp/DSP48E2.sv
# The three the issue names.
mutant breg_short   $mx  's/\.BREG\(2\), \.BCASCREG\(2\)/.BREG(1), .BCASCREG(1)/' mx_mac tcu cluster_dp
mutant no_borrow    $cdp 's/ \+ \{\{\(PB-1\)\{1.b0\}\}, p\[PB-1\]\};/;/' cluster_dp
mutant shift_18     $mx  's/\{\(30 - 7 - Shift\)\{w1_i\[6\]\}\}, w1_i, \{Shift\{1.b0\}\}/{(31 - 7 - Shift){w1_i[6]}}, w1_i, {(Shift-1){1\x27b0}}/' mx_mac tcu cluster_dp
# Alignment and control.
mutant skew_k3      $tcu 's/\.Depth\(InDelay \+ k\)/.Depth(InDelay + k + (k == 3 ? 1 : 0))/' tcu cluster_dp
mutant hop_short    $cdp 's/\.InDelay\(HopDelay \* n\)/.InDelay(n == 3 ? HopDelay * n - 1 : HopDelay * n)/' cluster_dp
mutant cross_z_pcin $mx  's/localparam logic \[1:0\] OpW = AddC \? 2.b11 : 2.b00;/localparam logic [1:0] OpW = 2\x27b00;/' tcu cluster_dp
mutant valid_early  $cdp 's/valid_o <= en_i & vpipe_q\[ChainLatency-1\]/valid_o <= en_i & vpipe_q[ChainLatency-2]/' cluster_dp
mutant valid_noreset $cdp 's/if \(rst_i\)     vpipe_q <= .0;\n    else if/if/' cluster_dp
mutant cep_always   $mx  's/\.CEP\(en_i\)/.CEP(1\x27b1)/' mx_mac tcu cluster_dp
mutant out_no_hold  $cdp 's/if \(en_i\) partial_o <= part_d;/partial_o <= part_d;/' cluster_dp
mutant valid_ignored $cdp 's/\{vpipe_q\[ChainLatency-2:0\], valid_i\}/{vpipe_q[ChainLatency-2:0], 1\x27b1}/' cluster_dp
# The model: the silicon behaviours the design relies on.
mutant model_creg0  $dsp 's/wire \[47:0\] c_mux = \(CREG == 1\) \? c_q : C;/wire [47:0] c_mux = C;/' tcu cluster_dp
mutant model_preadd26 $dsp 's/wire \[26:0\] ad    = inmode\[3\] \? \(pre_d - pre_a\) : \(pre_d \+ pre_a\);/wire [26:0] ad_w = inmode[3] ? (pre_d - pre_a) : (pre_d + pre_a);\n  wire [26:0] ad = {ad_w[25], ad_w[25:0]};/' mx_mac cluster_dp

mutant model_ce_over_rst $dsp 's/if \(RSTP\) p_q <= 48.d0;\n    else if \(CEP\) p_q <= alu;/if (CEP) p_q <= alu;\n    else if (RSTP) p_q <= 48\x27d0;/' dsp_cfg
mutant model_a1_select $dsp 's/\(\(AREG == 2 && inmode\[0\]\) \? a1_q\[26:0\] : a2_q\[26:0\]\)/((AREG == 2 \&\& !inmode[0]) ? a1_q[26:0] : a2_q[26:0])/' dsp_cfg
mutant model_acout_tap $dsp 's/assign ACOUT = \(AREG == 2 && ACASCREG == 1\) \? a1_q/assign ACOUT = (AREG == 2 \&\& ACASCREG == 2) ? a1_q/' dsp_cfg
mutant model_sub_order $dsp 's/alu = z_v - \(w_v \+ x_v \+ y_v \+ \{47.d0, carryin\}\);/alu = (w_v + x_v + y_v + {47\x27d0, carryin}) - z_v;/' dsp_cfg
mutant model_ad_nodreg $dsp 's/wire \[26:0\] d_mux = \(DREG == 1\) \? d_q : D;/wire [26:0] d_mux = D;/' dsp_cfg mx_mac

# The RAM wrapper.
ram=rtl/prim/ktpu_ram.sv
mutant ram_write_first $ram 's/(gen_block.*?)if \(re_i\) rd_q <= mem_q\[raddr_i\];/$1if (re_i) rd_q <= (we_i \&\& waddr_i == raddr_i) ? wdata_i : mem_q[raddr_i];/s' ram
mutant ram_latency1    $ram 's/always_ff \@\(posedge clk_i\) rdata_o <= rd_q;/assign rdata_o = rd_q;/' ram
mutant ram_read_always $ram 's/(gen_dist.*?)if \(re_i\) rd_q <= mem_q\[raddr_i\];/$1rd_q <= mem_q[raddr_i];/s' ram

echo "mutants: $killed killed, $survived survived, $broken did not build"
[ "$survived" -eq 0 ] && [ "$broken" -eq 0 ]
