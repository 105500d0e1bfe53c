# build/ktpu-sim, the SoC co-simulator (SPEC §2, §11): Verilator model of
# ktpu_sim_top (SoC + multi-port DRAM model), a thin C++ main, and a C library
# with the ELF loader, the instruction-set model used by --lockstep, the
# receiver of the core's DPI trace (any model containing ktpu_cpu links
# $(SIMLIB)) and the GEMM job of --gemm (operands, DRAM layout, checks).
# Three machines: build/ktpu-sim (2 clusters, the default machine) and
# build/ktpu-sim-1 (one memory agent each), build/ktpu-sim-4 (two memory
# agents, two DRAM ports); `ktpu-sim --clusters N` runs the sibling binary
# built for N.
SIMLIB_SRCS := sim/harness/ktpu_elf.c sim/harness/ktpu_iss.c sim/harness/ktpu_iss_platform.c sim/harness/ktpu_gdb.c \
               sim/harness/ktpu_rvfi.c sim/harness/ktpu_timeline.c \
               sim/harness/ktpu_gemm_operands.c sim/harness/ktpu_gemm_job.c sim/harness/ktpu_gemm_report.c
# the GEMM firmware's planner and encoders, unchanged: the reference follows
# its split-K order
SIMLIB_FW   := firmware/gemm/ktpu_plan.c firmware/gemm/ktpu_job.c firmware/lib/ktpu_ci.c
SIMLIB_OBJS := $(patsubst sim/harness/%.c,$(BUILD)/host/harness/%.o,$(SIMLIB_SRCS)) \
               $(patsubst %.c,$(BUILD)/host/harness/%.o,$(notdir $(SIMLIB_FW)))
SIMLIB      := $(BUILD)/host/libktpusim.a
KTPU_SIM    := $(BUILD)/ktpu-sim
KTPU_SIM1   := $(BUILD)/ktpu-sim-1
KTPU_SIM4   := $(BUILD)/ktpu-sim-4

# (the GEMM job's files include the firmware's planner and instruction
# headers: a struct changed there must rebuild them)
$(BUILD)/host/harness/%.o: sim/harness/%.c $(wildcard sim/harness/*.h) $(wildcard firmware/include/*.h) \
                           $(addprefix sim/ref/,ktpu_ref.h ktpu_npy.h ktpu_in.h ktpu_out.h) $(GEN_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Isim/harness -I$(REF_INC) -Ifirmware/include -c -o $@ $<
$(BUILD)/host/harness/ktpu_%.o: firmware/gemm/ktpu_%.c firmware/include/ktpu_plan.h firmware/include/ktpu_ci.h $(GEN_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Ifirmware/include -c -o $@ $<
$(BUILD)/host/harness/ktpu_%.o: firmware/lib/ktpu_%.c firmware/include/ktpu_ci.h $(GEN_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Ifirmware/include -c -o $@ $<

# (the models behind the copies below; `make test` builds the first four)
KTPU_SIM_TEST_MODELS := $(patsubst %,$(VL_DIR)/%/Vktpu_sim_top,ktpu_sim ktpu_sim1 ktpu_sim4 ktpu_sim2_dpm)
KTPU_SIM_MODELS := $(KTPU_SIM_TEST_MODELS) $(patsubst %,$(VL_DIR)/%/Vktpu_sim_top,ktpu_sim1_dpm ktpu_sim4_dpm)
# Verilator's own make does not relink when a library it was handed changes,
# so a new library removes the old binaries.
$(SIMLIB): $(SIMLIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@ $(KTPU_SIM_MODELS) && ar rcs $@ $^

# What ktpu-sim simulates: the SoC and the DRAM model (build/filelists/ktpu_sim_top.f).
RTL.sim_top      := sim/harness/ktpu_sim_top.sv
RTL_USES.sim_top := soc axi_port dram
$(call filelist,ktpu_sim_top,sim_top)
SIM_TOP_SRCS := sim/harness/ktpu_sim.vlt $(FILELIST_DIR)/ktpu_sim_top.f $(wildcard sim/harness/ktpu_sim_*.cpp) $(SIMLIB)
# --output-split-ctrace: Verilator writes each trace file's change dump as
# one function (13,000 lines on ktpu-sim-4), which GCC -O2 compiles in 14 s
# a file; cut into functions of about 2,000 statements, the five of
# ktpu-sim-4 compile in 35 s instead of 68, and nothing runs differently
# (the functions run only while tracing, in the same order).
SIM_VFLAGS   := --trace-fst --output-split-ctrace 2000 $(DSP48E2_VFLAGS) -CFLAGS -I$(abspath sim/harness) -LDFLAGS -lm

SIM_MACHINE.1 := -GClusters=1 -CFLAGS -DKTPU_SIM_CLUSTERS=1
SIM_MACHINE.2 := -GClusters=2 -CFLAGS -DKTPU_SIM_CLUSTERS=2
SIM_MACHINE.4 := -GClusters=4 -GMemPorts=2 -CFLAGS -DKTPU_SIM_CLUSTERS=4 -CFLAGS -DKTPU_SIM_MEM_PORTS=2
$(eval $(call verilate,ktpu_sim,ktpu_sim_top,$(SIM_TOP_SRCS),$(SIM_VFLAGS) $(SIM_MACHINE.2)))
$(eval $(call verilate,ktpu_sim1,ktpu_sim_top,$(SIM_TOP_SRCS),$(SIM_VFLAGS) $(SIM_MACHINE.1)))
$(eval $(call verilate,ktpu_sim4,ktpu_sim_top,$(SIM_TOP_SRCS),$(SIM_VFLAGS) $(SIM_MACHINE.4)))

# The same machines with the cluster datapath's functional model in place
# of its RTL (the Makefile's dp_model; `ktpu-sim --dp-model`): for speed, in
# `make bench` and for users' long runs. `make test` builds the 2-cluster
# one only, to show it equal to ktpu-sim (soc_dp_model).
$(eval $(call filelist_rule,ktpu_sim_top_dpm,$$(call dp_model,$$(call rtl_srcs,sim_top))))
SIM_TOP_DPM_SRCS := $(subst ktpu_sim_top.f,ktpu_sim_top_dpm.f,$(SIM_TOP_SRCS))
$(foreach n,1 2 4,$(eval $(call verilate,ktpu_sim$(n)_dpm,ktpu_sim_top,$(SIM_TOP_DPM_SRCS),\
  $(SIM_VFLAGS) $(SIM_MACHINE.$(n)) -CFLAGS -DKTPU_SIM_DP_MODEL=1)))

# Copied beside its final name and renamed: a running ktpu-sim (another
# test) would make a plain cp fail with "text file busy".
$(KTPU_SIM): $(VL_DIR)/ktpu_sim/Vktpu_sim_top
	cp $< $@.tmp && mv -f $@.tmp $@
$(KTPU_SIM1): $(VL_DIR)/ktpu_sim1/Vktpu_sim_top
	cp $< $@.tmp && mv -f $@.tmp $@
$(KTPU_SIM4): $(VL_DIR)/ktpu_sim4/Vktpu_sim_top
	cp $< $@.tmp && mv -f $@.tmp $@
$(BUILD)/ktpu-sim-dpm: $(VL_DIR)/ktpu_sim2_dpm/Vktpu_sim_top
	cp $< $@.tmp && mv -f $@.tmp $@
$(BUILD)/ktpu-sim-%-dpm: $(VL_DIR)/ktpu_sim%_dpm/Vktpu_sim_top
	cp $< $@.tmp && mv -f $@.tmp $@

RUN_DEPS   += $(KTPU_SIM)
TEST_DEPS  += $(KTPU_SIM) $(KTPU_SIM1) $(KTPU_SIM4) $(BUILD)/ktpu-sim-dpm

# `make run`: a GEMM through the built-in GEMM firmware on ktpu-sim.
RUN_DEPS += $(GEMM_FW_ELF) $(BUILD)/tools/ktpu-example
RUN_CMDS += sim/harness/run_gemm.sh ;
BENCH_DEPS += $(KTPU_SIM) $(KTPU_SIM1) $(KTPU_SIM4) $(addprefix $(BUILD)/ktpu-sim,-dpm -1-dpm -4-dpm)

# --version and the report's run line (build/gen/ktpu_version.h, rewritten
# only when git describe changes)
$(KTPU_SIM_MODELS): $(GEN_VERSION)
