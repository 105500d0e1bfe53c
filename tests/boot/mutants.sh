#!/usr/bin/env bash
# Deliberately broken bootloaders: each mutant is one textual change to a
# copy of firmware/boot/boot.c, linked into a build tree of its own beside
# the real ktpu-sim, and tests/boot/check_boot.sh must FAIL on it.
# Optional argument: run only mutants whose name contains it.
# Run by `make regress` (tests/boot/tests.mk); non-zero if any mutant survives.
set -u
cd "$(dirname "$0")/../.."
out=build/boot_mutants
mkdir -p "$out"
# name | perl substitution on boot.c (must change the file)
mutants=(
  "no_magic_check|s/if \(rd32\(h\) != KTPU_BOOT_MAGIC\) return refuse/if (0) return refuse/"
  "no_header_crc|s/if \(~hcrc != rd32\(h \+ 24\)\)/if (0)/"
  "no_size_limit|s/if \(bytes > KTPU_BOOT_STAGE_BYTES\)/if (0)/"
  "no_block_crc|s/if \(bc == got\) break;/break;/"
  "no_chain_crc|s/if \(~chain != crc\)/if (~chain != crc \&\& 0)/"
  "no_truncation|s/if \(r != n\) return refuse/if (0) return refuse/"
  "no_address_check|s/if \(!inside\(a, ms, KTPU_RAM_BASE, KTPU_BOOT_BASE\) && /if (0 \&\& /"
  "ram_up_to_the_top|s/inside\(a, ms, KTPU_RAM_BASE, KTPU_BOOT_BASE\)/inside(a, ms, KTPU_RAM_BASE, KTPU_RAM_BASE + KTPU_RAM_BYTES)/"
  "dram_into_staging|s/inside\(a, ms, KTPU_DRAM_BASE, KTPU_BOOT_STAGE_BASE\)/inside(a, ms, KTPU_DRAM_BASE, KTPU_BOOT_STAGE_BASE + KTPU_BOOT_STAGE_BYTES)/"
  "no_bss_zeroing|s/for \(; i < ms; i\+\+\) d\[i\] = 0;\n//; s/i \+ 4 <= ms; i \+= 4\) \*dw\+\+ = 0;/i + 4 <= ms; i += 4) dw++;/"
  "copy_skips_tail|s/for \(; i < fs; i\+\+\) d\[i\] = stage\[at \+ i\];//"
  "runs_before_checks|s/\/\* every record where an image may go, before any is copied \*\//if (nseg) ktpu_boot_start(entry);/"
)
b=$PWD/build
fail=0 run=0
for m in "${mutants[@]}"; do
  IFS='|' read -r name sub <<<"$m"
  [ -n "${1:-}" ] && [[ "$name" != *"$1"* ]] && continue
  run=$((run + 1))
  d=$out/$name; rm -rf "$d"; mkdir -p "$d/fw" "$d/tests/soc" "$d/obj"
  perl -0pe "$sub" firmware/boot/boot.c >"$d/obj/boot.c"
  if cmp -s firmware/boot/boot.c "$d/obj/boot.c"; then echo "MUTANT $name: substitution changed nothing"; fail=1; continue; fi
  flags=$(sed -n 's/^BOOT_CFLAGS := \$(RV_CFLAGS) //p' firmware/boot/block.mk)
  if ! make -s --no-print-directory -f - mutant-boot MUT_SRC="$d/obj/boot.c" MUT_OUT="$d/fw/ktpu_boot.elf" \
       <<<'include Makefile
mutant-boot: $(FW_DIR)/boot/entry.o $(FW_MEM_LD) $(BOOT_MEM_LD)
	$(RV_CC) $(BOOT_CFLAGS) -c -o $(MUT_OUT:.elf=.o) $(MUT_SRC)
	$(RV_CC) -march=rv32im -mabi=ilp32 -nostdlib -nostartfiles -Tlinker/ktpu_boot.ld -L$(FW_DIR) -Wl,--gc-sections -Wl,--no-warn-rwx-segments -o $(MUT_OUT) $(FW_DIR)/boot/entry.o $(MUT_OUT:.elf=.o)' \
       >"$d/build.log" 2>&1; then
    echo "MUTANT $name: does not build (see $d/build.log)"; fail=1; continue
  fi
  cp "$b/ktpu-sim" "$d/"; cp "$b/ktpu-upload" "$d/"
  cp "$b/fw/hello.elf" "$b/fw/ktpu_gemm_resident.elf" "$d/fw/"
  cp "$b/tests/soc/exit42.elf" "$b/tests/soc/spin.elf" "$d/tests/soc/"
  if tests/boot/check_boot.sh "$d" "$b/tests/boot" >"$d/run.log" 2>&1; then
    echo "MUTANT $name: SURVIVED"; fail=1
  else
    echo "mutant $name: killed ($(grep -c '^FAIL' "$d/run.log") checks failed)"
  fi
done
echo "boot mutants: $run run"
exit $fail
