# Accumulator (docs/acc.md): FP22 resident tile, exact scale application.
RTL.acc      := rtl/acc/ktpu_acc_r16.sv rtl/acc/ktpu_acc_lane.sv rtl/acc/ktpu_acc.sv
RTL_USES.acc := fifo ram dsp_mul

SYNTH_BLOCKS += acc
SYNTH_TOP.acc  := ktpu_acc
SYNTH_SRCS.acc  = $(call rtl_srcs,acc)
