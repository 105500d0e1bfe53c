# build/ktpu-sim, the SoC co-simulator (SPEC §2, §11): Verilator model of
# ktpu_sim_top (SoC + DRAM model), a thin C++ main, and a C library with the
# ELF loader, the instruction-set model used by --lockstep, and the receiver
# of the core's DPI trace (any model containing ktpu_cpu links $(SIMLIB)).
SIMLIB_SRCS := sim/harness/ktpu_elf.c sim/harness/ktpu_iss.c sim/harness/ktpu_rvfi.c
SIMLIB_OBJS := $(patsubst sim/harness/%.c,$(BUILD)/host/harness/%.o,$(SIMLIB_SRCS))
SIMLIB      := $(BUILD)/host/libktpusim.a
KTPU_SIM    := $(BUILD)/ktpu-sim

$(BUILD)/host/harness/%.o: sim/harness/%.c $(wildcard sim/harness/*.h) $(GEN_H)
	@mkdir -p $(@D)
	$(HOST_CC) $(HOST_CFLAGS) -Isim/harness -c -o $@ $<

# Verilator's own make does not relink when a library it was handed changes,
# so a new library removes the old binary.
$(SIMLIB): $(SIMLIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@ $(VL_DIR)/ktpu_sim/Vktpu_sim_top && ar rcs $@ $^

SIM_TOP_SRCS := $(SOC_SRCS) rtl/mem/ktpu_dram.sv sim/harness/ktpu_sim_top.sv \
                sim/harness/ktpu_sim_main.cpp $(SIMLIB)

# The RAM wrapper comes from rtl/prim; until it exists nothing here is built.
ifneq ($(wildcard $(KTPU_RAM_SRC)),)
$(eval $(call verilate,ktpu_sim,ktpu_sim_top,$(SIM_TOP_SRCS),--trace-fst -CFLAGS -I$(abspath sim/harness)))

$(KTPU_SIM): $(VL_DIR)/ktpu_sim/Vktpu_sim_top
	cp $< $@

RUN_DEPS   += $(KTPU_SIM)
TEST_DEPS  += $(KTPU_SIM)
BENCH_DEPS += $(KTPU_SIM)
endif
