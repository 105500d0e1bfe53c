# Tests of the C reference (sim/ref) against the slow independent models in
# tests/ref/model.c, plus the ktpu-ref command and the rv32 build.
REF_TEST_DIR  := $(BUILD)/tests/ref
REF_TEST_PROGS := dsp store quant r16 r22 gemm
REF_TEST_BINS := $(addprefix $(REF_TEST_DIR)/,$(REF_TEST_PROGS))

$(REF_TEST_DIR)/%: tests/ref/test_%.c tests/ref/model.c tests/ref/model.h $(REF_LIB) $(REF_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(REF_INC) -Itests/ref -o $@ $< tests/ref/model.c $(REF_LIB)

TEST_DEPS += $(REF_TEST_BINS)
TESTS += $(addprefix ref_,$(REF_TEST_PROGS))
$(foreach t,$(REF_TEST_PROGS),$(eval TEST_CMD.ref_$(t) := $(REF_TEST_DIR)/$(t)))
