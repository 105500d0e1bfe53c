# DSP benches (docs/datapath.md). Every bench using the primitive lists
# $(DSP48E2_SRCS) and passes $(DSP48E2_VFLAGS), so DSP48E2_MODEL=... rebuilds
# it against the vendor model unchanged. -Werror-USERFATAL: an attribute value
# the model refuses ($fatal at elaboration) must stop the build, even though
# the shared flags carry -Wno-fatal.
DP_VFLAGS := $(DSP48E2_VFLAGS) -Werror-USERFATAL -CFLAGS -I$(abspath tests/dsp)

$(eval $(call verilate,dsp_mx_mac,tb_mx_mac,$(DSP48E2_SRCS) $(MX_MAC_SRCS) \
  tests/dsp/tb_mx_mac.sv tests/dsp/mx_mac_tb.cpp,$(DP_VFLAGS)))

TESTS += dsp_mx_mac
TEST_CMD.dsp_mx_mac := $(VL_DIR)/dsp_mx_mac/Vtb_mx_mac 1 20000
TEST_DEPS += $(VL_DIR)/dsp_mx_mac/Vtb_mx_mac

# The model's ports and attributes against the vendor library description,
# and every input of every DSP48E2 instance connected by name.
TESTS += dsp_iface
TEST_CMD.dsp_iface := tests/dsp/dsp48e2_iface.sh
