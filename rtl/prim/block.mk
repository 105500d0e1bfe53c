# Primitives: RAM wrapper (named primitive), FIFO over it, delay line (SRL),
# clock gate (BUFGCE).
RTL.ram   := rtl/prim/ktpu_ram.sv
RTL.fifo  := rtl/prim/ktpu_fifo.sv
RTL_USES.fifo := ram
RTL.delay := rtl/prim/ktpu_delay.sv
RTL.clk_gate := rtl/prim/ktpu_clk_gate.sv
