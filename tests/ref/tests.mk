# Tests of the C reference (sim/ref) against the slow independent models in
# tests/ref/model.c, plus the ktpu-ref command and the rv32 build.
REF_TEST_DIR  := $(BUILD)/tests/ref
REF_TEST_PROGS := dsp store quant r16 r22 gemm npy
REF_TEST_BINS := $(addprefix $(REF_TEST_DIR)/,$(REF_TEST_PROGS))

$(REF_TEST_DIR)/%: tests/ref/test_%.c tests/ref/model.c tests/ref/model.h $(REF_LIB) $(REF_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(REF_INC) -Itests/ref -o $@ $< tests/ref/model.c $(REF_LIB) -lm

TEST_DEPS += $(REF_TEST_BINS)
TESTS += $(addprefix ref_,$(REF_TEST_PROGS))
$(foreach t,$(REF_TEST_PROGS),$(eval TEST_CMD.ref_$(t) := $(REF_TEST_DIR)/$(t)))

# The CLI, good and bad input.
TESTS += ref_cli
TEST_CMD.ref_cli := tests/ref/cli_test.sh $(KTPU_REF) $(KTPU_EXAMPLE)
TEST_DEPS += $(KTPU_EXAMPLE)

# The hand-derived self-test, on the host and linked for rv32im/picolibc
# against $(REF_LIB_RV32). This bare rv32 ELF is built and inspected (a
# 32-bit RISC-V executable with the reference linked in); ref_selftest_soc
# below runs the same source on the simulated core. It links with
# RV_LD_ARCH, which picks picolibc's rv32 multilib (firmware/toolchain.mk).
REF_SELFTEST_RV32 := $(BUILD)/rv32/ref_selftest.elf
$(REF_TEST_DIR)/selftest: tests/ref/selftest.c $(REF_LIB) $(REF_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -DKTPU_SELFTEST_STDIO -I$(REF_INC) -o $@ $< $(REF_LIB)
$(REF_SELFTEST_RV32): tests/ref/selftest.c $(REF_LIB_RV32) $(REF_HDRS)
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) -I$(REF_INC) $(RV_LD_ARCH) -Wl,--gc-sections -o $@ $< $(REF_LIB_RV32)
TEST_DEPS += $(REF_TEST_DIR)/selftest $(REF_SELFTEST_RV32)
TESTS += ref_selftest ref_rv32_build
TEST_CMD.ref_selftest := $(REF_TEST_DIR)/selftest
TEST_CMD.ref_rv32_build := tests/ref/rv32_check.sh $(REF_SELFTEST_RV32) $(REF_LIB_RV32) $(RV_PREFIX)

# Deliberately broken references (34 mutants of sim/ref, each must make a
# test above fail); minutes, so `make regress` rather than `make test`.
REGRESS_DEPS += $(GEN_H)
REGRESS += ref_mutants
REGRESS_CMD.ref_mutants := tests/ref/mutants.sh

# The same self-test run on the simulated SoC: the rv32 reference library on
# our own core, linked with the firmware runtime (printf on the UART, the
# failure count through exit() to SIM_EXIT). This is the check an FPGA user
# runs with no host attached.
REF_SELFTEST_SOC := $(FW_DIR)/ref_selftest.elf
$(REF_SELFTEST_SOC): tests/ref/selftest.c $(REF_LIB_RV32) $(REF_HDRS) $(FW_LINK_DEPS)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -I$(REF_INC) -DKTPU_SELFTEST_STDIO -c -o $(@:.elf=.o) $<
	$(RV_CC) $(FW_LDFLAGS) -o $@ $(FW_CRT0) $(@:.elf=.o) $(REF_LIB_RV32) $(FW_RT_OBJS)
TEST_DEPS += $(REF_SELFTEST_SOC) $(KTPU_SIM)
TESTS += ref_selftest_soc
TEST_CMD.ref_selftest_soc := $(KTPU_SIM) $(REF_SELFTEST_SOC)
