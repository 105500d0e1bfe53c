# Primitives: RAM wrapper (named primitive), FIFO over it, delay line (SRL).
RTL.ram   := rtl/prim/ktpu_ram.sv
RTL.fifo  := rtl/prim/ktpu_fifo.sv
RTL_USES.fifo := ram
RTL.delay := rtl/prim/ktpu_delay.sv
