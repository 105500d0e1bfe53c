# The RV32IM firmware toolchain: build directory, cross compiler, flags and
# the libraries' names, written once for the tree's own build (Makefile) and
# for programs outside it (firmware/ktpu.mk, docs/firmware.md).
# KTPU_TOP is the tree's path with a trailing slash, empty inside the tree,
# where the paths read as they always have (linker/ktpu.ld, build/fw).
KTPU_BUILD   := $(KTPU_TOP)build
KTPU_GEN     := $(KTPU_BUILD)/gen
FW_DIR       := $(KTPU_BUILD)/fw
REF_INC      := $(KTPU_TOP)sim/ref
REF_LIB_RV32 := $(KTPU_BUILD)/rv32/libktpuref.a

RV_PREFIX := riscv64-unknown-elf-
RV_CC     := $(RV_PREFIX)gcc
# Compiled for rv32im_zicsr: the runtime reads mcycle and sets mtvec
# (csrr, csrw). Linked for rv32im: gcc 12 picks picolibc's multilib by
# -march, none matches rv32im_zicsr, and it would take the rv64 default
# ("ABI is incompatible").
RV_ARCH    := -march=rv32im_zicsr -mabi=ilp32
RV_LD_ARCH := -march=rv32im -mabi=ilp32
RV_CFLAGS  := $(RV_ARCH) --specs=picolibc.specs -Os -g \
              -std=c99 -Wall -Wextra -Werror -Wshadow -Wundef -Wmissing-prototypes \
              -pedantic -ffunction-sections -fdata-sections -I$(KTPU_GEN)

# linker/ktpu.ld includes the generated $(FW_DIR)/ktpu_mem.ld, hence -L.
FW_CFLAGS  := $(RV_CFLAGS) -I$(KTPU_TOP)firmware/include
FW_LDFLAGS := $(RV_LD_ARCH) --specs=picolibc.specs -nostartfiles -T$(KTPU_TOP)linker/ktpu.ld -L$(FW_DIR) \
              -Wl,--gc-sections

# The runtime (crt0, traps, UART stdio, mesh and cluster driver) and the
# GEMM service, as archives (rules: firmware/lib/block.mk).
FW_RT_LIB   := $(FW_DIR)/libktpu_rt.a
FW_GEMM_LIB := $(FW_DIR)/libktpu_gemm.a
# The runtime's link, after the program's objects. libc needs the runtime's
# stdout and _exit, and the runtime needs libc: --oslib is picolibc's hook
# for that library, which its specs put inside the --start-group with libc
# and libgcc, so each side's references are resolved whatever the order.
# Nothing calls crt0: picolibc.ld's ENTRY(_start) is what pulls it out of
# the archive; --require-defined says so, and names _start if it is absent.
FW_RT_LINK := --oslib=ktpu_rt -Wl,--require-defined=_start
