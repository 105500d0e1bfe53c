# Cluster node (docs/node.md): sequencer, drain, node top around the cluster
# datapath, the accumulator and the L1 lane banks.
NODE_SRCS := rtl/prim/ktpu_ram.sv rtl/prim/ktpu_fifo.sv rtl/prim/ktpu_delay.sv \
  $(DSP48E2_SRCS) rtl/dsp/ktpu_mx_mac.sv rtl/tensor/ktpu_tcu.sv rtl/tensor/ktpu_cluster_dp.sv \
  rtl/acc/ktpu_acc_r16.sv rtl/acc/ktpu_acc_lane.sv rtl/acc/ktpu_acc.sv \
  rtl/node/ktpu_node_seq.sv rtl/node/ktpu_node_drain.sv rtl/node/ktpu_node.sv

SYNTH_BLOCKS += node
SYNTH_TOP.node  := ktpu_node
SYNTH_SRCS.node := $(NODE_SRCS)
