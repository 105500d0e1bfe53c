# Accumulator (docs/acc.md): FP22 resident tile, exact scale application.
# The command/peer/output FIFOs are rtl/prim/ktpu_fifo.sv over the RAM wrapper.
# (rtl/prim/block.mk is read after this file, so its names are not used here.)
FIFO_SRCS := rtl/prim/ktpu_ram.sv rtl/prim/ktpu_fifo.sv
ACC_SRCS  := $(FIFO_SRCS) rtl/acc/ktpu_acc_r16.sv rtl/acc/ktpu_acc_lane.sv rtl/acc/ktpu_acc.sv

SYNTH_BLOCKS += acc
SYNTH_TOP.acc  := ktpu_acc
SYNTH_SRCS.acc := $(ACC_SRCS)
