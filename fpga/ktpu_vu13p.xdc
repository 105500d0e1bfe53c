# Pins of build/fpga's ktpu_fpga_top on the seed's part, xcvu13p-fhgb2104-2L-e
# (docs/fpga.md). EVERY EDIT_ME BELOW IS A PLACEHOLDER: set the package pin
# and I/O standard your board wires to each port (its schematic or master
# XDC), or pass your own file (make bitstream XDC=board.xdc). fpga/build.tcl
# refuses to run while an EDIT_ME is left. The clock's period is not here:
# build.tcl constrains clk_i from FPGA_CLK_HZ, the value the UART divider is
# computed from, so the two cannot disagree.

# single-ended clock input (a differential board clock needs an IBUFDS in
# front of ktpu_fpga_top: docs/fpga.md)
set_property -dict {PACKAGE_PIN EDIT_ME IOSTANDARD LVCMOS18} [get_ports clk_i]
# reset push-button, active high
set_property -dict {PACKAGE_PIN EDIT_ME IOSTANDARD LVCMOS18} [get_ports rst_btn_i]
# USB-UART bridge: the FPGA receives on uart_rxd_i and sends on uart_txd_o
set_property -dict {PACKAGE_PIN EDIT_ME IOSTANDARD LVCMOS18} [get_ports uart_rxd_i]
set_property -dict {PACKAGE_PIN EDIT_ME IOSTANDARD LVCMOS18} [get_ports uart_txd_o]
# request to send (the bridge's CTS); any free pin if the bridge has none
set_property -dict {PACKAGE_PIN EDIT_ME IOSTANDARD LVCMOS18} [get_ports uart_rts_o]
# LEDs: heartbeat, program finished
set_property -dict {PACKAGE_PIN EDIT_ME IOSTANDARD LVCMOS18} [get_ports {led_o[0]}]
set_property -dict {PACKAGE_PIN EDIT_ME IOSTANDARD LVCMOS18} [get_ports {led_o[1]}]

# The button and the serial input are asynchronous to clk_i: each enters a
# two-flop synchroniser, so no timing path is meant from the pins.
set_false_path -from [get_ports {rst_btn_i uart_rxd_i}]
set_false_path -to [get_ports {uart_txd_o uart_rts_o led_o[*]}]
