# The board build as far as it runs here (docs/fpga.md): the on-chip DRAM
# against the SoC's DRAM contract, the top's lint, and the flow
# (tests/fpga/check_flow.sh: lane files, build.tcl under stub Vivado
# commands, make bitstream / flash without the tools).
$(eval $(call verilate,fpga_dram,ktpu_fpga_dram,$(call rtl_srcs,fpga_dram) tests/fpga/fpga_dram_tb.cpp,-GAddrBits=12))
TEST_DEPS += $(VL_DIR)/fpga_dram/Vktpu_fpga_dram
TESTS += fpga_dram fpga_lint
TEST_CMD.fpga_dram := $(VL_DIR)/fpga_dram/Vktpu_fpga_dram
# the top's own list, with the DSP48E2 model as a library for the primitive
TEST_CMD.fpga_lint := tests/cpu/lint.sh $(GEN_SV) ktpu_fpga_top -f $(FILELIST_DIR)/ktpu_fpga_top.f -v rtl/dsp/DSP48E2.sv

TEST_DEPS += $(KTPU_MEM) $(FPGA_MEMS) $(FILELIST_DIR)/ktpu_fpga_top.f $(BUILD)/tests/boot/stage.elf
TESTS += fpga_flow
TEST_CMD.fpga_flow := tests/fpga/check_flow.sh $(BUILD)
