# The C reference library (SPEC §11): one set of sources, built for the host
# (harnesses, tools, tests) and for rv32im/picolibc (the on-chip self-test).
# $(REF_INC), $(REF_LIB), $(REF_LIB_RV32) are named in the top Makefile.
REF_SRCS := $(addprefix sim/ref/,ktpu_ref_dsp.c ktpu_ref_mx.c ktpu_ref_fp.c ktpu_ref_acc.c)
REF_HDRS := sim/ref/ktpu_ref.h $(GEN_H)

REF_OBJS      := $(patsubst sim/ref/%.c,$(BUILD)/host/ref/%.o,$(REF_SRCS))
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

TEST_DEPS += $(REF_LIB) $(REF_LIB_RV32)
