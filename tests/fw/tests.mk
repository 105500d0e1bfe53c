# Firmware tests. fw_plan: the GEMM planner and instruction encoders on the
# host (tests/fw/plan_test.c); fw_plan_mutants: every deliberately broken
# planner fails it.
FW_TEST_DIR  := $(BUILD)/tests/fw
FW_HOST_SRCS := firmware/gemm/ktpu_plan.c firmware/lib/ktpu_ci.c
FW_HOST_HDRS := firmware/include/ktpu_plan.h firmware/include/ktpu_ci.h $(GEN_H)

$(FW_TEST_DIR)/plan_test: tests/fw/plan_test.c $(FW_HOST_SRCS) $(FW_HOST_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Ifirmware/include -o $@ tests/fw/plan_test.c $(FW_HOST_SRCS)

TEST_DEPS += $(FW_TEST_DIR)/plan_test
TESTS += fw_plan fw_plan_mutants
TEST_CMD.fw_plan := $(FW_TEST_DIR)/plan_test
TEST_CMD.fw_plan_mutants := tests/fw/plan_mutants.sh $(FW_TEST_DIR)/mut $(HOST_CC) $(HOST_CFLAGS) -Ifirmware/include
