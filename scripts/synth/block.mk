# `make synth` (SPEC §13): every registered block through Yosys synth_xilinx
# -family xcup, one table (printed, and build/synth/synth.csv). Register a block
# in its own fragment:
#   SYNTH_BLOCKS += name;  SYNTH_TOP.name := module;  SYNTH_SRCS.name := files
# The list file is written when the rule runs, after every fragment was read.
SYNTH_BLOCK_LIST := $(BUILD)/synth-blocks.list
.PHONY: $(SYNTH_BLOCK_LIST)
$(SYNTH_BLOCK_LIST):
	$(shell mkdir -p $(BUILD))$(file >$@,$(foreach b,$(SYNTH_BLOCKS),$(b)|$(SYNTH_TOP.$(b))|$(SYNTH_SRCS.$(b))$(NL)))
	@echo "synth: $(words $(SYNTH_BLOCKS)) blocks: $(SYNTH_BLOCKS)"
SYNTH_DEPS += $(SYNTH_BLOCK_LIST)
# then the diff against the table kept in the repository (scripts/synth/compare.sh)
SYNTH_CMDS += scripts/synth/synth.sh ; scripts/synth/compare.sh scripts/synth/baseline.csv $(BUILD)/synth/synth.csv ;

# mx_mac must map to exactly one DSP48E2 and nothing else (seed §6): a fast
# check in `make test`.
TESTS += synth_mx_mac
TEST_CMD.synth_mx_mac := scripts/synth/synth.sh --csv $(BUILD)/synth/mx_mac_check.csv \
  --logdir $(BUILD)/synth/check --expect 'LUT=0 LUTRAM=0 FF=0 SRL=0 DSP48E2=1 BRAM=0 URAM=0' \
  'mx_mac|$(SYNTH_TOP.mx_mac)|$(SYNTH_SRCS.mx_mac)'
# The whole 2-cluster machine synthesised flat, for its totals and its longest
# path measured rather than summed (docs/timing.md): about 20 minutes of one
# core, so in `make regress`, not `make synth`.
REGRESS += synth_machine
REGRESS_CMD.synth_machine = scripts/synth/synth.sh --csv $(BUILD)/synth/machine.csv --logdir $(BUILD)/synth/machine \
  'machine|ktpu_soc|$(call rtl_srcs,soc)'
