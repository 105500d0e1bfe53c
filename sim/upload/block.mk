# build/ktpu-upload (SPEC §9.1, docs/boot.md): an ELF as a UART boot frame,
# to a file or through a serial device to the bootloader. The ELF reader is
# the harness's (sim/harness/ktpu_elf.c); CRC-32 is zlib's.
KTPU_UPLOAD := $(BUILD)/ktpu-upload

$(KTPU_UPLOAD): sim/upload/ktpu_upload.c sim/harness/ktpu_elf.c sim/harness/ktpu_elf.h firmware/include/ktpu_boot.h \
                $(REF_LIB) $(GEN_H) $(GEN_VERSION)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Isim/harness -I$(REF_INC) -Ifirmware/include -o $@ sim/upload/ktpu_upload.c \
	    sim/harness/ktpu_elf.c $(REF_LIB) -lz

RUN_DEPS  += $(KTPU_UPLOAD)
TEST_DEPS += $(KTPU_UPLOAD)

# make upload PROGRAM=prog.elf PORT=/dev/ttyUSB0 [BAUD=115200]
.PHONY: upload
upload: $(KTPU_UPLOAD)
	@test -n "$(PROGRAM)" && test -n "$(PORT)" || \
	  { echo "usage: make upload PROGRAM=prog.elf PORT=/dev/ttyX [BAUD=115200]"; exit 1; }
	$(KTPU_UPLOAD) $(PROGRAM) --port $(PORT) --baud $(or $(BAUD),115200)
