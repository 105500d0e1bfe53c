# cxx_warnings: the benches' and ktpu-sim's own C++ compiled with every
# warning an error (tests/common/cxx_warnings.sh), for every Verilator model
# `make test` builds (read when the test list is written, after every
# fragment added its models).
TESTS += cxx_warnings
TEST_CMD.cxx_warnings = tests/common/cxx_warnings.sh $(addsuffix .mk,$(filter $(VL_BINS),$(TEST_DEPS) $(KTPU_SIM_TEST_MODELS)))

# The test runner, run on a small list of its own both ways: its own jobs
# and GNU parallel (tests/common/check_runner.sh).
TESTS += test_runner
TEST_CMD.test_runner := tests/common/check_runner.sh

# Every RTL mutant still changes its file (scripts/mutants.sh --check): an
# edit that leaves a substitution matching nothing would drop that mutant
# from the make regress sweep unseen.
TESTS += mutant_tables
TEST_CMD.mutant_tables := scripts/mutants.sh --check $(patsubst tests/%/mutants.tsv,%,$(wildcard tests/*/mutants.tsv))
