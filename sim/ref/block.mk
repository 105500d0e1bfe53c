# The C reference library (SPEC §11): one set of sources, built for the host
# (harnesses, tools, tests) and for rv32im/picolibc (the on-chip self-test).
# $(REF_INC), $(REF_LIB), $(REF_LIB_RV32) are named in the top Makefile.
# The host library also carries what the host tools share and the rv32
# build does not need: the .npy reader/writer, the one command-line value
# parser (ktpu_arg), the one input reader (ktpu_in: regular files only,
# bounded) and the one output writer (ktpu_out: regular files only, mkstemp
# beside the target, fsync, rename).
REF_SRCS      := $(addprefix sim/ref/,ktpu_ref_dsp.c ktpu_ref_mx.c ktpu_ref_fp.c ktpu_ref_acc.c)
REF_HOST_SRCS := $(addprefix sim/ref/,ktpu_npy.c ktpu_err.c ktpu_arg.c ktpu_in.c ktpu_out.c)
REF_HDRS      := $(addprefix sim/ref/,ktpu_ref.h ktpu_npy.h ktpu_err.h ktpu_rng.h ktpu_arg.h ktpu_in.h \
                   ktpu_out.h) $(GEN_H)

REF_OBJS      := $(patsubst sim/ref/%.c,$(BUILD)/host/ref/%.o,$(REF_SRCS) $(REF_HOST_SRCS))
REF_OBJS_RV32 := $(patsubst sim/ref/%.c,$(BUILD)/rv32/ref/%.o,$(REF_SRCS))

$(BUILD)/host/ref/%.o: sim/ref/%.c $(REF_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(REF_INC) -c -o $@ $<

$(BUILD)/rv32/ref/%.o: sim/ref/%.c $(REF_HDRS)
	@mkdir -p $(@D)
	$(RV_CC) $(RV_CFLAGS) -I$(REF_INC) -c -o $@ $<

$(REF_LIB): $(REF_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(REF_LIB_RV32): $(REF_OBJS_RV32)
	@mkdir -p $(@D)
	rm -f $@ && $(RV_PREFIX)ar rcs $@ $^

# The reference as a command (SPEC §2).
KTPU_REF := $(BUILD)/ktpu-ref
$(KTPU_REF): sim/ref/ktpu_ref_main.c $(REF_LIB) $(REF_HDRS) $(GEN_VERSION)
	$(HOST_CC) $(HOST_CFLAGS) -I$(REF_INC) -o $@ $< $(REF_LIB)

TEST_DEPS += $(REF_LIB) $(REF_LIB_RV32) $(KTPU_REF)

# ktpu-example: operand generator for `make run` (sim/harness/run_gemm.sh)
# and the reference-only error report.
KTPU_EXAMPLE := $(BUILD)/tools/ktpu-example
$(KTPU_EXAMPLE): sim/ref/ktpu_example.c $(REF_LIB) $(REF_HDRS)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -I$(REF_INC) -o $@ $< $(REF_LIB) -lm

RUN_DEPS += $(KTPU_REF) $(KTPU_EXAMPLE)
