# The firmware libraries that fw_prog (firmware/block.mk) and the SDK
# (firmware/ktpu.mk) link; their names are in firmware/toolchain.mk.
#   libktpu_rt.a    crt0, trap entry and dispatch, UART stdio and _exit,
#                   the mesh and cluster driver (ktpu_mesh.c, ktpu_ci.c)
#   libktpu_gemm.a  the GEMM service: ktpu_gemm_init/run, the job check,
#                   the planner
# Their members are the objects ktpu_gemm.elf links (GEMM_FW_SRCS and their
# -O2 flags: firmware/gemm/block.mk, read before this file), so a program
# of the SDK runs the same driver and service as the built-in firmware.
FW_DRIVER_OBJS := $(patsubst %.c,$(FW_DIR)/obj/%.o,$(filter firmware/lib/%,$(GEMM_FW_SRCS)))
FW_GEMM_OBJS   := $(patsubst %.c,$(FW_DIR)/obj/%.o,$(filter-out firmware/lib/%,$(GEMM_FW_SRCS)))

# (this file too: a member added or removed rebuilds the archive)
$(FW_RT_LIB): $(FW_CRT0) $(FW_RT_OBJS) $(FW_DRIVER_OBJS) firmware/lib/block.mk
	@mkdir -p $(@D)
	rm -f $@ && $(RV_PREFIX)ar rcs $@ $(filter %.o,$^)
$(FW_GEMM_LIB): $(FW_GEMM_OBJS) firmware/lib/block.mk
	@mkdir -p $(@D)
	rm -f $@ && $(RV_PREFIX)ar rcs $@ $(filter %.o,$^)

TEST_DEPS += $(FW_RT_LIB) $(FW_GEMM_LIB)
