# Mesh (SPEC §7): router and mesh generator. docs/noc.md.
RTL.router := rtl/noc/ktpu_router.sv
RTL.mesh   := rtl/noc/ktpu_mesh.sv
RTL_USES.mesh := router
RTL_USES.router := clk_gate

SYNTH_BLOCKS += router
SYNTH_TOP.router  := ktpu_router
SYNTH_SRCS.router  = $(call rtl_srcs,router)
# A 2x2 mesh, flat: the router-to-router link paths (a sender's output
# arbitration and multiplexer into the receiver's FIFO), which no single
# router's row shows (docs/timing.md).
SYNTH_BLOCKS += mesh2x2
SYNTH_TOP.mesh2x2  := ktpu_mesh
SYNTH_SRCS.mesh2x2  = $(call rtl_srcs,mesh)
