# Functional models that stand in for RTL in builds meant for speed, each
# equal to its RTL at the ports (the tests that show it are named in the
# model's header). Only the --dp-model co-simulators use them
# (sim/harness/block.mk); no regression binary of `make test` but the
# model's own checks is built from them.
#
# $(call dp_model,FILES): a file list with the cluster datapath's model in
# place of its RTL, the tensor CUs and MACs it no longer instantiates left
# out; RTL_PATCH (the mutant sweep) applies to the model as to any file.
DP_MODEL_SV := sim/model/ktpu_cluster_dp.sv
dp_model = $(call rtl_patch,$(filter-out $(RTL.tcu) $(RTL.mx_mac),$(patsubst $(RTL.cluster_dp),$(DP_MODEL_SV),$(1))))
