# The firmware SDK (docs/firmware.md): builds a program that lives outside
# the tree, from a folder of *.c (and *.S) files and a makefile of three lines:
#
#   KTPU_ROOT ?= /path/to/the/clone
#   PROG := myapp
#   include $(KTPU_ROOT)/firmware/ktpu.mk
#
# make        build/$(PROG).elf in that folder
# make run    runs it on the simulated SoC; SIMFLAGS are ktpu-sim's options
# make clean  removes build/
# CFLAGS, LDFLAGS and LDLIBS add to the SDK's flags (firmware/toolchain.mk).
ifndef KTPU_ROOT
$(error KTPU_ROOT is not set: the path of the KohakuTPU clone)
endif
ifndef PROG
$(error PROG is not set: the program's name, as in PROG := myapp)
endif
KTPU_TOP := $(abspath $(KTPU_ROOT))/
include $(KTPU_TOP)firmware/toolchain.mk
# Flags exported for the host compiler (CFLAGS=-march=native) are not the firmware's.
$(foreach v,CFLAGS LDFLAGS LDLIBS,$(if $(filter environment,$(origin $(v))),$(eval $(v) :=)))

KTPU_OUT  := build
KTPU_ELF  := $(KTPU_OUT)/$(PROG).elf
KTPU_OBJS := $(patsubst %,$(KTPU_OUT)/%.o,$(basename $(wildcard *.c *.S)))
KTPU_SIM  := $(KTPU_BUILD)/ktpu-sim
# ktpu_ref.h (the RV32 reference) and ktpu_defs_asm.h (the generated
# constants without C's integer suffixes, for *.S) besides FW_CFLAGS' own.
KTPU_INC  := -I$(REF_INC) -I$(FW_DIR)
# The GEMM service and the reference are archives like the runtime: a
# program that calls neither gets nothing of them.
KTPU_LIBS := -lktpu_gemm -L$(dir $(REF_LIB_RV32)) -lktpuref $(FW_RT_LINK)

# What a program needs from the tree, made by the tree's own rules. That
# make runs every time (it knows when they are stale, this file does not);
# a file it leaves alone relinks nothing here.
KTPU_TREE_FILES := $(KTPU_GEN)/ktpu_defs.h $(FW_DIR)/ktpu_defs_asm.h $(FW_DIR)/ktpu_mem.ld \
                   $(FW_RT_LIB) $(FW_GEMM_LIB) $(REF_LIB_RV32)
KTPU_TREE_MAKE  := $(MAKE) --no-print-directory -C $(KTPU_ROOT) $(patsubst $(KTPU_TOP)%,%,$(KTPU_TREE_FILES))

.PHONY: all run clean ktpu-force
all: $(KTPU_ELF)

$(KTPU_OUT)/%.o: %.c | $(KTPU_TREE_FILES)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) $(KTPU_INC) $(CFLAGS) -MMD -MP -c -o $@ $<
$(KTPU_OUT)/%.o: %.S | $(KTPU_TREE_FILES)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) $(KTPU_INC) $(CFLAGS) -MMD -MP -c -o $@ $<
$(KTPU_ELF): $(KTPU_OBJS) $(KTPU_TREE_FILES)
	$(RV_CC) $(FW_LDFLAGS) $(LDFLAGS) -o $@ $(KTPU_OBJS) $(LDLIBS) $(KTPU_LIBS)
-include $(KTPU_OBJS:.o=.d)

# PROG and the program's other command-line variables are not the tree's.
$(KTPU_TREE_FILES): MAKEOVERRIDES :=
$(KTPU_TREE_FILES) &: ktpu-force
	@$(KTPU_TREE_MAKE) -q 2>/dev/null || $(KTPU_TREE_MAKE)
ktpu-force:

run: $(KTPU_ELF)
	@test -x $(KTPU_SIM) || { echo "ktpu.mk: no simulator; build it: make -C $(abspath $(KTPU_ROOT)) build/ktpu-sim"; exit 1; }
	@$(KTPU_SIM) $(SIMFLAGS) $(KTPU_ELF)

clean:
	rm -rf $(KTPU_OUT)
