# The SoC (docs/soc.md): the sequencer (CPU, local RAM, MMIO, DRAM window)
# and the whole machine around it: mesh planes, memory agent, cluster nodes.
# The RAM wrapper belongs to rtl/prim; it is named here by path because
# fragments are read in directory order (NODE_SRCS, NOC_SRCS and
# MEM_AGENT_SRCS come from rtl/node, rtl/noc and rtl/mem, read before this).
KTPU_RAM_SRC := rtl/prim/ktpu_ram.sv
SOC_SEQ_SRCS := $(KTPU_RAM_SRC) $(CPU_SRCS) rtl/soc/ktpu_soc_mmio.sv rtl/soc/ktpu_soc_seq.sv
SOC_SRCS := $(sort $(SOC_SEQ_SRCS) $(NODE_SRCS) $(NOC_SRCS) $(MEM_AGENT_SRCS)) rtl/soc/ktpu_soc.sv

# The synthesis table shows the sequencer SoC: the whole machine is the sum
# of it, 2 x (W x H) routers, the memory agent and the cluster nodes, which
# are their own rows (docs/soc.md, "Synthesis").
ifneq ($(wildcard $(KTPU_RAM_SRC)),)
SYNTH_BLOCKS += soc
SYNTH_TOP.soc  := ktpu_soc_seq
SYNTH_SRCS.soc := $(SOC_SEQ_SRCS)
endif
