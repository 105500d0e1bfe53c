# Stand-ins for the Vivado commands fpga/build.tcl calls, for tclsh: each
# appends one line "COMMAND ARGS..." to $::env(STUB_LOG) and returns what the
# build script needs (get_ports returns its pattern). A command the script
# calls that is not listed here fails the run (tclsh: invalid command name),
# so the list is what the test says Vivado is asked to do.
set stub_log [open $env(STUB_LOG) w]
foreach cmd {read_verilog read_xdc create_clock synth_design opt_design place_design
             phys_opt_design route_design report_utilization report_timing_summary
             write_checkpoint write_bitstream} {
    proc $cmd {args} "puts \$::stub_log \"$cmd \[join \$args\]\"; flush \$::stub_log"
}
proc get_ports {pattern} { return $pattern }
