# Tensor datapath benches (docs/datapath.md); flags as in tests/dsp/tests.mk.
$(eval $(call verilate,tensor_cluster_dp,tb_cluster_dp,$(call rtl_srcs,cluster_dp) \
  tests/tensor/tb_cluster_dp.sv tests/tensor/cluster_dp_tb.cpp,$(DP_VFLAGS)))

$(eval $(call verilate,tensor_tcu,tb_tcu,$(call rtl_srcs,tcu) \
  tests/tensor/tb_tcu.sv tests/tensor/tcu_tb.cpp,$(DP_VFLAGS)))

TESTS += tensor_tcu
TEST_CMD.tensor_tcu := $(VL_DIR)/tensor_tcu/Vtb_tcu --seed 1 --cycles 5000
TEST_DEPS += $(VL_DIR)/tensor_tcu/Vtb_tcu

TESTS += tensor_cluster_dp
TEST_CMD.tensor_cluster_dp := $(VL_DIR)/tensor_cluster_dp/Vtb_cluster_dp --seed 1 --pairs 2000
TEST_DEPS += $(VL_DIR)/tensor_cluster_dp/Vtb_cluster_dp

# The same bench, the same checks, against the datapath's functional model
# (sim/model/ktpu_cluster_dp.sv, the --dp-model co-simulators): it must pass
# as the RTL does.
$(eval $(call verilate,tensor_cluster_dp_model,tb_cluster_dp,$(call dp_model,$(filter-out $(DSP48E2_SRCS),\
  $(call rtl_srcs,cluster_dp))) tests/tensor/tb_cluster_dp.sv tests/tensor/cluster_dp_tb.cpp,$(DP_VFLAGS)))
TESTS += tensor_cluster_dp_model
TEST_CMD.tensor_cluster_dp_model := $(VL_DIR)/tensor_cluster_dp_model/Vtb_cluster_dp --seed 1 --pairs 2000
TEST_DEPS += $(VL_DIR)/tensor_cluster_dp_model/Vtb_cluster_dp

# Deliberately broken datapaths (mx_mac, TCU, cluster, model, RAM): each must
# fail a bench. About 15 rebuilds, so in `make regress`, not `make test`.
REGRESS_DEPS += $(REF_LIB) $(GEN_SV)
REGRESS += tensor_mutants
REGRESS_CMD.tensor_mutants := scripts/mutants.sh tensor
