# DSP benches (docs/datapath.md). Every bench using the primitive lists
# $(DSP48E2_SRCS) and passes $(DSP48E2_VFLAGS), so DSP48E2_MODEL=... rebuilds
# it against the vendor model unchanged. -Werror-USERFATAL: an attribute value
# the model refuses ($fatal at elaboration) must stop the build, even though
# the shared flags carry -Wno-fatal.
DP_VFLAGS := $(DSP48E2_VFLAGS) -Werror-USERFATAL

$(eval $(call verilate,dsp_mx_mac,tb_mx_mac,$(call rtl_srcs,mx_mac) \
  tests/dsp/tb_mx_mac.sv tests/dsp/mx_mac_tb.cpp,$(DP_VFLAGS)))

TESTS += dsp_mx_mac
TEST_CMD.dsp_mx_mac := $(VL_DIR)/dsp_mx_mac/Vtb_mx_mac --seed 1 --cycles 20000
TEST_DEPS += $(VL_DIR)/dsp_mx_mac/Vtb_mx_mac

# The model's ports and attributes against the vendor library description,
# and every input of every DSP48E2 instance connected by name.
TESTS += dsp_iface
TEST_CMD.dsp_iface := tests/dsp/dsp48e2_iface.sh

# The same two benches, unchanged, against a stand-in for the vendor model
# (tests/dsp/vendor_mock/: `timescale 1 ps, glbl.GSR for 100 ns, #1 attribute
# decode, built with the vendor flags): proves the DSP48E2_MODEL plumbing,
# --timing and the harness's GSR idle. The vendor's arithmetic needs the real
# file: make test DSP48E2_MODEL=/path/DSP48E2.v.
VENDOR_MOCK       := $(BUILD)/vendor_mock/DSP48E2.v
VENDOR_MOCK_SRCS  := $(VENDOR_MOCK) tests/dsp/vendor_mock/glbl.v
VENDOR_MOCK_FLAGS := --timing +define+KTPU_GLBL -Werror-USERFATAL
$(VENDOR_MOCK): rtl/dsp/DSP48E2.sv tests/dsp/vendor_mock/make_mock.sh
	tests/dsp/vendor_mock/make_mock.sh $@
$(eval $(call verilate,dsp_mx_mac_mock,tb_mx_mac,$(VENDOR_MOCK_SRCS) $(filter-out $(DSP48E2_SRCS),$(call rtl_srcs,mx_mac)) \
  tests/dsp/tb_mx_mac.sv tests/dsp/mx_mac_tb.cpp,$(VENDOR_MOCK_FLAGS)))
$(eval $(call verilate,tensor_cluster_dp_mock,tb_cluster_dp,$(VENDOR_MOCK_SRCS) \
  $(filter-out $(DSP48E2_SRCS),$(call rtl_srcs,cluster_dp)) tests/tensor/tb_cluster_dp.sv tests/tensor/cluster_dp_tb.cpp,$(VENDOR_MOCK_FLAGS)))

TESTS += dsp_vendor_mock
TEST_CMD.dsp_vendor_mock := $(VL_DIR)/dsp_mx_mac_mock/Vtb_mx_mac --seed 2 --cycles 5000 && \
  $(VL_DIR)/tensor_cluster_dp_mock/Vtb_cluster_dp --seed 2 --pairs 300
TEST_DEPS += $(VL_DIR)/dsp_mx_mac_mock/Vtb_mx_mac $(VL_DIR)/tensor_cluster_dp_mock/Vtb_cluster_dp

# The DSP48E2 model itself: four register configurations against a
# register-level second model, random enables and resets (docs/datapath.md §5).
$(eval $(call verilate,dsp_cfg,tb_dsp_cfg,$(call rtl_srcs,dsp48e2) tests/dsp/tb_dsp_cfg.sv \
  tests/dsp/dsp_cfg_tb.cpp,$(DP_VFLAGS)))
TESTS += dsp_cfg
TEST_CMD.dsp_cfg := $(VL_DIR)/dsp_cfg/Vtb_dsp_cfg --seed 1 --cycles 20000
TEST_DEPS += $(VL_DIR)/dsp_cfg/Vtb_dsp_cfg

# scripts/dsp/vendor_prep.sh (what DSP48E2_MODEL=... builds through) on the
# vendor model's forms.
TESTS += dsp_vendor_prep
TEST_CMD.dsp_vendor_prep := tests/dsp/check_vendor_prep.sh
