# SoC and co-simulator tests: the ktpu-sim command-line contract (SPEC §2),
# UART, mailbox, DRAM latency option, ELF loader errors.
SOC_TEST_DIR := $(BUILD)/tests/soc
SOC_PROGS := spin exit42 dram_latency echo

$(SOC_TEST_DIR)/%.elf: tests/soc/%.S tests/cpu/isa.h tests/cpu/asm.ld $(FW_DEFS_ASM) $(FW_MEM_LD)
	@mkdir -p $(@D)
	$(RV_CC) -march=rv32im_zicsr -mabi=ilp32 -nostdlib -nostartfiles -I$(FW_DIR) -Itests/cpu \
	    -Ttests/cpu/asm.ld -L$(FW_DIR) -Wl,--no-warn-rwx-segments -o $@ $<
# Linked at an address with no memory behind it.
$(SOC_TEST_DIR)/far.elf: tests/soc/far.S
	@mkdir -p $(@D)
	$(RV_CC) -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -Wl,-Ttext=0x40000000 -o $@ $<
$(SOC_TEST_DIR)/hello.elf: $(FW_DIR)/hello.elf
	@mkdir -p $(@D)
	cp $< $@

ifneq ($(wildcard $(KTPU_RAM_SRC)),)
TEST_DEPS += $(addprefix $(SOC_TEST_DIR)/,$(addsuffix .elf,$(SOC_PROGS) far hello))
TESTS += soc_sim_cli
TEST_CMD.soc_sim_cli := tests/soc/check_cli.sh $(KTPU_SIM) $(SOC_TEST_DIR)
endif

# The DRAM model's contract, on its own (two ports, small memory and queue).
$(eval $(call verilate,dram_tb,dram_tb,rtl/mem/ktpu_dram.sv tests/soc/dram_tb.sv tests/soc/dram_tb.cpp,))
TEST_DEPS += $(VL_DIR)/dram_tb/Vdram_tb
TESTS += soc_dram_model
TEST_CMD.soc_dram_model := $(VL_DIR)/dram_tb/Vdram_tb && $(VL_DIR)/dram_tb/Vdram_tb +ktpu_dram_latency=1 && $(VL_DIR)/dram_tb/Vdram_tb +ktpu_dram_latency=40
