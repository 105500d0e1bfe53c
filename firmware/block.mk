# Firmware runtime (startup, trap handler, picolibc stdio on the UART,
# exit() -> SIM_EXIT) and the programs built on it. linker/ktpu.ld is the
# link script; build/fw/ktpu_mem.ld, included by it, is generated from
# data/ktpu.def so the RAM size is written down once.
FW_DIR     := $(BUILD)/fw
FW_CFLAGS  := $(RV_CFLAGS) -Ifirmware/include
# picolibc multilib is chosen by -march at link time; "rv32im_zicsr" matches
# none (gcc 12 would take the rv64 default), so the link names rv32im.
FW_LDFLAGS := -march=rv32im -mabi=ilp32 -nostartfiles -Tlinker/ktpu.ld -L$(FW_DIR) -Wl,--gc-sections
FW_MEM_LD  := $(FW_DIR)/ktpu_mem.ld
FW_CRT0    := $(FW_DIR)/rt/crt0.o
FW_RT_OBJS := $(addprefix $(FW_DIR)/rt/,trap_entry.o trap.o ktpu_stdio.o)
FW_HDRS    := $(wildcard firmware/include/*.h) $(GEN_H)
# What every firmware link needs besides its own objects.
# Runtime objects are linked as objects, not an archive: libc (linked after
# them) needs their _exit and stdout.
FW_LINK_DEPS := $(FW_CRT0) $(FW_RT_OBJS) $(FW_MEM_LD) linker/ktpu.ld

$(FW_MEM_LD): $(GEN_H)
	@mkdir -p $(@D)
	@{ echo "/* generated from $(GEN_H) -- do not edit */"; \
	   sed -n 's/^#define KTPU_RAM_BASE \([0-9A-Fx]*\)u*$$/__ktpu_ram_base = \1;/p; s/^#define KTPU_RAM_BYTES \([0-9A-Fx]*\)u*$$/__ktpu_ram_bytes = \1;/p' $<; } >$@.tmp
	@test "$$(grep -c '^__ktpu' $@.tmp)" = 2 || { echo "cannot find KTPU_RAM_BASE/BYTES in $<"; exit 1; }
	@mv $@.tmp $@

$(FW_DIR)/rt/%.o: firmware/crt/%.S
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -c -o $@ $<
$(FW_DIR)/rt/%.o: firmware/crt/%.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -c -o $@ $<
$(FW_DIR)/rt/%.o: firmware/lib/%.c $(FW_HDRS)
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -c -o $@ $<
# $(call fw_prog,NAME,C-SOURCES[,EXTRA-CFLAGS]) -> $(FW_DIR)/NAME.elf
define fw_prog
$(FW_DIR)/$(1).elf: $(2) $(FW_LINK_DEPS) $(FW_HDRS)
	@mkdir -p $$(@D)
	$(RV_CC) $(FW_CFLAGS) $(3) $(FW_LDFLAGS) -o $$@ $(FW_CRT0) $(2) $(FW_RT_OBJS)
endef

$(eval $(call fw_prog,hello,firmware/hello/main.c))

RUN_DEPS  += $(FW_DIR)/hello.elf
TEST_DEPS += $(FW_DIR)/hello.elf
