# The board build (docs/fpga.md): rtl/fpga's top, the boot image as local
# RAM's initial contents (build/ktpu-mem), Vivado non-project Tcl, the pins,
# make bitstream / make flash. Vivado and a board are not here: those two
# targets stop with one line without them, and everything they read is made
# and checked by make test (tests/fpga).
FPGA_PART     ?= xcvu13p-fhgb2104-2L-e
FPGA_CLK_HZ   ?= 100000000
FPGA_CLUSTERS ?= 2
FPGA_CABLE    ?= ft2232
XDC           ?= fpga/ktpu_vu13p.xdc
FPGA_DIR      := $(BUILD)/fpga
FPGA_RAM_INIT := $(FPGA_DIR)/boot_ram
FPGA_MEMS     := $(foreach l,0 1 2 3,$(FPGA_RAM_INIT)$(l).mem)
FPGA_BIT      := $(FPGA_DIR)/ktpu_fpga_top.bit
KTPU_MEM      := $(BUILD)/ktpu-mem

$(KTPU_MEM): fpga/ktpu_mem.c sim/harness/ktpu_elf.c sim/harness/ktpu_elf.h $(REF_LIB) $(GEN_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Isim/harness -I$(REF_INC) -o $@ fpga/ktpu_mem.c sim/harness/ktpu_elf.c $(REF_LIB)

# the boot image exactly as ktpu-sim --boot loads it (SPEC 9.1)
$(FPGA_MEMS) &: $(KTPU_MEM) $(BOOT_ELF) $(RESIDENT_ELF)
	@mkdir -p $(FPGA_DIR)
	$(KTPU_MEM) -o $(FPGA_RAM_INIT) $(BOOT_ELF) $(RESIDENT_ELF)

.PHONY: bitstream flash
bitstream: $(FILELIST_DIR)/ktpu_fpga_top.f $(FPGA_MEMS)
	@command -v vivado >/dev/null || { echo "make bitstream: vivado is not on PATH (Vivado 2020.1 or later; its inputs are ready: $(FILELIST_DIR)/ktpu_fpga_top.f, $(XDC), $(FPGA_RAM_INIT)0..3.mem)" >&2; exit 1; }
	vivado -mode batch -nojournal -log $(FPGA_DIR)/vivado.log -source fpga/build.tcl -tclargs \
	  $(FILELIST_DIR)/ktpu_fpga_top.f $(XDC) $(FPGA_RAM_INIT) $(FPGA_PART) $(FPGA_CLK_HZ) $(FPGA_CLUSTERS) $(FPGA_DIR)
flash:
	@fpga/flash.sh $(FPGA_BIT) $(FPGA_PART) $(FPGA_CABLE)
