# The generated package and header must be exactly what the generator makes
# from data/ktpu.def now: a hand edit or a stale copy fails here.
TESTS += defs_fresh
TEST_CMD.defs_fresh := tests/defs/check_fresh.sh $(GEN_DEFS) $(DEFS_SRC) $(GEN_SV) $(GEN_H)
TEST_DEPS += $(GEN_DEFS)
