# Firmware runtime (startup, trap handler, picolibc stdio on the UART,
# exit() -> SIM_EXIT) and the programs built on it. The compiler, the flags
# and the runtime's link are firmware/toolchain.mk's, which the firmware SDK
# (firmware/ktpu.mk) shares; the archives are built by firmware/lib/block.mk.
# linker/ktpu.ld is the link script; build/fw/ktpu_mem.ld, included by it,
# is generated from data/ktpu.def so the RAM size is written down once.
FW_MEM_LD  := $(FW_DIR)/ktpu_mem.ld
FW_CRT0    := $(FW_DIR)/rt/crt0.o
FW_RT_OBJS := $(addprefix $(FW_DIR)/rt/,trap_entry.o trap.o ktpu_stdio.o)
FW_HDRS    := $(wildcard firmware/include/*.h) $(GEN_H)
# What a link that names the runtime's objects needs ($(FW_CRT0), the
# program's objects, then $(FW_RT_OBJS): as objects, libc linked after them
# finds their _exit and stdout). fw_prog links the archive instead.
FW_LINK_DEPS := $(FW_CRT0) $(FW_RT_OBJS) $(FW_MEM_LD) linker/ktpu.ld

$(FW_MEM_LD): $(GEN_H) firmware/block.mk
	@mkdir -p $(@D)
	@{ echo "/* generated from $(GEN_H) -- do not edit */"; \
	   sed -n 's/^#define KTPU_RAM_BASE \([0-9A-Fx]*\)u*$$/__ktpu_ram_base = \1;/p; s/^#define KTPU_RAM_BYTES \([0-9A-Fx]*\)u*$$/__ktpu_ram_bytes = \1;/p; s/^#define KTPU_DRAM_BASE \([0-9A-Fx]*\)u*$$/__ktpu_dram_base = \1;/p' $<; } >$@.tmp
	@test "$$(grep -c '^__ktpu' $@.tmp)" = 3 || { echo "cannot find KTPU_RAM_BASE/BYTES, KTPU_DRAM_BASE in $<"; exit 1; }
	@mv $@.tmp $@

# ktpu_defs.h for assembly: the same defines without C's integer suffixes.
FW_DEFS_ASM := $(FW_DIR)/ktpu_defs_asm.h
$(FW_DEFS_ASM): $(GEN_H)
	@mkdir -p $(@D)
	sed 's/^\(#define KTPU_[A-Z0-9_]* [0-9A-Fx]*\)u$$/\1/' $< >$@

$(FW_DIR)/rt/%.o: firmware/crt/%.S
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -c -o $@ $<
$(FW_DIR)/rt/%.o: firmware/crt/%.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -c -o $@ $<
$(FW_DIR)/rt/%.o: firmware/lib/%.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -c -o $@ $<
# Firmware C sources compile to $(FW_DIR)/obj/<path>.o.
$(FW_DIR)/obj/%.o: %.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -c -o $@ $<

# $(call fw_prog,OUTPUT.elf,C-SOURCES): the program's objects and the
# runtime archive, linked as the SDK links a program outside the tree.
define fw_prog
$(1): $(patsubst %.c,$(FW_DIR)/obj/%.o,$(2)) $(FW_RT_LIB) $(FW_MEM_LD) linker/ktpu.ld
	@mkdir -p $$(@D)
	$(RV_CC) $(FW_LDFLAGS) -o $$@ $(patsubst %.c,$(FW_DIR)/obj/%.o,$(2)) $(FW_RT_LINK)
endef

$(eval $(call fw_prog,$(FW_DIR)/hello.elf,firmware/hello/main.c))

RUN_DEPS  += $(FW_DIR)/hello.elf
TEST_DEPS += $(FW_DIR)/hello.elf
