# Firmware runtime (startup, trap handler, picolibc stdio on the UART,
# exit() -> SIM_EXIT) and the programs built on it. linker/ktpu.ld is the
# link script; build/fw/ktpu_mem.ld, included by it, is generated from
# data/ktpu.def so the RAM size is written down once.
FW_DIR     := $(BUILD)/fw
FW_CFLAGS  := $(RV_CFLAGS) -Ifirmware/include
# picolibc multilib is chosen by -march at link time; "rv32im_zicsr" matches
# none (gcc 12 would take the rv64 default), so the link names rv32im.
FW_LDFLAGS := -march=rv32im -mabi=ilp32 --specs=picolibc.specs -nostartfiles -Tlinker/ktpu.ld -L$(FW_DIR) -Wl,--gc-sections
FW_MEM_LD  := $(FW_DIR)/ktpu_mem.ld
FW_CRT0    := $(FW_DIR)/rt/crt0.o
FW_RT_OBJS := $(addprefix $(FW_DIR)/rt/,trap_entry.o trap.o ktpu_stdio.o)
FW_HDRS    := $(wildcard firmware/include/*.h) $(GEN_H)
# What every firmware link needs besides its own objects.
# Runtime objects are linked as objects, not an archive: libc (linked after
# them) needs their _exit and stdout.
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

# $(call fw_prog,OUTPUT.elf,C-SOURCES)
define fw_prog
$(1): $(patsubst %.c,$(FW_DIR)/obj/%.o,$(2)) $(FW_LINK_DEPS)
	@mkdir -p $$(@D)
	$(RV_CC) $(FW_LDFLAGS) -o $$@ $(FW_CRT0) $(patsubst %.c,$(FW_DIR)/obj/%.o,$(2)) $(FW_RT_OBJS)
endef

$(eval $(call fw_prog,$(FW_DIR)/hello.elf,firmware/hello/main.c))

RUN_DEPS  += $(FW_DIR)/hello.elf
TEST_DEPS += $(FW_DIR)/hello.elf
