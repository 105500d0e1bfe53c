# The SoC (docs/soc.md): the sequencer (CPU, local RAM, MMIO, DRAM window)
# and the whole machine around it: mesh planes, memory agent, cluster nodes.
RTL.uart    := rtl/soc/ktpu_uart.sv
RTL.soc_seq := rtl/soc/ktpu_soc_mmio.sv rtl/soc/ktpu_soc_seq.sv
RTL_USES.soc_seq := ram fifo cpu uart
RTL.soc := rtl/soc/ktpu_soc.sv
RTL_USES.soc := soc_seq mesh mem_agent node

# The synthesis table shows the sequencer SoC: the whole machine is the sum
# of it, 2 x (W x H) routers, the memory agent and the cluster nodes, which
# are their own rows (docs/soc.md, "Synthesis").
SYNTH_BLOCKS += soc
SYNTH_TOP.soc  := ktpu_soc_seq
SYNTH_SRCS.soc  = $(call rtl_srcs,soc_seq)
# The MMIO alone (timer, counters, UART and mesh-port registers): the part of
# the sequencer held to the clusters' bound (docs/timing.md).
SYNTH_BLOCKS += mmio
SYNTH_TOP.mmio := ktpu_soc_mmio
SYNTH_SRCS.mmio = $(call rtl_srcs,soc_seq)
