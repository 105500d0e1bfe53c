# The boot contract (SPEC §9.1): the bootloader, build/ktpu-upload and
# ktpu-sim --boot together (tests/boot/check_boot.sh).
BOOT_TEST_DIR := $(BUILD)/tests/boot

# 64 KiB of DRAM data a program checks after its upload.
$(BOOT_TEST_DIR)/dram_blob.elf: tests/boot/dram_blob.S tests/cpu/isa.h tests/cpu/asm.ld $(FW_DEFS_ASM) $(FW_MEM_LD)
	@mkdir -p $(@D)
	$(RV_CC) -march=rv32im_zicsr -mabi=ilp32 -nostdlib -nostartfiles -I$(FW_DIR) -Itests/cpu \
	    -Ttests/cpu/asm.ld -L$(FW_DIR) -Wl,--no-warn-rwx-segments -Wl,--section-start=.zeros=0x4000 -o $@ $<
# A program in the bootloader's DRAM staging area: an upload must refuse it.
$(BOOT_TEST_DIR)/stage.elf: tests/soc/dram_only.S
	@mkdir -p $(@D)
	$(RV_CC) -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -Wl,-n,-Ttext=0x80f00000,--entry=0 -o $@ $<

TEST_DEPS += $(BOOT_TEST_DIR)/dram_blob.elf $(BOOT_TEST_DIR)/stage.elf $(BUILD)/tests/soc/exit42.elf \
             $(BUILD)/tests/soc/spin.elf $(KTPU_UPLOAD) $(BOOT_ELF) $(RESIDENT_ELF)
TESTS += boot_contract
TEST_CMD.boot_contract := tests/boot/check_boot.sh $(BUILD) $(BOOT_TEST_DIR)

REGRESS_DEPS += $(BOOT_TEST_DIR)/dram_blob.elf $(BOOT_TEST_DIR)/stage.elf $(BUILD)/tests/soc/exit42.elf \
                $(BUILD)/tests/soc/spin.elf $(KTPU_UPLOAD) $(BOOT_ELF) $(RESIDENT_ELF) $(KTPU_SIM)
REGRESS += boot_mutants boot_uploads
REGRESS_CMD.boot_mutants := tests/boot/mutants.sh
REGRESS_CMD.boot_uploads := tests/boot/regress_uploads.sh $(BUILD)
