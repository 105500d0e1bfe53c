# The SoC around the core: local RAM, MMIO, DRAM window. docs/soc.md.
# The RAM wrapper belongs to rtl/prim; it is named here by path because
# fragments are read in directory order.
KTPU_RAM_SRC := rtl/prim/ktpu_ram.sv
SOC_SRCS := $(KTPU_RAM_SRC) $(CPU_SRCS) rtl/soc/ktpu_soc_mmio.sv rtl/soc/ktpu_soc.sv

ifneq ($(wildcard $(KTPU_RAM_SRC)),)
SYNTH_BLOCKS += soc
SYNTH_TOP.soc  := ktpu_soc
SYNTH_SRCS.soc := $(SOC_SRCS)
endif
