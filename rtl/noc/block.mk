# Mesh (SPEC §7): router and mesh generator. docs/noc.md.
RTL.router := rtl/noc/ktpu_router.sv
RTL.mesh   := rtl/noc/ktpu_mesh.sv
RTL_USES.mesh := router
RTL_USES.router := clk_gate

SYNTH_BLOCKS += router
SYNTH_TOP.router  := ktpu_router
SYNTH_SRCS.router  = $(call rtl_srcs,router)
