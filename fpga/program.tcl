# Loads a bitstream into the first device on the first JTAG target through
# Vivado's hardware manager (docs/fpga.md): what `make flash` uses for a part
# openFPGALoader does not know (the seed's xcvu13p). Volatile: the device
# forgets it at power-off (a configuration flash is written with the board's
# own cfgmem part, which Vivado's write_cfgmem / program_hw_cfgmem need).
#   vivado -mode batch -source fpga/program.tcl -tclargs BITSTREAM
if {[llength $argv] != 1} { puts "program.tcl: want BITSTREAM"; exit 2 }
set bit [lindex $argv 0]
open_hw_manager
connect_hw_server
if {[llength [get_hw_targets]] == 0} { puts "program.tcl: error: no JTAG target (is the board on and its cable connected?)"; exit 1 }
open_hw_target [lindex [get_hw_targets] 0]
set dev [lindex [get_hw_devices] 0]
current_hw_device $dev
set_property PROGRAM.FILE $bit $dev
program_hw_devices $dev
puts "program.tcl: $bit loaded into $dev"
close_hw_manager
