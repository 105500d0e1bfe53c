# Accumulator benches (tests/acc/acc_tb.cpp): every output bit for bit against
# ktpu_ref_acc_op; chain latency varied to show the command FIFO pairs
# commands with results whatever the chain depth; three runs that expect a
# simulation assertion (reuse violation, command FIFO underflow/overflow).
ACC_TB := $(VL_DIR)/acc/Vktpu_acc
$(eval $(call verilate,acc,ktpu_acc,$(call rtl_srcs,acc) tests/acc/acc_tb.cpp,))

TESTS += acc_unit acc_unit_lat2 acc_unit_lat40 acc_reuse_assert acc_fifo_underflow \
         acc_fifo_overflow
TEST_CMD.acc_unit           := $(ACC_TB) --seed 1
TEST_CMD.acc_unit_lat2      := $(ACC_TB) --seed 2 --lat 2
TEST_CMD.acc_unit_lat40     := $(ACC_TB) --seed 3 --lat 40
TEST_CMD.acc_reuse_assert   := $(ACC_TB) --expect reuse
TEST_CMD.acc_fifo_underflow := $(ACC_TB) --expect underflow
TEST_CMD.acc_fifo_overflow  := $(ACC_TB) --expect overflow --lat 100
TEST_DEPS += $(ACC_TB)

REGRESS += acc_seeds
REGRESS_CMD.acc_seeds := for s in 11 12 13 14 15 16 17 18; do $(ACC_TB) --seed $$s --lat $$((s * 3)) || exit 1; done

# The cluster datapath joined to the accumulator: whole GEMM sweeps from
# reference-quantised operands, every emitted FP16 sub-tile checked. (The
# datapath benches' flags are spelled out: tests/dsp/tests.mk is read later.)
CLUSTER_ACC_TB := $(VL_DIR)/cluster_acc/Vtb_cluster_acc
$(eval $(call verilate,cluster_acc,tb_cluster_acc,$(call rtl_srcs,cluster_dp acc) \
  tests/acc/tb_cluster_acc.sv tests/acc/cluster_tb.cpp,\
  $(DSP48E2_VFLAGS) -Werror-USERFATAL))
TESTS += acc_cluster
TEST_CMD.acc_cluster := $(CLUSTER_ACC_TB) --seed 1
TEST_DEPS += $(CLUSTER_ACC_TB)

# Deliberately broken accumulators (each must fail a bench): long, so regress.
REGRESS += acc_mutants
REGRESS_CMD.acc_mutants := scripts/mutants.sh acc
