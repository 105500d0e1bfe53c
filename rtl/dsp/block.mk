# DSP48E2 model and mx_mac (docs/datapath.md). The model itself is selected
# by $(DSP48E2_SRCS) in the top Makefile (ours, or the vendor's).
RTL.dsp48e2 := $(DSP48E2_SRCS)
RTL.mx_mac  := rtl/dsp/ktpu_mx_mac.sv
RTL_USES.mx_mac := dsp48e2
# A multiply with its registers in the DSP (the accumulator's two, the CPU's four).
RTL.dsp_mul := rtl/dsp/ktpu_dsp_mul.sv
RTL_USES.dsp_mul := dsp48e2

# Synthesis reads mx_mac without any DSP48E2 model: Yosys's own cell library
# provides the primitive.
SYNTH_BLOCKS += mx_mac
SYNTH_TOP.mx_mac  := ktpu_mx_mac
SYNTH_SRCS.mx_mac  = $(call rtl_srcs,mx_mac)
