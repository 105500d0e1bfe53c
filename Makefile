# KohakuTPU top-level build. `make run` and `make test` are the two commands;
# both install missing Debian packages first (scripts/deps.sh), then build in
# parallel. Each block adds its own rules in a fragment beside its sources
# (rtl/*/block.mk, sim/*/block.mk, firmware/*.mk, tests/*/tests.mk,
# tests/fuzz/fuzz.mk); this file holds only what they share.

SHELL   := /bin/bash
# The build directory and the firmware toolchain (cross compiler, flags,
# REF_INC, REF_LIB_RV32) are firmware/toolchain.mk's: the firmware SDK
# (firmware/ktpu.mk) reads the same file from outside the tree.
KTPU_TOP :=
include firmware/toolchain.mk
BUILD   := $(KTPU_BUILD)
GEN     := $(KTPU_GEN)
NPROC   := $(shell nproc 2>/dev/null || echo 2)
TAB     := $(shell printf '\t')
define NL


endef

.DEFAULT_GOAL := help
.PHONY: help deps test test-failed run bench synth regress fuzz fw clean test-run run-build run-go bench-build \
        bench-go synth-build synth-go regress-build regress-go

help:
	@echo "make run     - build and run the default job"
	@echo "make test    - build and run the whole test suite (ends 'N passed, N failed');"
	@echo "               T='acc_* cpu_isa' runs only the tests whose names match"
	@echo "               PARALLEL='--jobs 100%' hands them to GNU parallel (its options; README)"
	@echo "make test-failed - build, then run only the tests that failed in the last run"
	@echo "make bench   - performance benchmarks (simulated cycles, CSV in build/bench/)"
	@echo "make synth   - Yosys resource table per block"
	@echo "make regress - long sweeps, beyond make test (one at a time; REGRESS_JOBS=N, PARALLEL=, T= as for test)"
	@echo "make fuzz    - libFuzzer on the parsers and the job check, FUZZ_SECONDS (60) each (clang)"
	@echo "make deps    - install the Debian packages the project needs (as root)"
	@echo "make fw PROG=DIR - build a firmware folder with the SDK (docs/firmware.md)"

deps:
	@scripts/deps.sh

# Packages first, then the parallel build: deps must finish before any rule
# that calls verilator or the cross compiler starts.
test:    deps ; @$(MAKE) --no-print-directory -j$(NPROC) test-run
test-failed: deps
	@f=$$(tr "\n" " " <$(BUILD)/logs/failed 2>/dev/null); \
	if [ -z "$${f// }" ]; then echo "make test-failed: no failed test on record ($(BUILD)/logs/failed)"; \
	else $(MAKE) --no-print-directory -j$(NPROC) test-run T="$$f"; fi
run:     deps ; @$(MAKE) --no-print-directory -j$(NPROC) run-build && $(MAKE) --no-print-directory run-go
bench:   deps ; @$(MAKE) --no-print-directory -j$(NPROC) bench-build && $(MAKE) --no-print-directory bench-go
synth:   deps ; @$(MAKE) --no-print-directory -j$(NPROC) synth-build && $(MAKE) --no-print-directory synth-go
regress: deps ; @$(MAKE) --no-print-directory -j$(NPROC) regress-build && $(MAKE) --no-print-directory regress-go

clean:
	rm -rf $(BUILD)

# A firmware folder built by its own makefile through the SDK
# (firmware/ktpu.mk), this tree as its KTPU_ROOT; a folder without one gets
# the SDK's, the folder's name as the program's. PROG here names the
# folder, so it is not passed down, where PROG is the program's name.
fw: MAKEOVERRIDES := $(filter-out PROG=%,$(MAKEOVERRIDES))
fw:
	@test -d "$(PROG)" || { echo "usage: make fw PROG=path/to/dir (a folder of *.c, docs/firmware.md)"; exit 2; }
	@$(MAKE) --no-print-directory -C $(PROG) KTPU_ROOT=$(CURDIR) $(if $(wildcard $(PROG)/[Mm]akefile \
	    $(PROG)/GNUmakefile),,-f $(CURDIR)/firmware/ktpu.mk PROG=$(notdir $(abspath $(PROG))))

# ---- host C (reference, tools, harness) ------------------------------------
HOST_CC     := gcc
HOST_CXX    := g++
# The datapath is integer; where host floats appear (statistics), no fused or
# reassociated arithmetic may change a printed number.
HOST_CFLAGS := -std=c99 -O2 -g -Wall -Wextra -Werror -Wshadow -Wundef \
               -Wmissing-prototypes -Wstrict-prototypes -pedantic -ffp-contract=off \
               -I$(GEN)

# ---- Verilator --------------------------------------------------------------
# Registers start random (SPEC §14): X assignments and initial values are
# randomised; each harness also calls randReset(2) with its seed. Lint
# warnings are reported in each build.log; an elaboration $fatal (an illegal
# parameter) always stops the build.
# C++ optimisation: Verilator's make appends OPT_FAST to the code that runs
# every cycle and OPT_SLOW to the code that runs once (constructors, the
# initial settle, trace declarations and full dumps): half the source of a
# SoC model. -O0 there builds ktpu-sim-1 in 73 s instead of 122 s with the
# same simulation speed (256x256x256 MXFP7: 2.9 s either way, traced or not).
# OPT_FAST -O2 instead of Verilator's -Os: the 2-cluster SoC's clock loop
# 18% faster (256x256x1024 MXFP7: 1.45 s to 1.22 s), built no slower (1m35
# against 1m58 for its C++ on 2 cores). A compiler option, not a simulation
# one: every binary gets it, the regression ones included.
# No -j: Verilator's make of the model's C++ joins this make's job server
# (the verilate recipe is marked '+'), so `make -jN` runs N compilers in all,
# over every model at once. With its own -j 2, the sub-make found the job
# server closed and fell back to one compiler per model: the last model of a
# build (ktpu-sim-4, ~6 minutes of C++) left a core idle. (A '+' recipe
# also runs under `make -n`.)
VERILATOR        := verilator
VL_OPT_FAST      := -O2
VL_OPT_SLOW      := -O0
VERILATOR_FLAGS  := --cc --exe --build -Wall -Wno-fatal -Werror-USERFATAL --x-assign unique --x-initial unique \
                    -O2 --assert -CFLAGS -std=c++17 -MAKEFLAGS OPT_SLOW=$(VL_OPT_SLOW) -MAKEFLAGS OPT_FAST=$(VL_OPT_FAST) -I$(GEN)
# Verilator's runtime headers (what every generated file includes first,
# and the FST writer's, which the trace files include), precompiled once
# for every model and read by each of its objects through -include
# (scripts/verilator_pch.mk says why). A model depends on them, so a
# change of flags rebuilds both. Not
# for a model built with --timing (the vendor DSP48E2 and its mock): its
# objects are compiled with -fcoroutines, and GCC 12 takes a header
# precompiled without it, which leaves <coroutine>'s builtins undeclared.
VL_PCH           := $(BUILD)/vl-pch/ktpu_vl.h
VL_PCH_BUILT     := $(BUILD)/vl-pch/built$(VL_OPT_FAST)$(VL_OPT_SLOW)
vl_pch_flags      = $(if $(filter --timing,$(1)),,-CFLAGS -include -CFLAGS $(abspath $(VL_PCH)))
$(VL_PCH):
	@mkdir -p $(@D)
	@printf '#include "verilated.h"\n#include "verilated_dpi.h"\n#include "verilated_fst_c.h"\n' >$@
$(VL_PCH_BUILT): $(VL_PCH) scripts/verilator_pch.mk
	@echo "precompile $(VL_PCH)"
	@rm -rf $(VL_PCH).gch $(@D)/built*
	+@root=$$($(VERILATOR) --getenv VERILATOR_ROOT) && \
	  $(MAKE) -s --no-print-directory -f $$root/include/verilated.mk -f scripts/verilator_pch.mk \
	    VERILATOR_ROOT=$$root PCH=$(VL_PCH) OPT_FAST=$(VL_OPT_FAST) OPT_SLOW=$(VL_OPT_SLOW) pch && touch $@
# Models' C++ through ccache when it is installed (scripts/deps.sh installs
# it), its cache in the build tree: every model compiles Verilator's
# runtime (verilated.cpp, its FST writer, threads, DPI: about 10 s of CPU a
# model) from the same source with the same flags, and a mutant rebuilds a
# bench whose generated files mostly did not change. Without ccache the
# build is the same, only slower.
ifneq ($(shell command -v ccache 2>/dev/null),)
VERILATOR_FLAGS  += -MAKEFLAGS OBJCACHE=ccache
export CCACHE_DIR := $(abspath $(BUILD))/ccache
# The precompiled headers (above) are cached only with this sloppiness
# (ccache's manual, "Precompiled headers"); the .gch itself is hashed.
export CCACHE_SLOPPINESS := pch_defines,time_macros
endif

# ---- names shared across fragments -----------------------------------------
# Defined here, not in the fragment that builds them, because fragments are
# read in directory order and a prerequisite list is expanded when read
# (REF_INC and REF_LIB_RV32 with the toolchain, above).
REF_LIB      := $(BUILD)/host/libktpuref.a

# DSP48E2: the repository's model by default. DSP48E2_MODEL=/path/DSP48E2.v
# rebuilds every bench against the vendor's simulation model instead (with its
# glbl.v, found beside it unless GLBL= says otherwise); those builds go to a
# separate directory so the two never mix. The model is read through a
# private copy with exact, counted edits that Verilator needs
# (scripts/dsp/vendor_prep.sh; docs/dsp.md). KTPU_GLBL tells a bench top to
# instantiate `glbl glbl ();`, which the vendor model reaches as glbl.GSR.
ifdef DSP48E2_MODEL
GLBL           ?= $(dir $(DSP48E2_MODEL))glbl.v
DSP48E2_SRCS   := $(BUILD)/vendor/DSP48E2.v $(BUILD)/vendor/glbl.v
DSP48E2_VFLAGS := --timing -Wno-fatal +define+KTPU_GLBL
VL_DIR         := $(BUILD)/vl-vendor
$(DSP48E2_SRCS) &: $(DSP48E2_MODEL) $(GLBL) scripts/dsp/vendor_prep.sh
	scripts/dsp/vendor_prep.sh $(DSP48E2_MODEL) $(GLBL) $(BUILD)/vendor
else
DSP48E2_SRCS   := rtl/dsp/DSP48E2.sv
DSP48E2_VFLAGS :=
VL_DIR         := $(BUILD)/vl
endif

# ---- RTL blocks and file lists ----------------------------------------------
# Each block's fragment (rtl/*/block.mk) declares only its own files and the
# blocks whose modules it instantiates:
#   RTL.name      := its files, in compile order
#   RTL_USES.name := blocks it uses
# $(call rtl_srcs,NAME...) is the closure (used blocks first, every file
# once). Benches, synthesis rows and the tops' file lists all come from it;
# a top's list, build/filelists/TOP.f (the package first, one path a line),
# is what Verilator (-f), Yosys and Vivado read for that top.
# RTL_PATCH='ORIG=COPY ...' (the mutant scripts) names COPY wherever ORIG is.
rtl_uniq    = $(if $(1),$(firstword $(1)) $(call rtl_uniq,$(filter-out $(firstword $(1)),$(1))))
rtl_closure = $(foreach b,$(1),$(if $(filter undefined,$(origin RTL.$(b))),$(error unknown RTL block '$(b)'),\
                $(call rtl_closure,$(RTL_USES.$(b))) $(RTL.$(b))))
rtl_patch   = $(foreach f,$(1),$(or $(patsubst $(f)=%,%,$(filter $(f)=%,$(RTL_PATCH))),$(f)))
rtl_srcs    = $(call rtl_patch,$(strip $(call rtl_uniq,$(call rtl_closure,$(1)))))
# $(call dp_model,FILES): FILES with the cluster datapath's functional model
# (sim/model/, for the --dp-model co-simulators) in place of its RTL, the
# tensor CUs and MACs it no longer instantiates left out. Defined here, not
# in a fragment: the co-simulators' rules expand it as they are read.
DP_MODEL_SV := sim/model/ktpu_cluster_dp.sv
dp_model    = $(call rtl_patch,$(filter-out $(RTL.tcu) $(RTL.mx_mac),$(patsubst $(RTL.cluster_dp),$(DP_MODEL_SV),$(1))))

# $(call filelist,TOP,BLOCK...) declares build/filelists/TOP.f; its contents
# are FILELIST.TOP. The file is rewritten only when they change, so a
# binary built from it is rebuilt only then. $(call synth_filelist,...) is
# the same without the DSP48E2 simulation model (synthesis has the primitive).
FILELIST_DIR ?= $(BUILD)/filelists$(if $(DSP48E2_MODEL),-vendor)
.PHONY: FORCE
define filelist_rule
FILELISTS += $(FILELIST_DIR)/$(1).f
FILELIST.$(1) = $(GEN_SV) $(2)
$(FILELIST_DIR)/$(1).f: FORCE
	@mkdir -p $$(@D)
	@t=$$$$(mktemp $$@.XXXXXX) && printf '%s\n' $$(FILELIST.$(1)) >$$$$t && \
	 { cmp -s $$$$t $$@ && rm -f $$$$t || { chmod 644 $$$$t && mv -f $$$$t $$@; }; }
endef
# `make -s rtl-srcs BLOCKS='...' [RTL_PATCH=...]` prints the closure, for
# scripts that run Verilator themselves (the mutant sweeps).
.PHONY: rtl-srcs
rtl-srcs: ; @echo $(call rtl_srcs,$(BLOCKS))
filelist       = $(eval $(call filelist_rule,$(1),$$(call rtl_srcs,$(2))))
synth_filelist = $(eval $(call filelist_rule,$(1),$$(filter-out $$(DSP48E2_SRCS),$$(call rtl_srcs,$(2)))))
FILELISTS :=

# $(call verilate,NAME,TOP,SOURCES,EXTRA_VERILATOR_FLAGS)
# Builds $(VL_DIR)/NAME/VTOP from SystemVerilog, C++ harness and C sources,
# linked with the host reference library; harnesses may include the shared
# bench helpers in tests/common (ktpu_tb.h: command line, context, random
# stream, check counters), and a model with sources under tests/ is rebuilt
# when one of those changes. The build log stays beside it.
# A top's file list among SOURCES (build/filelists/TOP.f) is passed as -f
# and brings the package; otherwise the package is passed first.
# The old binary is removed first: Verilator's own make does not relink when
# only a library changed.
TB_COMMON := tests/common
define verilate
VL_BINS += $(VL_DIR)/$(1)/V$(2)
$(VL_DIR)/$(1)/V$(2): $(3) $(foreach f,$(filter %.f,$(3)),$(FILELIST.$(basename $(notdir $(f))))) \
                      $(GEN_SV) $(REF_LIB) $(VL_PCH_BUILT) $(if $(filter tests/%,$(3)),$(wildcard $(TB_COMMON)/*.h))
	@mkdir -p $$(@D)
	@rm -f $$@
	@echo "verilate $(1)"
	+@$(VERILATOR) $(VERILATOR_FLAGS) $(call vl_pch_flags,$(4)) $(4) --top-module $(2) --Mdir $$(@D) -o V$(2) \
	    -CFLAGS -I$(abspath $(REF_INC)) -CFLAGS -I$(abspath $(GEN)) -CFLAGS -I$(abspath $(TB_COMMON)) \
	    $(if $(filter %.f,$(3)),,$(GEN_SV)) $(foreach f,$(3),$(if $(filter %.f,$(f)),-f $(f),$(abspath $(f)))) \
	    $(abspath $(REF_LIB)) >$$(@D)/build.log 2>&1 \
	  || { tail -n 40 $$(@D)/build.log; exit 1; }
endef

# ---- generated constants (SPEC §12) -----------------------------------------
DEFS_SRC := data/ktpu.def
GEN_SV   := $(GEN)/ktpu_pkg.sv
GEN_H    := $(GEN)/ktpu_defs.h
GEN_DEFS := $(BUILD)/tools/gen_defs

# Its outputs go through the host tools' one output writer (sim/ref/ktpu_out.c).
$(GEN_DEFS): scripts/gen_defs.c sim/ref/ktpu_out.c sim/ref/ktpu_out.h
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Isim/ref -o $@ $< sim/ref/ktpu_out.c

$(GEN_SV) $(GEN_H) &: $(DEFS_SRC) $(GEN_DEFS)
	@mkdir -p $(GEN)
	$(GEN_DEFS) $(DEFS_SRC) $(GEN_SV) $(GEN_H)

# The version every tool prints with --version and every report carries: git
# describe of the tree it was built from. Rewritten only when it changes, so a
# new commit relinks the tools and rebuilds nothing else.
GEN_VERSION := $(GEN)/ktpu_version.h
# (Through a temporary file of its own: two makes on one tree, such as
# make test beside a regress sweep, run this rule at once.)
$(GEN_VERSION): FORCE
	@mkdir -p $(@D)
	@v=$$(git describe --always --dirty 2>/dev/null || echo unknown); t=$$(mktemp $@.XXXXXX) || exit 1; \
	 echo "#define KTPU_VERSION \"$$v\"" >$$t; \
	 if cmp -s $$t $@; then rm -f $$t; else chmod 644 $$t && mv -f $$t $@; fi

# ---- fragments --------------------------------------------------------------
# A fragment may add:
#   TESTS += NAME            with  TEST_CMD.NAME := shell command (exit 0 = pass)
#   TEST_DEPS += FILES       built (in parallel) before any test runs
#   RUN_DEPS, RUN_CMDS       what `make run` builds and runs
#   BENCH_DEPS, BENCH_CMDS   the same for `make bench` (cycles, CSV in build/bench/)
#   REGRESS += NAME          with  REGRESS_CMD.NAME: a long sweep of `make regress`,
#   REGRESS_DEPS += FILES    run by the test runner as the tests are
#   SYNTH_BLOCKS += NAME     with  SYNTH_TOP.NAME := module, SYNTH_SRCS.NAME := files
# A RUN/BENCH/SYNTH *_CMDS entry is one shell command ending in ' ;' (words
# alone would split it); they run in order under `set -e`, stopping at the
# first failure.
TESTS :=
TEST_DEPS := $(GEN_SV) $(GEN_H)
RUN_DEPS := $(GEN_SV) $(GEN_H)
BENCH_DEPS := $(GEN_SV) $(GEN_H)
REGRESS_DEPS := $(GEN_SV) $(GEN_H)
SYNTH_DEPS := $(GEN_SV) $(GEN_H)
RUN_CMDS :=
BENCH_CMDS :=
REGRESS :=
SYNTH_CMDS :=
SYNTH_BLOCKS :=
include $(sort $(wildcard rtl/*/block.mk sim/*/block.mk firmware/block.mk firmware/*/block.mk fpga/block.mk \
                          scripts/*/block.mk tests/*/tests.mk tests/*/fuzz.mk))

run_cmds = @set -e; $(1) true

test-run: $(TEST_DEPS)
	$(file >$(BUILD)/tests.list,$(foreach t,$(TESTS),$(t)$(TAB)$(TEST_CMD.$(t))$(NL)))
	@KTPU_TEST_ONLY='$(T)' KTPU_TEST_PARALLEL='$(PARALLEL)' scripts/run_tests.sh $(BUILD)/tests.list $(BUILD)/logs $(BUILD)/test-results.xml

run-build: $(RUN_DEPS)
run-go:
	$(call run_cmds,$(RUN_CMDS))
bench-build: $(BENCH_DEPS)
bench-go:
	$(call run_cmds,$(BENCH_CMDS))
synth-build: $(SYNTH_DEPS)
synth-go:
	$(call run_cmds,$(SYNTH_CMDS))
regress-build: $(REGRESS_DEPS)
# The sweeps go through the test runner (a line each, build/logs-regress/,
# build/regress-results.xml, T= and PARALLEL= as for make test), one at a
# time unless REGRESS_JOBS says more: several at once share the cores their
# own parallel builds use, and a few checks wait on wall-clock time.
REGRESS_JOBS ?= 1
regress-go:
	$(file >$(BUILD)/regress.list,$(foreach t,$(REGRESS),$(t)$(TAB)$(REGRESS_CMD.$(t))$(NL)))
	@KTPU_TEST_ONLY='$(T)' KTPU_TEST_PARALLEL='$(PARALLEL)' KTPU_TEST_JOBS=$(REGRESS_JOBS) \
	  scripts/run_tests.sh $(BUILD)/regress.list $(BUILD)/logs-regress $(BUILD)/regress-results.xml
