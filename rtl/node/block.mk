# Cluster node (docs/node.md): instruction queue, sequencer, fills, drain, node top around the cluster
# datapath, the accumulator and the L1 lane banks.
RTL.node := rtl/node/ktpu_node_iq.sv rtl/node/ktpu_node_seq.sv rtl/node/ktpu_node_fill.sv rtl/node/ktpu_node_drain.sv \
            rtl/node/ktpu_node.sv
RTL_USES.node := ram fifo delay clk_gate cluster_dp acc

SYNTH_BLOCKS += node
SYNTH_TOP.node  := ktpu_node
SYNTH_SRCS.node  = $(call rtl_srcs,node)
# ... as the 4-cluster machine builds it, with two memory agents (the split
# FILL and the drains' band order: docs/node.md "Two memory agents")
SYNTH_BLOCKS += node2p
SYNTH_TOP.node2p := ktpu_node\#MemPorts=2
SYNTH_SRCS.node2p = $(call rtl_srcs,node)
