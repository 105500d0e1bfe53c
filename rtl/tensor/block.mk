# Tensor CU and cluster datapath (docs/datapath.md).
RTL.tcu        := rtl/tensor/ktpu_tcu.sv
RTL_USES.tcu   := mx_mac delay
RTL.cluster_dp := rtl/tensor/ktpu_cluster_dp.sv
RTL_USES.cluster_dp := tcu

SYNTH_BLOCKS += tcu cluster_dp
SYNTH_TOP.tcu         := ktpu_tcu
SYNTH_SRCS.tcu         = $(call rtl_srcs,tcu)
SYNTH_TOP.cluster_dp  := ktpu_cluster_dp
SYNTH_SRCS.cluster_dp  = $(call rtl_srcs,cluster_dp)
