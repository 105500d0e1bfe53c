# Memory agent (SPEC §8): quantiser, stream iterator, agent. docs/mem.md.
# ktpu_dram.sv is the simulation DRAM model (block dram), never synthesised.
# DRAM over AXI4 (docs/soc.md): axi_bridge turns a SoC DRAM port into an
# AXI4 master; axi_port is one port's whole path to a native-protocol
# memory (bridge, link checker in simulation only, AXI4 slave), used by
# both tops.
RTL.quant      := rtl/mem/ktpu_quant.sv
RTL.mem_agent  := rtl/mem/ktpu_mem_iter.sv rtl/mem/ktpu_mem_check.sv rtl/mem/ktpu_mem_front.sv rtl/mem/ktpu_mem_gather.sv rtl/mem/ktpu_mem_agent.sv
RTL_USES.mem_agent := quant fifo clk_gate
RTL.dram       := rtl/mem/ktpu_dram.sv
RTL_USES.dram  := clk_gate
RTL.axi_bridge := rtl/mem/ktpu_axi_bridge.sv
RTL_USES.axi_bridge := fifo
RTL.axi_port   := rtl/mem/ktpu_axi_check.sv rtl/mem/ktpu_dram_axi.sv rtl/mem/ktpu_axi_dram_port.sv
RTL_USES.axi_port := axi_bridge clk_gate

SYNTH_BLOCKS += quant mem_agent axi_bridge
SYNTH_TOP.quant       := ktpu_quant
SYNTH_SRCS.quant       = $(call rtl_srcs,quant)
SYNTH_TOP.mem_agent   := ktpu_mem_agent
SYNTH_SRCS.mem_agent   = $(call rtl_srcs,mem_agent)
SYNTH_TOP.axi_bridge  := ktpu_axi_bridge
SYNTH_SRCS.axi_bridge  = $(call rtl_srcs,axi_bridge)
