# SoC and co-simulator tests: the ktpu-sim command-line contract (SPEC §2),
# UART, mailbox, DRAM latency option, ELF loader errors.
SOC_TEST_DIR := $(BUILD)/tests/soc
SOC_PROGS := spin exit42 dram_latency echo exit_sb exit_sh dram_line uart_burst mesh_rxq

$(SOC_TEST_DIR)/%.elf: tests/soc/%.S tests/cpu/isa.h tests/cpu/asm.ld $(FW_DEFS_ASM) $(FW_MEM_LD)
	@mkdir -p $(@D)
	$(RV_CC) -march=rv32im_zicsr -mabi=ilp32 -nostdlib -nostartfiles -I$(FW_DIR) -Itests/cpu \
	    -Ttests/cpu/asm.ld -L$(FW_DIR) -Wl,--no-warn-rwx-segments -o $@ $<
# Linked at an address with no memory behind it.
$(SOC_TEST_DIR)/far.elf: tests/soc/far.S
	@mkdir -p $(@D)
	$(RV_CC) -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -Wl,-Ttext=0x40000000 -o $@ $<
# Linked in DRAM only: nothing for local RAM, where the CPU starts.
$(SOC_TEST_DIR)/dram_only.elf: tests/soc/dram_only.S
	@mkdir -p $(@D)
	$(RV_CC) -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -Wl,-n,-Ttext=0x80000000,--entry=0 -o $@ $<
$(SOC_TEST_DIR)/hello.elf: $(FW_DIR)/hello.elf
	@mkdir -p $(@D)
	cp $< $@

TEST_DEPS += $(addprefix $(SOC_TEST_DIR)/,$(addsuffix .elf,$(SOC_PROGS) far dram_only hello))
TESTS += soc_sim_cli
TEST_CMD.soc_sim_cli := tests/soc/check_cli.sh $(KTPU_SIM) $(SOC_TEST_DIR)
# docs/numpy.md's walk-through, its Python blocks run as one script.
TESTS += numpy_walkthrough
TEST_CMD.numpy_walkthrough := tests/soc/check_numpy_doc.sh $(BUILD)
# ktpu-sim --timeline: the JSON loads and its cluster tracks add up to the report's counters.
TESTS += soc_timeline
TEST_CMD.soc_timeline := tests/soc/check_timeline.sh $(BUILD)
# ktpu-sim --dp-model (the datapath's functional model) against the RTL
# build: the same GEMMs give the same reports, C, timelines and CSV rows.
TESTS += soc_dp_model
TEST_CMD.soc_dp_model := tests/soc/check_dp_model.sh $(BUILD)

# The CPU's DRAM window, its line buffer and next-beat buffer (tests/soc/dram_line.S).
TESTS += soc_dram_line
TEST_CMD.soc_dram_line := $(KTPU_SIM) $(SOC_TEST_DIR)/dram_line.elf && echo "DRAM window line and next-beat buffers: 31 of 31 checks passed"

# The CPU mesh port's receive FIFO (tests/soc/mesh_rxq.S).
TESTS += soc_mesh_rxq
TEST_CMD.soc_mesh_rxq := $(KTPU_SIM) $(SOC_TEST_DIR)/mesh_rxq.elf && echo "CPU mesh port receive FIFO: 16 flits held unpopped, read back in order: 7 of 7 checks passed"

# The serial port (rtl/soc/ktpu_uart.sv) at the co-simulation's divider and
# at an odd one, against the bench's own line model.
$(foreach n,4 13,$(eval $(call verilate,uart$(n),ktpu_uart,$(call rtl_srcs,uart) tests/soc/uart_tb.cpp,-GClksPerBit=$(n) -CFLAGS -DCLKS=$(n))))
TEST_DEPS += $(VL_DIR)/uart4/Vktpu_uart $(VL_DIR)/uart13/Vktpu_uart
TESTS += soc_uart
TEST_CMD.soc_uart := $(VL_DIR)/uart4/Vktpu_uart && $(VL_DIR)/uart13/Vktpu_uart
REGRESS += soc_mutants
REGRESS_CMD.soc_mutants := scripts/mutants.sh soc

# The DRAM model's contract, on its own (two ports, small memory and queue).
$(eval $(call verilate,dram_tb,dram_tb,$(call rtl_srcs,dram) tests/soc/dram_tb.sv tests/soc/dram_tb.cpp,))
TEST_DEPS += $(VL_DIR)/dram_tb/Vdram_tb
TESTS += soc_dram_model
TEST_CMD.soc_dram_model := $(VL_DIR)/dram_tb/Vdram_tb && $(VL_DIR)/dram_tb/Vdram_tb +ktpu_dram_latency=1 && \
                           $(VL_DIR)/dram_tb/Vdram_tb +ktpu_dram_latency=40 && \
                           $(VL_DIR)/dram_tb/Vdram_tb +ktpu_dram_latency=3 +ktpu_dram_slow_ports=2 +ktpu_dram_slow_latency=30

# ktpu-sim --gemm (SPEC §2, §11). tests/soc/gemm_one.c is a hand-driven
# one-cluster GEMM (not the GEMM service), built in several deliberately
# broken modes so that every harness check is seen to fail; the built-in
# GEMM firmware (firmware/gemm, build/fw/ktpu_gemm.elf) runs the shapes.
$(SOC_TEST_DIR)/gemm_one_m%.elf: tests/soc/gemm_one.c $(FW_HDRS) $(FW_LINK_DEPS)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -DGEMM_ONE_MODE=$* -c -o $(@:.elf=.o) $<
	$(RV_CC) $(FW_LDFLAGS) -o $@ $(FW_CRT0) $(@:.elf=.o) $(FW_RT_OBJS)
SOC_GEMM_ONE := $(foreach m,0 1 2 3 4 5 6 7 8 9,$(SOC_TEST_DIR)/gemm_one_m$(m).elf)

TEST_DEPS += $(SOC_GEMM_ONE) $(KTPU_EXAMPLE) $(GEMM_FW_ELF)
TESTS += soc_gemm_harness
TEST_CMD.soc_gemm_harness := tests/soc/check_gemm.sh $(BUILD) $(SOC_TEST_DIR)
TESTS += soc_gemm_fw
TEST_CMD.soc_gemm_fw := tests/soc/check_gemm_fw.sh $(BUILD)
TEST_DEPS += $(GEMM_FW_ELF) $(FW_DIR)/mut/ktpu_gemm_m12.elf $(FW_DIR)/mut/ktpu_gemm_m14.elf

# make regress: the GEMM under 20 seeds (shape, distribution, format,
# machine and DRAM latency vary with the seed).
REGRESS_DEPS += $(GEMM_FW_ELF) $(KTPU_SIM) $(KTPU_SIM1) $(KTPU_SIM4)
REGRESS += soc_gemm_seeds
REGRESS_CMD.soc_gemm_seeds := tests/soc/regress_gemm.sh $(BUILD)

# SPEC §15 grid (make bench): build/bench/gemm.csv. The largest shapes take
# minutes of host time on 1 cluster; SOC_BENCH_SHAPES narrows the grid.
SOC_BENCH_SHAPES ?=
BENCH_DEPS += $(GEMM_FW_ELF) $(KTPU_SIM) $(KTPU_SIM1) $(KTPU_SIM4)
BENCH_CMDS += tests/soc/bench_gemm.sh $(BUILD) $(BUILD)/bench/gemm.csv $(SOC_BENCH_SHAPES) ;
