# Memory agent (SPEC §8): quantiser, agent. docs/mem.md. (ktpu_dram.sv, the
# simulation DRAM model, is the SoC's and is listed where it is used.)
QUANT_SRCS := rtl/mem/ktpu_quant.sv

SYNTH_BLOCKS += quant
SYNTH_TOP.quant  := ktpu_quant
SYNTH_SRCS.quant := $(QUANT_SRCS)
