# Mesh (SPEC §7): router and mesh generator. docs/noc.md.
NOC_SRCS := rtl/noc/ktpu_router.sv rtl/noc/ktpu_mesh.sv

SYNTH_BLOCKS += router
SYNTH_TOP.router  := ktpu_router
SYNTH_SRCS.router := rtl/noc/ktpu_router.sv
