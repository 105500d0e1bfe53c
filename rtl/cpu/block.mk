# The RV32IM sequencer core (SPEC §2, §9). docs/cpu.md.
RTL.cpu := rtl/cpu/ktpu_cpu_muldiv.sv rtl/cpu/ktpu_cpu_csr.sv rtl/cpu/ktpu_cpu.sv
RTL_USES.cpu := dsp_mul

SYNTH_BLOCKS += cpu
SYNTH_TOP.cpu  := ktpu_cpu
SYNTH_SRCS.cpu  = $(call rtl_srcs,cpu)
