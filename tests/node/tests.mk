# Cluster node bench (tests/node/node_tb.cpp): the harness plays the CPU on a
# mesh with cluster nodes, the memory agent and the DRAM model (latency 64).
# Four machines: 2 clusters on a 2x2 mesh (default), 1 cluster (2x2, one
# place empty), 4 clusters on a 3x2 mesh; CPU at (0,0), memory agent at (1,0);
# and 4 clusters with a second agent at (1,1) on a 4x2 mesh, where every
# FILL reads half its rows through each agent.
NODE_TB_SRCS := $(call rtl_srcs,node mesh mem_agent dram) tests/node/node_top.sv tests/node/node_tb.cpp
$(eval $(call verilate,node2,node_top,$(NODE_TB_SRCS),$(DSP48E2_VFLAGS)))
$(eval $(call verilate,node1,node_top,$(NODE_TB_SRCS),$(DSP48E2_VFLAGS) -GKinds=1024\'h0321 -CFLAGS -DNODE_CLUSTERS=1))
$(eval $(call verilate,node4,node_top,$(NODE_TB_SRCS),$(DSP48E2_VFLAGS) -GWidth=3 -GKinds=1024\'h333321 -CFLAGS -DNODE_CLUSTERS=4))
NODE4P2_VFLAGS := -GWidth=4 -GKinds=1024\'h03233321 -GMemPorts=2 -CFLAGS -DNODE_CLUSTERS=4 -CFLAGS -DNODE_MEM_PORTS=2
$(eval $(call verilate,node4p2,node_top,$(NODE_TB_SRCS),$(DSP48E2_VFLAGS) $(NODE4P2_VFLAGS)))

TESTS += node_gemm2 node_gemm2_lat1 node_gemm1 node_gemm4 node_gemm4p2
TEST_CMD.node_gemm2      := $(VL_DIR)/node2/Vnode_top --seed 1
TEST_CMD.node_gemm2_lat1 := $(VL_DIR)/node2/Vnode_top --seed 2 +ktpu_dram_latency=1
TEST_CMD.node_gemm1      := $(VL_DIR)/node1/Vnode_top --seed 3
TEST_CMD.node_gemm4      := $(VL_DIR)/node4/Vnode_top --seed 4
TEST_CMD.node_gemm4p2    := $(VL_DIR)/node4p2/Vnode_top --seed 4
TEST_DEPS += $(VL_DIR)/node2/Vnode_top $(VL_DIR)/node1/Vnode_top $(VL_DIR)/node4/Vnode_top $(VL_DIR)/node4p2/Vnode_top

# Cycles and % of peak of the bench GEMMs, cycles per L1 entry of a fill.
BENCH_DEPS += $(VL_DIR)/node2/Vnode_top $(VL_DIR)/node4/Vnode_top $(VL_DIR)/node4p2/Vnode_top
BENCH_CMDS += mkdir -p build/bench && $(VL_DIR)/node2/Vnode_top --seed 1 --csv build/bench/node2.csv \
  && $(VL_DIR)/node4/Vnode_top --seed 1 --csv build/bench/node4.csv \
  && $(VL_DIR)/node4p2/Vnode_top --seed 1 --csv build/bench/node4p2.csv ;

REGRESS_DEPS += $(REF_LIB) $(GEN_SV) $(GEN_H) $(VL_DIR)/node4p2/Vnode_top
REGRESS += node_mutants node_gemm4p2_seeds
REGRESS_CMD.node_mutants := scripts/mutants.sh node
REGRESS_CMD.node_gemm4p2_seeds := $(VL_DIR)/node4p2/Vnode_top --seed 5 && $(VL_DIR)/node4p2/Vnode_top --seed 6 +ktpu_dram_latency=200
