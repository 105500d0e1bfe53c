#!/usr/bin/env bash
# Deliberately broken serial ports (rtl/soc/ktpu_uart.sv): each mutant is a
# patched copy built with the same make rules (RTL_PATCH) at both dividers
# of tests/soc/tests.mk; the bench must fail at one of them at least.
# make regress; non-zero if any mutant survives. Optional argument: a name filter.
set -u
cd "$(dirname "$0")/../.."
src=rtl/soc/ktpu_uart.sv
root=build/uart_mutants
mutants=(
  "no_stop_check|s/if \(!vote\) begin\n                rx_st_q <= RxBreak;/if (1'b0) begin\n                rx_st_q <= RxBreak;/"
  "no_glitch_reject|s/if \(rx_n_q == 4'd0 && vote\) rx_st_q <= RxIdle;/if (1'b0) rx_st_q <= RxIdle;/"
  "one_sample_no_vote|s/assign vote = .*?;/assign vote = win_q[1];/"
  "sample_at_edge|s/CW'\(ClksPerBit \/ 2\)/CW'(0)/"
  "overrun_keeps_second|s/if \(got_byte && !\(hold_v_q && !rx_ready_i\)\) hold_q/if (got_byte) hold_q/"
  "rts_always_high|s/assign rts_o       = .*?;/assign rts_o       = 1'b1;/"
  "rts_ignores_frame|s/ \+ 2'\(rx_st_q == RxFrame\)//"
  "tx_msb_first|s/tx_sh_q  <= \{1'b1, tx_data_i, 1'b0\};/tx_sh_q  <= {1'b1, {<<{tx_data_i}}, 1'b0};/"
  "tx_short_stop|s/tx_n_q   <= 4'd10;/tx_n_q   <= 4'd9;/"
  "break_not_waited|s/if \(win_q\[0\]\) rx_st_q <= RxIdle;/rx_st_q <= RxIdle;/"
)
survived=0
for m in "${mutants[@]}"; do
  IFS='|' read -r name sub <<<"$m"
  [ -n "${1:-}" ] && [[ $name != *$1* ]] && continue
  d=$root/$name; mkdir -p "$d"
  cp $src "$d/"
  perl -0pi -e "$sub" "$d/ktpu_uart.sv"
  if cmp -s $src "$d/ktpu_uart.sv"; then echo "mutant $name: substitution did not apply"; survived=$((survived+1)); continue; fi
  verdict=""
  for n in 4 13; do
    if ! make -s --no-print-directory VL_DIR="$d/vl" RTL_PATCH="$src=$d/ktpu_uart.sv" "$d/vl/uart$n/Vktpu_uart" >"$d/build$n.log" 2>&1; then
      verdict="$verdict $n:BUILD"; continue
    fi
    if timeout 120 "$d/vl/uart$n/Vktpu_uart" >"$d/run$n.log" 2>&1; then verdict="$verdict $n:pass"; else verdict="$verdict $n:FAIL"; fi
  done
  if [[ $verdict == *FAIL* ]]; then
    echo "mutant $name: killed ($(grep -h -m1 FAIL "$d"/run*.log | head -n1 | cut -c1-90))"
  else
    echo "mutant $name: SURVIVED ($verdict)"; survived=$((survived+1))
  fi
done
echo "uart mutants: ${#mutants[@]} listed, $survived survived"
[ "$survived" -eq 0 ]
