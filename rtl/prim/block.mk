# Primitives: RAM wrapper (named primitive), delay line (SRL).
DELAY_SRCS := rtl/prim/ktpu_delay.sv
RAM_SRCS   := rtl/prim/ktpu_ram.sv
