# CPU tests (SPEC §2, §9, §14): bare assembly ISA programs in the riscv-tests
# style (each ends by writing its status to SIM_EXIT), compiled C programs,
# and every one of them again in lockstep with the C instruction-set model.
CPU_ASM_TESTS := isa_alu isa_branch isa_mem isa_muldiv isa_csr isa_trap isa_irq
CPU_C_TESTS   := c_kernel c_printf
CPU_TEST_DIR  := $(BUILD)/tests/cpu

$(CPU_TEST_DIR)/%.elf: tests/cpu/%.S tests/cpu/isa.h tests/cpu/asm.ld $(FW_DEFS_ASM) $(FW_MEM_LD)
	@mkdir -p $(@D)
	$(RV_CC) -march=rv32im_zicsr_zifencei -mabi=ilp32 -nostdlib -nostartfiles -I$(FW_DIR) -Itests/cpu \
	    -Ttests/cpu/asm.ld -L$(FW_DIR) -Wl,--no-warn-rwx-segments -o $@ $<

$(foreach t,$(CPU_C_TESTS) c_trap,$(eval $(call fw_prog,$(CPU_TEST_DIR)/$(t).elf,tests/cpu/$(t).c)))

CPU_ELFS := $(addprefix $(CPU_TEST_DIR)/,$(addsuffix .elf,$(CPU_ASM_TESTS) $(CPU_C_TESTS) c_trap))

TEST_DEPS += $(CPU_ELFS)
TESTS += cpu_isa
TEST_CMD.cpu_isa := tests/cpu/run_programs.sh $(KTPU_SIM) $(addprefix $(CPU_TEST_DIR)/,$(addsuffix .elf,$(CPU_ASM_TESTS) $(CPU_C_TESTS)))
# the same programs on the instruction-set model alone (ktpu-sim --iss)
TESTS += cpu_isa_iss
TEST_CMD.cpu_isa_iss := tests/cpu/run_iss.sh $(KTPU_SIM) $(addprefix $(CPU_TEST_DIR)/,$(addsuffix .elf,$(CPU_ASM_TESTS) $(CPU_C_TESTS)))
# gdb-multiarch driving ktpu-sim --iss --gdb (tests/cpu/check_gdb.sh), on a
# program built at -O0 so that every line is a stop
$(CPU_TEST_DIR)/gdb_prog.elf: tests/cpu/gdb_prog.c $(FW_HDRS) $(FW_RT_LIB) $(FW_MEM_LD) linker/ktpu.ld
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -O0 -c -o $(@:.elf=.o) $<
	$(RV_CC) $(FW_LDFLAGS) -o $@ $(@:.elf=.o) $(FW_RT_LINK)
TEST_DEPS += $(CPU_TEST_DIR)/gdb_prog.elf
TESTS += cpu_gdb
TEST_CMD.cpu_gdb := tests/cpu/check_gdb.sh $(KTPU_SIM) $(CPU_TEST_DIR)/gdb_prog.elf
TESTS += cpu_trap_report
TEST_CMD.cpu_trap_report := tests/cpu/check_trap_report.sh $(KTPU_SIM) $(CPU_TEST_DIR)/c_trap.elf

TESTS += cpu_printf
TEST_CMD.cpu_printf := set -o pipefail; $(KTPU_SIM) --lockstep $(CPU_TEST_DIR)/c_printf.elf | diff - tests/cpu/c_printf.expected && \
  $(KTPU_SIM) --iss $(CPU_TEST_DIR)/c_printf.elf | diff - tests/cpu/c_printf.expected && echo "printf: output matches c_printf.expected (RTL in lockstep, and --iss)"

# Benchmarks and the mutant sweep (SPEC §14, §15): not part of make test.
BENCH_DEPS += $(CPU_TEST_DIR)/c_kernel.elf
BENCH_CMDS += tests/cpu/bench.sh $(KTPU_SIM) $(CPU_TEST_DIR)/c_kernel.elf $(BUILD)/bench/cpu.csv $(GEN_SV) $(call rtl_srcs,cpu) ;
REGRESS_DEPS += $(CPU_ELFS) $(BUILD)/tests/soc/dram_line.elf $(BUILD)/tests/soc/mesh_rxq.elf
REGRESS += cpu_mutants
REGRESS_CMD.cpu_mutants := scripts/mutants.sh cpu -- $(addprefix $(CPU_TEST_DIR)/,$(addsuffix .elf,$(CPU_ASM_TESTS) $(CPU_C_TESTS))) \
                $(BUILD)/tests/soc/dram_line.elf $(BUILD)/tests/soc/mesh_rxq.elf

# Lint (verilator -Wall) of the core alone and of everything ktpu-sim builds.
TESTS += cpu_lint
TEST_CMD.cpu_lint := tests/cpu/lint.sh $(GEN_SV) ktpu_cpu $(call rtl_srcs,cpu) && tests/cpu/lint.sh $(GEN_SV) ktpu_sim_top $(call rtl_srcs,sim_top)
