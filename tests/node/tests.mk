# Cluster node bench (tests/node/node_tb.cpp): the harness plays the CPU on a
# mesh with cluster nodes, the memory agent and the DRAM model (latency 64).
NODE_TB_SRCS := $(sort $(NODE_SRCS) $(NOC_SRCS) $(MEM_AGENT_SRCS) rtl/mem/ktpu_dram.sv \
  tests/node/node_top.sv) tests/node/node_tb.cpp
$(eval $(call verilate,node2,node_top,$(NODE_TB_SRCS),$(DSP48E2_VFLAGS)))
$(eval $(call verilate,node1,node_top,$(NODE_TB_SRCS),$(DSP48E2_VFLAGS) -GKinds=1024\'h0321 -CFLAGS -DNODE_CLUSTERS=1))
$(eval $(call verilate,node4,node_top,$(NODE_TB_SRCS),$(DSP48E2_VFLAGS) -GWidth=3 -GKinds=1024\'h333321 -CFLAGS -DNODE_CLUSTERS=4))

TESTS += node_gemm2
TEST_CMD.node_gemm2 := $(VL_DIR)/node2/Vnode_top --seed 1
TEST_DEPS += $(VL_DIR)/node2/Vnode_top
