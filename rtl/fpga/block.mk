# The board top (docs/fpga.md): the SoC, its reset, the on-chip DRAM over AXI4.
# Its file list, build/filelists/ktpu_fpga_top.f, is what Vivado
# (fpga/build.tcl) and Verilator (the fpga_lint test) read.
RTL.fpga_dram      := rtl/fpga/ktpu_fpga_dram.sv
RTL_USES.fpga_dram := ram fifo
RTL.fpga_top       := rtl/fpga/ktpu_fpga_top.sv
RTL_USES.fpga_top  := soc axi_port fpga_dram
$(call synth_filelist,ktpu_fpga_top,fpga_top)
