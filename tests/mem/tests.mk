# Quantiser against the C reference (tests/mem/quant_tb.cpp); memory agent on
# the DRAM model, the harness playing the mesh (tests/mem/mem_agent_tb.cpp).
$(eval $(call verilate,mem_quant,ktpu_quant,$(call rtl_srcs,quant) tests/mem/quant_tb.cpp,))
$(eval $(call verilate,mem_agent,mem_agent_top,$(call rtl_srcs,mem_agent dram) \
  tests/mem/mem_agent_top.sv tests/mem/mem_agent_tb.cpp,))
# the agent as the two-agent machine builds it (MEM_STREAMS_SPLIT streams)
$(eval $(call verilate,mem_agent8,mem_agent_top,$(call rtl_srcs,mem_agent dram) \
  tests/mem/mem_agent_top.sv tests/mem/mem_agent_tb.cpp,-GSplit=1))

TESTS += mem_quant mem_agent mem_agent_lat1 mem_agent8
TEST_CMD.mem_quant      := $(VL_DIR)/mem_quant/Vktpu_quant --seed 1
TEST_CMD.mem_agent      := $(VL_DIR)/mem_agent/Vmem_agent_top --seed 1
TEST_CMD.mem_agent_lat1 := $(VL_DIR)/mem_agent/Vmem_agent_top --seed 2 +ktpu_dram_latency=1
TEST_CMD.mem_agent8     := $(VL_DIR)/mem_agent8/Vmem_agent_top --seed 3
TEST_DEPS += $(VL_DIR)/mem_quant/Vktpu_quant $(VL_DIR)/mem_agent/Vmem_agent_top $(VL_DIR)/mem_agent8/Vmem_agent_top

BENCH_DEPS += $(VL_DIR)/mem_agent/Vmem_agent_top
BENCH_CMDS += tests/mem/bench.sh ;

REGRESS_DEPS += $(REF_LIB) $(GEN_SV)
REGRESS += mem_mutants
REGRESS_CMD.mem_mutants := scripts/mutants.sh mem

# A DRAM port over AXI4: bridge, protocol checker, AXI4 slave, DRAM model
# (tests/mem/axi_tb.cpp), at the default latency and at latency 1.
$(eval $(call verilate,mem_axi,axi_top,$(call rtl_srcs,axi_port dram) \
  tests/mem/axi_top.sv tests/mem/axi_tb.cpp,))
TESTS += mem_axi mem_axi_lat1
TEST_CMD.mem_axi      := $(VL_DIR)/mem_axi/Vaxi_top --seed 1
TEST_CMD.mem_axi_lat1 := $(VL_DIR)/mem_axi/Vaxi_top --seed 2 +ktpu_dram_latency=1
TEST_DEPS += $(VL_DIR)/mem_axi/Vaxi_top
