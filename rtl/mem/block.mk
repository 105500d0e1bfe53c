# Memory agent (SPEC §8): quantiser, stream iterator, agent. docs/mem.md.
# (ktpu_dram.sv, the simulation DRAM model, is listed where it is used.)
QUANT_SRCS := rtl/mem/ktpu_quant.sv
MEM_AGENT_SRCS := rtl/prim/ktpu_ram.sv rtl/prim/ktpu_fifo.sv $(QUANT_SRCS) \
                  rtl/mem/ktpu_mem_iter.sv rtl/mem/ktpu_mem_agent.sv

SYNTH_BLOCKS += quant mem_agent
SYNTH_TOP.quant      := ktpu_quant
SYNTH_SRCS.quant     := $(QUANT_SRCS)
SYNTH_TOP.mem_agent  := ktpu_mem_agent
SYNTH_SRCS.mem_agent := $(MEM_AGENT_SRCS)
