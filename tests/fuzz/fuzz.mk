# Fuzz harnesses (docs/fuzz.md): one LLVMFuzzerTestOneInput per parser in
# tests/fuzz/fuzz_<target>.c, seeds in tests/fuzz/corpus/<target>/.
#   npy  the .npy reader's in-memory parse (sim/ref/ktpu_npy.c)
#   elf  the ELF loader from memory (sim/harness/ktpu_elf.c)
#   arg  the command-line numbers, tuples, sets, file names (sim/ref/ktpu_arg.c)
#   job  the firmware's job block check (firmware/gemm/ktpu_job.c)
# `make test` (fuzz_corpus): each harness built with gcc and replay.c, with
# gcc's address and undefined-behaviour sanitizers, replays its corpus once;
# no clang. `make fuzz`: each built with clang's libFuzzer and run for
# FUZZ_SECONDS; crashes and new inputs under build/fuzz/<target>/.
FUZZ_TARGETS := npy elf arg job
FUZZ_SRCS.npy := sim/ref/ktpu_npy.c sim/ref/ktpu_arg.c sim/ref/ktpu_in.c sim/ref/ktpu_out.c
FUZZ_SRCS.elf := sim/harness/ktpu_elf.c sim/ref/ktpu_in.c
FUZZ_SRCS.arg := sim/ref/ktpu_arg.c
FUZZ_SRCS.job := firmware/gemm/ktpu_job.c tests/fw/job_inv.c
FUZZ_HDRS := tests/fuzz/fuzz.h tests/fw/job_inv.h $(wildcard sim/ref/*.h sim/harness/*.h) \
             firmware/include/ktpu_job.h firmware/include/ktpu_ci.h $(GEN_H)
FUZZ_INC  := -Itests/fuzz -Isim/ref -Isim/harness -Ifirmware/include -Itests/fw
FUZZ_SAN  := -fsanitize=address,undefined -fno-sanitize-recover=undefined

FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_CFLAGS  := $(filter-out -O2,$(HOST_CFLAGS)) -O1 -fsanitize=fuzzer $(FUZZ_SAN)
REPLAY_DIR   := $(BUILD)/tests/fuzz

# $(call fuzz_rules,TARGET)
define fuzz_rules
$(REPLAY_DIR)/replay_$(1): tests/fuzz/fuzz_$(1).c tests/fuzz/replay.c $(FUZZ_SRCS.$(1)) $(FUZZ_HDRS)
	@mkdir -p $$(@D)
	$(HOST_CC) $(HOST_CFLAGS) $(FUZZ_SAN) $(FUZZ_INC) -o $$@ tests/fuzz/fuzz_$(1).c tests/fuzz/replay.c $(FUZZ_SRCS.$(1))

$(FUZZ_DIR)/$(1)/fuzz_$(1): tests/fuzz/fuzz_$(1).c $(FUZZ_SRCS.$(1)) $(FUZZ_HDRS)
	@mkdir -p $$(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_INC) -o $$@ tests/fuzz/fuzz_$(1).c $(FUZZ_SRCS.$(1))
endef
$(foreach t,$(FUZZ_TARGETS),$(eval $(call fuzz_rules,$(t))))

TEST_DEPS += $(foreach t,$(FUZZ_TARGETS),$(REPLAY_DIR)/replay_$(t))
TESTS += fuzz_corpus
TEST_CMD.fuzz_corpus := tests/fuzz/replay_all.sh $(REPLAY_DIR) $(FUZZ_TARGETS)

.PHONY: fuzz-build fuzz-go
fuzz:
	@scripts/deps.sh fuzz
	@$(MAKE) --no-print-directory -j$(NPROC) fuzz-build
	@$(MAKE) --no-print-directory fuzz-go
fuzz-build: $(foreach t,$(FUZZ_TARGETS),$(FUZZ_DIR)/$(t)/fuzz_$(t))
fuzz-go:
	@tests/fuzz/run_fuzz.sh $(FUZZ_DIR) $(FUZZ_SECONDS) $(FUZZ_TARGETS)
