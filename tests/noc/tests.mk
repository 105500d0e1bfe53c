# Mesh stress: every node injects random packets under random back-pressure
# (tests/noc/mesh_stress.cpp). 2x2 and 3x3 in `make test`, 4x4 and more
# seeds in `make regress`, and the deliberately broken routers of
# tests/noc/mutants.tsv (each must fail the stress) in `make regress`.
define noc_mesh_bench
$(eval $(call verilate,noc_mesh$(1)x$(2),ktpu_mesh,$(call rtl_srcs,mesh) tests/noc/mesh_stress.cpp,\
  -GWidth=$(1) -GHeight=$(2) -CFLAGS -DMESH_W=$(1) -CFLAGS -DMESH_H=$(2)))
endef
$(call noc_mesh_bench,2,2)
$(call noc_mesh_bench,3,3)
$(call noc_mesh_bench,4,4)

TESTS += noc_mesh2x2 noc_mesh3x3
TEST_CMD.noc_mesh2x2 := $(VL_DIR)/noc_mesh2x2/Vktpu_mesh --cycles 100000 --seed 1
TEST_CMD.noc_mesh3x3 := $(VL_DIR)/noc_mesh3x3/Vktpu_mesh --cycles 100000 --seed 2
TEST_DEPS += $(VL_DIR)/noc_mesh2x2/Vktpu_mesh $(VL_DIR)/noc_mesh3x3/Vktpu_mesh

REGRESS_DEPS += $(VL_DIR)/noc_mesh4x4/Vktpu_mesh $(VL_DIR)/noc_mesh3x3/Vktpu_mesh
REGRESS += noc_regress
REGRESS_CMD.noc_regress := tests/noc/regress.sh

# Both planes with the memory agent and DRAM: every node at once, reads,
# writes, peer packets and notes under back-pressure (the protocol-level
# no-deadlock argument, docs/noc.md).
$(eval $(call verilate,noc_agent,noc_agent_top,$(call rtl_srcs,mesh mem_agent dram) \
  tests/noc/noc_agent_top.sv tests/noc/noc_agent_tb.cpp,))
TESTS += noc_agent
TEST_CMD.noc_agent := $(VL_DIR)/noc_agent/Vnoc_agent_top --cycles 100000 --seed 1
TEST_DEPS += $(VL_DIR)/noc_agent/Vnoc_agent_top

# A mesh with an EMPTY node: strays (outside the mesh, to the EMPTY node) are
# counted exactly and the mesh keeps working.
$(eval $(call verilate,noc_mesh_empty,mesh_empty_top,$(call rtl_srcs,mesh) tests/noc/mesh_empty_top.sv \
  tests/noc/mesh_stress.cpp,-GWidth=3 -GHeight=2 -GEmptyNode=4 -CFLAGS -DMESH_W=3 -CFLAGS -DMESH_H=2 \
  -CFLAGS -DEMPTY_NODE=4))
TESTS += noc_mesh_empty
TEST_CMD.noc_mesh_empty := $(VL_DIR)/noc_mesh_empty/Vmesh_empty_top --cycles 30000 --seed 4
TEST_DEPS += $(VL_DIR)/noc_mesh_empty/Vmesh_empty_top
