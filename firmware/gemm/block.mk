# The GEMM service firmware (docs/gemm.md): build/fw/ktpu_gemm.elf, and the
# self-test build that checks C on-chip against the rv32 reference,
# build/fw/ktpu_gemm_selftest.elf. KTPU_PLAN_MUTANT=n builds the self-test
# with a deliberately broken planner (it must then fail).
GEMM_FW_SRCS := firmware/gemm/ktpu_gemm.c firmware/gemm/ktpu_job.c firmware/gemm/ktpu_plan.c firmware/gemm/ktpu_upload.c \
                firmware/lib/ktpu_mesh.c firmware/lib/ktpu_ci.c
GEMM_FW_ELF  := $(FW_DIR)/ktpu_gemm.elf
# No copy/clear loop may become a call to picolibc's size-optimised memcpy /
# memset: they go a byte at a time, and these loops are the issue path.
# -O3, not -Os: the plan and the issue loop are what the clusters wait for
# at the start of a job (tile search 3.9k -> 2.7k cycles for 256x256x256
# from -Os to -O2; -O2 to -O3, 256x256x256 MXFP7 on 1 / 2 / 4 clusters
# 35,575 / 19,791 / 13,575 -> 35,454 / 19,729 / 13,235 cycles, 4x32x4
# 2,754 -> 2,579).
GEMM_FW_OBJS := $(patsubst %.c,$(FW_DIR)/obj/%.o,$(GEMM_FW_SRCS) firmware/gemm/main.c firmware/gemm/bench.c)
$(GEMM_FW_OBJS): FW_CFLAGS += -O3 -fno-tree-loop-distribute-patterns
$(eval $(call fw_prog,$(GEMM_FW_ELF),firmware/gemm/main.c $(GEMM_FW_SRCS)))

GEMM_ST_ELF  := $(FW_DIR)/ktpu_gemm_selftest.elf
GEMM_ST_OBJS := $(patsubst %.c,$(FW_DIR)/obj/%.o,$(GEMM_FW_SRCS))
# The -O3 service and the rv32 reference pass the 64 KiB code half of
# linker/ktpu.ld; its operand buffers (~40 KiB of .bss) fit the other 56.
GEMM_ST_LDFLAGS := $(FW_LDFLAGS) -Wl,--defsym=__ktpu_flash_bytes=0x12000
$(FW_DIR)/obj/firmware/gemm/selftest.o: firmware/gemm/selftest.c $(FW_HDRS) $(REF_INC)/ktpu_ref.h
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -I$(REF_INC) -c -o $@ $<
$(GEMM_ST_ELF): $(FW_DIR)/obj/firmware/gemm/selftest.o $(GEMM_ST_OBJS) $(REF_LIB_RV32) $(FW_LINK_DEPS)
	@mkdir -p $(@D)
	$(RV_CC) $(GEMM_ST_LDFLAGS) -o $@ $(FW_CRT0) $(FW_DIR)/obj/firmware/gemm/selftest.o $(GEMM_ST_OBJS) $(REF_LIB_RV32) $(FW_RT_OBJS)

# A self-test on a broken planner, for tests/fw/gemm_mutants.sh.
$(FW_DIR)/mut/ktpu_gemm_selftest_m%.elf: firmware/gemm/ktpu_plan.c $(FW_DIR)/obj/firmware/gemm/selftest.o $(GEMM_ST_OBJS) $(REF_LIB_RV32) $(FW_LINK_DEPS)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -DKTPU_PLAN_MUTANT=$* -c -o $(@:.elf=_plan.o) $<
	$(RV_CC) $(GEMM_ST_LDFLAGS) -o $@ $(FW_CRT0) $(FW_DIR)/obj/firmware/gemm/selftest.o \
	    $(filter-out %/ktpu_plan.o,$(GEMM_ST_OBJS)) $(@:.elf=_plan.o) $(REF_LIB_RV32) $(FW_RT_OBJS)

# The service on a broken planner (tests/soc/check_gemm_fw.sh: the harness's
# split-K check seen failing).
$(FW_DIR)/mut/ktpu_gemm_m%.elf: firmware/gemm/ktpu_plan.c $(GEMM_FW_OBJS) $(FW_LINK_DEPS)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -O3 -fno-tree-loop-distribute-patterns -DKTPU_PLAN_MUTANT=$* -c -o $(@:.elf=_plan.o) $<
	$(RV_CC) $(FW_LDFLAGS) -o $@ $(FW_CRT0) $(FW_DIR)/obj/firmware/gemm/main.o \
	    $(filter-out %/ktpu_plan.o,$(patsubst %.c,$(FW_DIR)/obj/%.o,$(GEMM_FW_SRCS))) $(@:.elf=_plan.o) $(FW_RT_OBJS)

# The self-test on a service that does not wait for quantise-on-upload's
# answers (tests/fw/gemm_mutants.sh, make regress: the non-finite block and
# the refused job then go unreported).
$(FW_DIR)/mut/ktpu_upload_nowait.o: firmware/gemm/ktpu_upload.c $(FW_HDRS)
	@mkdir -p $(@D)
	sed 's/for (unsigned acked = 0; acked < jobs;)/for (unsigned acked = jobs; acked < jobs;)/' $< >$(@:.o=.c)
	if cmp -s $< $(@:.o=.c); then echo "$@: the edit matched nothing"; exit 1; fi
	$(RV_CC) $(FW_CFLAGS) -O3 -fno-tree-loop-distribute-patterns -c -o $@ $(@:.o=.c)
$(FW_DIR)/mut/ktpu_gemm_selftest_upload_nowait.elf: $(FW_DIR)/mut/ktpu_upload_nowait.o \
        $(FW_DIR)/obj/firmware/gemm/selftest.o $(GEMM_ST_OBJS) $(REF_LIB_RV32) $(FW_LINK_DEPS)
	$(RV_CC) $(GEMM_ST_LDFLAGS) -o $@ $(FW_CRT0) $(FW_DIR)/obj/firmware/gemm/selftest.o \
	    $(filter-out %/ktpu_upload.o,$(GEMM_ST_OBJS)) $< $(REF_LIB_RV32) $(FW_RT_OBJS)

# The same service as the boot image's built-in firmware (firmware/boot/block.mk).
$(RESIDENT_ELF): $(FW_DIR)/rt/crt0_boot.o $(patsubst %.c,$(FW_DIR)/obj/%.o,firmware/gemm/main.c $(GEMM_FW_SRCS)) \
                 $(FW_LINK_DEPS) $(BOOT_MEM_LD) linker/ktpu_resident.ld
	$(RV_CC) $(subst -Tlinker/ktpu.ld,-Tlinker/ktpu_resident.ld -Llinker,$(FW_LDFLAGS)) -o $@ $(FW_DIR)/rt/crt0_boot.o \
	    $(patsubst %.c,$(FW_DIR)/obj/%.o,firmware/gemm/main.c $(GEMM_FW_SRCS)) $(FW_RT_OBJS)

RUN_DEPS  += $(GEMM_FW_ELF) $(GEMM_ST_ELF)
TEST_DEPS += $(GEMM_FW_ELF) $(GEMM_ST_ELF)

# Timing of the service on the SPEC §15 grid (make bench): CSV per machine.
GEMM_BENCH_ELF := $(FW_DIR)/ktpu_gemm_bench.elf
$(eval $(call fw_prog,$(GEMM_BENCH_ELF),firmware/gemm/bench.c $(GEMM_FW_SRCS)))
BENCH_DEPS += $(GEMM_BENCH_ELF)
