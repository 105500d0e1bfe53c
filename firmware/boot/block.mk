# The UART boot image (SPEC §9.1, docs/boot.md): the bootloader
# (build/fw/ktpu_boot.elf, its own region at the top of local RAM) and the
# built-in firmware under it (build/fw/ktpu_gemm_resident.elf: the GEMM
# service whose start-up calls the bootloader first, its RAM ending below
# the bootloader's). `ktpu-sim --boot` loads both, as an FPGA build's RAM
# initialisation holds them.
BOOT_ELF     := $(FW_DIR)/ktpu_boot.elf
RESIDENT_ELF := $(FW_DIR)/ktpu_gemm_resident.elf
BOOT_MEM_LD  := $(FW_DIR)/ktpu_boot_mem.ld
BOOT_H       := firmware/include/ktpu_boot.h

# The region's size, written once in ktpu_boot.h, for the link scripts.
$(BOOT_MEM_LD): $(BOOT_H) firmware/boot/block.mk
	@mkdir -p $(@D)
	@sed -n 's/^#define KTPU_BOOT_BYTES \(0x[0-9A-Fa-f]*\)u.*$$/__ktpu_boot_bytes = \1;/p' $< >$@.tmp
	@test "$$(grep -c '^__ktpu_boot_bytes' $@.tmp)" = 1 || { echo "cannot find KTPU_BOOT_BYTES in $<"; exit 1; }
	@mv $@.tmp $@

# Freestanding: no small-data (gp is not set while it runs), no libc.
BOOT_CFLAGS := $(RV_CFLAGS) -O2 -Ifirmware/include -ffreestanding -funroll-loops -msmall-data-limit=0
$(FW_DIR)/boot/boot.o: firmware/boot/boot.c $(BOOT_H) $(FW_HDRS) firmware/boot/block.mk
	@mkdir -p $(@D)
	$(RV_CC) $(BOOT_CFLAGS) -c -o $@ $<
$(FW_DIR)/boot/entry.o: firmware/boot/entry.S
	@mkdir -p $(@D)
	$(RV_CC) $(BOOT_CFLAGS) -c -o $@ $<
$(BOOT_ELF): $(FW_DIR)/boot/entry.o $(FW_DIR)/boot/boot.o linker/ktpu_boot.ld $(FW_MEM_LD) $(BOOT_MEM_LD)
	$(RV_CC) $(RV_LD_ARCH) -nostdlib -nostartfiles -Tlinker/ktpu_boot.ld -L$(FW_DIR) \
	    -Wl,--gc-sections -Wl,--no-warn-rwx-segments -o $@ $(FW_DIR)/boot/entry.o $(FW_DIR)/boot/boot.o

$(FW_DIR)/rt/crt0_boot.o: firmware/crt/crt0.S
	@mkdir -p $(@D)
	$(RV_CC) $(FW_CFLAGS) -DKTPU_BOOT_HOOK -c -o $@ $<
# $(RESIDENT_ELF)'s rule is in firmware/gemm/block.mk, which names the
# GEMM objects (included after this file).

RUN_DEPS  += $(BOOT_ELF) $(RESIDENT_ELF)
TEST_DEPS += $(BOOT_ELF) $(RESIDENT_ELF)
