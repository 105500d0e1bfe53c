# Tensor CU and cluster datapath (docs/datapath.md).
TCU_SRCS        := $(MX_MAC_SRCS) $(DELAY_SRCS) rtl/tensor/ktpu_tcu.sv
CLUSTER_DP_SRCS := $(TCU_SRCS) rtl/tensor/ktpu_cluster_dp.sv

SYNTH_BLOCKS += tcu cluster_dp
SYNTH_TOP.tcu         := ktpu_tcu
SYNTH_SRCS.tcu        := $(TCU_SRCS)
SYNTH_TOP.cluster_dp  := ktpu_cluster_dp
SYNTH_SRCS.cluster_dp := $(CLUSTER_DP_SRCS)
