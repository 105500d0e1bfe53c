# Accumulator (docs/acc.md): FP22 resident tile, exact scale application.
# The command/peer/output FIFOs are rtl/prim/ktpu_fifo.sv over the RAM wrapper.
FIFO_SRCS := rtl/prim/ktpu_ram.sv rtl/prim/ktpu_fifo.sv
ACC_SRCS  := $(FIFO_SRCS) rtl/acc/ktpu_acc_r16.sv rtl/acc/ktpu_acc_lane.sv rtl/acc/ktpu_acc.sv

# TEMPORARY until rtl/prim/ktpu_ram.sv lands.
ifneq ($(wildcard rtl/prim/ktpu_ram.sv),)
SYNTH_BLOCKS += acc
SYNTH_TOP.acc  := ktpu_acc
SYNTH_SRCS.acc := $(ACC_SRCS)
endif
