#!/usr/bin/env bash
# usage: mutants.sh PROGRAM.elf...
# A test never seen to fail is not a test: each mutant below breaks the CPU
# or sequencer-SoC RTL in one known way, builds its own simulator (make with
# RTL_PATCH naming a patched copy of the one file; the one-cluster
# machine, $(KTPU_SIM1), which builds fastest and holds the same sequencer)
# and runs the CPU programs, plain and in lockstep. Every mutant must make at
# least one program fail; the line per mutant says which. Nothing in the
# source tree is modified.
set -u
progs=("$@")
root=build/mutants
mkdir -p "$root"

# name | file (rtl/cpu or rtl/soc) | perl substitution (a "|" in a pattern is \x7c)
mutants=(
  "lb_zero_extends|rtl/cpu/ktpu_cpu.sv|s/\{\{24\{!w_ld_uns_q & ld_word\[7\]\}\}/{{24{1'b0}}/"
  "branch_offset_plus4|rtl/cpu/ktpu_cpu.sv|s/is_jal \? imm_j : imm_b;/is_jal ? imm_j : imm_b + 32'd4;/"
  "mepc_next_insn|rtl/cpu/ktpu_cpu.sv|s/mepc_q  <= trap \? pc_q\[31:2\]/mepc_q  <= trap ? pc_q[31:2] + 30'd1/"
  "csrrs_x0_writes|rtl/cpu/ktpu_cpu.sv|s/assign csr_write = \(funct3\[1:0\] == 2'b01\) \|\| \(rs1 != 5'd0\)/assign csr_write = 1'b1/"
  "slli_imm5_legal|rtl/cpu/ktpu_cpu.sv|s/funct3 == 3'b001 \? funct7 == 7'b0000000/funct3 == 3'b001 ? funct7[6:1] == 6'd0/"
  "no_forwarding|rtl/cpu/ktpu_cpu.sv|s/\(w_valid_q && w_wr_q && w_rd_q == rs1\) \? w_wdata : //"
  "misaligned_jump_ok|rtl/cpu/ktpu_cpu.sv|s/end else if \(jump && jump_mis\) begin/end else if (1'b0) begin/"
  "trapping_load_writes|rtl/cpu/ktpu_cpu.sv|s/w_wr_q      <= x_wr && !trap;/w_wr_q      <= x_wr;/"
  "div0_quotient_sign|rtl/cpu/ktpu_cpu_muldiv.sv|s/ && \(b_i != 32'd0\);/;/"
  "mulhsu_b_signed|rtl/cpu/ktpu_cpu_muldiv.sv|s/assign b_signed = \(op_i == 3'b001\);/assign b_signed = (op_i == 3'b001) || (op_i == 3'b010);/"
  "irq_ignores_mie|rtl/cpu/ktpu_cpu.sv|s/assign irq_pending = mie_q && /assign irq_pending = /"
  "mpp_reads_0|rtl/cpu/ktpu_cpu.sv|s/\{19'd0, 2'b11, 3'd0, mpie_q/{19'd0, 2'b00, 3'd0, mpie_q/"
  "sb_lane_unshifted|rtl/cpu/ktpu_cpu.sv|s/dbus_be_o = 4'b0001 << mem_addr\[1:0\];/dbus_be_o = 4'b0001;/"
  "minstret_counts_traps|rtl/cpu/ktpu_cpu.sv|s/if \(retire \|\| csr_we\[WsIns\]\)/if (fire || csr_we[WsIns])/"
  "sra_as_srl|rtl/cpu/ktpu_cpu.sv|s/sh_fill = funct7\[5\] & a\[31\]/sh_fill = 1'b0 & a[31]/"
  "store_skips_fetch_copy|rtl/soc/ktpu_soc_seq.sv|s/\.we_i   \(ram_we && ram_be\[l\]\),\n      \.waddr_i\(ram_waddr\),\n      \.wdata_i\(ram_wdata\[8\*l \+: 8\]\),\n      \.re_i   \(1'b1\)/.we_i   (ld_valid_i \&\& ram_be[l]),\n      .waddr_i(ram_waddr),\n      .wdata_i(ram_wdata[8*l +: 8]),\n      .re_i   (1'b1)/"
  "dram_word_zero|rtl/soc/ktpu_soc_seq.sv|s/dram_rsp_rdata_i\[32\*dram_word_q \+: 32\]/dram_rsp_rdata_i[31:0]/"
  "line_no_fence_drop|rtl/soc/ktpu_soc_seq.sv|s/ \x7c\x7c d_fence;/;/"
  "line_no_store_drop|rtl/soc/ktpu_soc_seq.sv|s/\(sel_mmio \x7c\x7c \(d_we && !sel_ram\)\)/(sel_mmio)/"
  "line_no_mmio_drop|rtl/soc/ktpu_soc_seq.sv|s/\(sel_mmio \x7c\x7c \(d_we && !sel_ram\)\)/(d_we \&\& !sel_ram)/"
  "line_serves_twice|rtl/soc/ktpu_soc_seq.sv|s/ && !lb_served_q\[d_addr\[4:2\]\] && !d_we;/ \&\& !d_we;/"
  "line_drops_on_ram_store|rtl/soc/ktpu_soc_seq.sv|s/\(d_we && !sel_ram\)/(d_we)/"
  "line_word_zero|rtl/soc/ktpu_soc_seq.sv|s/lb_data_q\[32\*dram_word_q \+: 32\]/lb_data_q[31:0]/"
  "mtval_zero_on_misaligned_load|rtl/cpu/ktpu_cpu.sv|s/exc_cause = is_store \? CauseStoreMisaligned : CauseLoadMisaligned; exc_tval = TvalAddr;/exc_cause = is_store ? CauseStoreMisaligned : CauseLoadMisaligned; exc_tval = TvalZero;/"
  "csr_write_no_hold|rtl/cpu/ktpu_cpu.sv|s/ && !w_wait && !csr_wb_q;/ \&\& !w_wait;/"
  "pc_advances_in_hold|rtl/cpu/ktpu_cpu.sv|s/else if \(retire\) pc_off = 32'd4;/else if (go) pc_off = 32'd4;/"
  "jalr_mis_ignores_rs1|rtl/cpu/ktpu_cpu.sv|s/\(a\[1\] \^ imm_i\[1\] \^ \(a\[0\] & imm_i\[0\]\)\)/imm_i[1]/"
  "div_ignores_divisor_sign|rtl/cpu/ktpu_cpu_muldiv.sv|s/dvs_neg_q <= div_signed && b_i\[31\];/dvs_neg_q <= 1'b0;/"
  "div_result_never_negated|rtl/cpu/ktpu_cpu_muldiv.sv|s/assign div_neg = op_i\[1\] \? neg_r_q : neg_q_q;/assign div_neg = op_i[1] ? 1'b0 : neg_q_q;/"
)

killed=0; survived=0
for m in "${mutants[@]}"; do
  IFS='|' read -r name file subst <<<"$m"
  [ -n "${ONLY:-}" ] && [ "$name" != "$ONLY" ] && continue
  dir=$root/$name
  rm -rf "$dir"; mkdir -p "$dir/src"
  target=$dir/src/$(basename "$file")
  cp "$file" "$target"
  perl -0pi -e "$subst" "$target"
  if cmp -s "$target" "$file"; then
    echo "ERROR $name: the substitution did not apply"; survived=$((survived + 1)); continue
  fi
  if ! make -s -j2 VL_DIR="$dir/vl" FILELIST_DIR="$dir/filelists" KTPU_SIM1="$dir/ktpu-sim" \
       RTL_PATCH="$file=$target" "$dir/ktpu-sim" >"$dir/build.log" 2>&1; then
    echo "ERROR $name: mutant does not build (see $dir/build.log)"; survived=$((survived + 1)); continue
  fi
  # The longest program (c_kernel) runs 1.1 M cycles; the whole-machine
  # model is slow, so a hung mutant stops at 4 M instead of the default limit.
  out=$(KTPU_MAX_CYCLES=4000000 tests/cpu/run_programs.sh "$dir/ktpu-sim" "${progs[@]}" 2>&1)
  if [ $? -ne 0 ]; then
    killed=$((killed + 1))
    echo "killed   $name: $(grep '^FAIL' <<<"$out" | sed 's/^FAIL //; s/ --.*//' | head -4 | paste -sd';' -)"
  else
    survived=$((survived + 1))
    echo "SURVIVED $name"
  fi
done
echo "cpu mutants: $killed killed, $survived survived"
[ $survived -eq 0 ]
