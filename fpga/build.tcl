# Vivado non-project build of ktpu_fpga_top (docs/fpga.md). `make bitstream`
# runs it as
#   vivado -mode batch -source fpga/build.tcl -tclargs \
#       FILELIST XDC RAM_INIT_PREFIX PART CLK_HZ CLUSTERS OUTDIR
# FILELIST is build/filelists/ktpu_fpga_top.f, the list Verilator and Yosys
# read for the same top; RAM_INIT_PREFIX names the four local RAM lane files
# build/ktpu-mem wrote (PREFIX0.mem .. PREFIX3.mem). Outputs in OUTDIR:
# ktpu_fpga_top.bit, utilization.rpt, timing.rpt, post_route.dcp.
if {[llength $argv] != 7} {
    puts "build.tcl: want FILELIST XDC RAM_INIT_PREFIX PART CLK_HZ CLUSTERS OUTDIR, got: $argv"
    exit 2
}
lassign $argv filelist xdc raminit part clk_hz clusters outdir

proc die {msg} { puts "build.tcl: error: $msg"; exit 1 }

set fh [open $xdc r]; set xdc_text [read $fh]; close $fh
if {[string first EDIT_ME $xdc_text] >= 0} {
    die "$xdc still has EDIT_ME pin placeholders: set the pins for your board (docs/fpga.md), or make bitstream XDC=your.xdc"
}
foreach l {0 1 2 3} {
    if {![file exists $raminit$l.mem]} { die "$raminit$l.mem missing (make build/fpga/boot_ram0.mem)" }
}
file mkdir $outdir

# Sources: every line of the file list, in order (the package first).
set fh [open $filelist r]
foreach f [split [read $fh] "\n"] {
    set f [string trim $f]
    if {$f eq ""} continue
    read_verilog -sv $f
}
close $fh
read_xdc $xdc
set period [format %.3f [expr {1.0e9 / $clk_hz}]]
create_clock -period $period -name clk [get_ports clk_i]

# KTPU_XPM: ktpu_ram instantiates xpm_memory_sdpram with the primitive named
# (SPEC §4) and the lane files as MEMORY_INIT_FILE; ktpu_clk_gate a BUFGCE
# (each cluster node's clock, stopped while the node is idle).
synth_design -top ktpu_fpga_top -part $part -verilog_define KTPU_XPM=1 \
    -generic ClkHz=$clk_hz -generic Clusters=$clusters -generic "RamInit=\"$raminit\""
opt_design
place_design
phys_opt_design
route_design
report_utilization -file $outdir/utilization.rpt
report_timing_summary -file $outdir/timing.rpt
write_checkpoint -force $outdir/post_route.dcp
write_bitstream -force $outdir/ktpu_fpga_top.bit
puts "build.tcl: $outdir/ktpu_fpga_top.bit"
