# Memory agent (SPEC §8): quantiser, stream iterator, agent. docs/mem.md.
# ktpu_dram.sv is the simulation DRAM model (block dram), never synthesised.
RTL.quant     := rtl/mem/ktpu_quant.sv
RTL.mem_agent := rtl/mem/ktpu_mem_iter.sv rtl/mem/ktpu_mem_agent.sv
RTL_USES.mem_agent := quant fifo
RTL.dram      := rtl/mem/ktpu_dram.sv

SYNTH_BLOCKS += quant mem_agent
SYNTH_TOP.quant      := ktpu_quant
SYNTH_SRCS.quant      = $(call rtl_srcs,quant)
SYNTH_TOP.mem_agent  := ktpu_mem_agent
SYNTH_SRCS.mem_agent  = $(call rtl_srcs,mem_agent)
