# Primitives: RAM wrapper (named primitive), delay line (SRL).
DELAY_SRCS := rtl/prim/ktpu_delay.sv
