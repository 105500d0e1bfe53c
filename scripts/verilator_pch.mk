# Verilator's runtime headers as GCC precompiled headers, one per way a
# model's C++ is compiled. Run by the top-level Makefile after Verilator's
# own verilated.mk, so the compile line is the one a model's objects get:
#   make -f $(VERILATOR_ROOT)/include/verilated.mk -f scripts/verilator_pch.mk \
#        VERILATOR_ROOT=... PCH=build/vl-pch/ktpu_vl.h OPT_FAST=... OPT_SLOW=...
# Every generated .cpp (about 750 in a build) starts by parsing verilated.h
# and its standard headers, ~0.6 s of CPU each, more than many files' own
# code. Each model is compiled with -include $(PCH), and GCC takes from
# $(PCH).gch/ the first variant built with the same -O level and VM_TRACE
# (the macros verilated.h tests); a compile that matches none, like the
# runtime's -Os objects, reads the header text: slower, the same object.
# GCC matches a variant by the macros the level defines (__OPTIMIZE__,
# __OPTIMIZE_SIZE__, __NO_INLINE__), so it tells -O0, -Os and -O2 apart but
# takes an -O1 header for an -O2 compile (seen: an internal compiler error
# in node_tb.cpp). Hence one level for fast code and one for slow, the
# models' own (the Makefile's VL_OPT_FAST, VL_OPT_SLOW), and a directory
# rebuilt whole when they change.
VM_SC         := 0
VM_COVERAGE   := 0
VM_TRACE_VCD  := 0
VM_USER_CFLAGS := -std=c++17

PCH_VARIANTS := fast-0 slow-0 fast-1 slow-1
pch: $(foreach v,$(PCH_VARIANTS),$(PCH).gch/$(v).gch)

# $(PCH).gch/KIND-TRACE.gch: KIND picks OPT_FAST or OPT_SLOW, TRACE sets
# VM_TRACE and VM_TRACE_FST (the co-simulators trace to FST).
$(PCH).gch/%.gch: $(PCH)
	@mkdir -p $(@D)
	$(CXX) $(CXXFLAGS) $(filter-out -MMD -DVM_TRACE=% -DVM_TRACE_FST=%,$(CPPFLAGS)) \
	    -DVM_TRACE=$(lastword $(subst -, ,$*)) -DVM_TRACE_FST=$(lastword $(subst -, ,$*)) \
	    $(if $(filter fast-%,$*),$(OPT_FAST),$(OPT_SLOW)) -x c++-header -o $@ $<
.PHONY: pch
