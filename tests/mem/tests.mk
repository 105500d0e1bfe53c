# Quantiser against the C reference (tests/mem/quant_tb.cpp).
$(eval $(call verilate,mem_quant,ktpu_quant,$(QUANT_SRCS) tests/mem/quant_tb.cpp,))
TESTS += mem_quant
TEST_CMD.mem_quant := $(VL_DIR)/mem_quant/Vktpu_quant --seed 1
TEST_DEPS += $(VL_DIR)/mem_quant/Vktpu_quant
REGRESS_DEPS += $(REF_LIB) $(GEN_SV)
REGRESS_CMDS += tests/mem/mutants.sh
