# Primitive benches: the RAM wrapper against a shadow array, and the
# elaboration errors (illegal parameters must stop the build).
$(eval $(call verilate,prim_ram,tb_ram,$(call rtl_srcs,ram) tests/prim/tb_ram.sv tests/prim/ram_tb.cpp,\
  -Werror-USERFATAL))

TESTS += prim_ram prim_elab_errors
TEST_CMD.prim_ram := $(VL_DIR)/prim_ram/Vtb_ram --seed 1 --cycles 20000
TEST_CMD.prim_elab_errors := tests/prim/elab_errors.sh $(GEN_SV)
TEST_DEPS += $(VL_DIR)/prim_ram/Vtb_ram
