# The board top (docs/fpga.md): the SoC, its reset, the on-chip DRAM. Its
# file list, build/filelists/ktpu_fpga_top.f, is what Vivado (fpga/build.tcl),
# Yosys (make synth's fpga_seq row and tests/fpga) and Verilator (lint) read.
RTL.fpga_dram      := rtl/fpga/ktpu_fpga_dram.sv
RTL_USES.fpga_dram := ram fifo
RTL.fpga_top       := rtl/fpga/ktpu_fpga_top.sv
RTL_USES.fpga_top  := soc fpga_dram
$(call synth_filelist,ktpu_fpga_top,fpga_top)
