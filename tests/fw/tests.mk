# Firmware tests. fw_plan: the GEMM planner and instruction encoders on the
# host (tests/fw/plan_test.c); fw_plan_mutants: every deliberately broken
# planner fails it. fw_job, fw_job_mutants: the job block's check (below).
FW_TEST_DIR  := $(BUILD)/tests/fw
FW_HOST_SRCS := firmware/gemm/ktpu_plan.c firmware/lib/ktpu_ci.c
FW_HOST_HDRS := firmware/include/ktpu_plan.h firmware/include/ktpu_ci.h $(GEN_H)

# (split-K's K ranges come from the reference's ktpu_ref_split_range)
$(FW_TEST_DIR)/plan_test: tests/fw/plan_test.c $(FW_HOST_SRCS) $(FW_HOST_HDRS) $(REF_LIB)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Ifirmware/include -I$(REF_INC) -o $@ tests/fw/plan_test.c $(FW_HOST_SRCS) $(REF_LIB)

TEST_DEPS += $(FW_TEST_DIR)/plan_test
TESTS += fw_plan fw_plan_mutants
TEST_CMD.fw_plan := $(FW_TEST_DIR)/plan_test
TEST_CMD.fw_plan_mutants := tests/fw/plan_mutants.sh $(FW_TEST_DIR)/mut $(REF_LIB) $(HOST_CC) $(HOST_CFLAGS) \
                            -Ifirmware/include -I$(REF_INC)

# fw_job: the job block's check (firmware/gemm/ktpu_job.c) on the host,
# rule by rule and at every limit (tests/fw/job_test.c), against a second
# model of the rules (tests/fw/job_inv.c, also used by tests/fuzz);
# fw_job_mutants: every rule removed, and every limit moved, fails it.
# (with the planner: every job the check accepts must pass the planner's
# own checks, which the service then skips)
FW_JOB_SRCS := tests/fw/job_test.c tests/fw/job_inv.c firmware/gemm/ktpu_job.c firmware/gemm/ktpu_plan.c \
               firmware/lib/ktpu_ci.c
$(FW_TEST_DIR)/job_test: $(FW_JOB_SRCS) tests/fw/job_inv.h firmware/include/ktpu_job.h \
                         firmware/include/ktpu_plan.h firmware/include/ktpu_ci.h $(GEN_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Ifirmware/include -Itests/fw -o $@ $(FW_JOB_SRCS)

TEST_DEPS += $(FW_TEST_DIR)/job_test
TESTS += fw_job fw_job_mutants
TEST_CMD.fw_job := $(FW_TEST_DIR)/job_test
TEST_CMD.fw_job_mutants := tests/fw/job_mutants.sh $(FW_TEST_DIR)/jmut $(HOST_CC) $(HOST_CFLAGS) -Ifirmware/include -Itests/fw

# The GEMM service on the simulated SoC: the on-chip self-test (C against
# the rv32 reference, bad jobs, a refused operand, a stuck cluster).
ifdef KTPU_SIM
TESTS += fw_gemm_selftest
TEST_CMD.fw_gemm_selftest := $(KTPU_SIM) $(GEMM_ST_ELF)
TEST_DEPS += $(KTPU_SIM) $(GEMM_ST_ELF)

# fw_sdk: the firmware SDK from outside the tree (firmware/ktpu.mk): the
# template and examples copied to a temporary folder, built by their
# three-line makefiles, run; output and exit status checked.
TESTS += fw_sdk
TEST_CMD.fw_sdk := tests/fw/check_sdk.sh
TEST_DEPS += $(KTPU_SIM) $(GEN_H) $(FW_MEM_LD) $(FW_DEFS_ASM) $(FW_RT_LIB) $(FW_GEMM_LIB) $(REF_LIB_RV32)

# make regress: the self-test on 1 and 4 clusters, and on broken planners.
# (split-K reduced in a chain, mutant 12, differs from the tree only from 4
# parts on: the 4-cluster machine; mutant 16, a regular plan's BT streamed
# where it fits, changes no result: fw_plan's comparison kills it)
GEMM_MUTANTS := 1 2 5 8 9 11 13 14 15 17
GEMM_MUT_ELFS := $(foreach n,$(GEMM_MUTANTS),$(FW_DIR)/mut/ktpu_gemm_selftest_m$(n).elf)
REGRESS_DEPS += $(GEMM_ST_ELF) $(GEMM_MUT_ELFS) $(FW_DIR)/mut/ktpu_gemm_selftest_m12.elf $(KTPU_SIM) \
                $(KTPU_SIM1) $(KTPU_SIM4)
REGRESS += fw_selftest_1cl fw_selftest_4cl
REGRESS_CMD.fw_selftest_1cl := $(KTPU_SIM1) $(GEMM_ST_ELF)
REGRESS_CMD.fw_selftest_4cl := $(KTPU_SIM4) $(GEMM_ST_ELF)
# every instruction of the self-test checked against the instruction-set
# model (about 8 minutes: 11.5M records)
REGRESS += fw_selftest_lockstep fw_gemm_mutants fw_gemm_mutants_4cl
REGRESS_CMD.fw_selftest_lockstep := $(KTPU_SIM) --lockstep --progress 60 $(GEMM_ST_ELF)
REGRESS_CMD.fw_gemm_mutants := tests/fw/gemm_mutants.sh $(KTPU_SIM) $(GEMM_MUT_ELFS)
REGRESS_CMD.fw_gemm_mutants_4cl := tests/fw/gemm_mutants.sh $(KTPU_SIM4) $(FW_DIR)/mut/ktpu_gemm_selftest_m12.elf
# ... and on a service that does not wait for quantise-on-upload's answers
REGRESS_DEPS += $(FW_DIR)/mut/ktpu_gemm_selftest_upload_nowait.elf
REGRESS += fw_upload_mutant
REGRESS_CMD.fw_upload_mutant := tests/fw/gemm_mutants.sh $(KTPU_SIM) $(FW_DIR)/mut/ktpu_gemm_selftest_upload_nowait.elf

# make bench: the service's own cycles (JOB_CYCLES, no harness) on the
# SPEC §15 grid on the 2-cluster machine, 1 and 2 clusters; the full grid
# with every tile checked is tests/soc/bench_gemm.sh (build/bench/gemm.csv).
BENCH_DEPS += $(GEMM_BENCH_ELF) $(KTPU_SIM)
BENCH_CMDS += mkdir -p $(BUILD)/bench ;
BENCH_CMDS += $(KTPU_SIM) $(GEMM_BENCH_ELF) >$(BUILD)/bench/gemm_fw.csv && cat $(BUILD)/bench/gemm_fw.csv ;
endif
