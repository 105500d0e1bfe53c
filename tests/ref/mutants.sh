#!/usr/bin/env bash
# Deliberately broken references: each mutant below is applied to a copy of
# sim/ref (never to the tree), the library, ktpu-ref and the tests/ref
# programs are rebuilt against it, and at least one test must fail. A
# mutant that every test passes is a hole in the tests.
# usage: tests/ref/mutants.sh [PATTERN]   (from the repository root; `make regress`)
# PATTERN (grep -E) runs only the mutants whose description matches.
set -u
filter=${1:-}
root=$(pwd)
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
CFLAGS="-std=c99 -O2 -Wall -Wextra -Wno-unused-function -Wno-unused-parameter -Wno-unused-variable -Wno-unused-but-set-variable -ffp-contract=off -I$root/build/gen"
tests="dsp store quant r16 r22 gemm"

# FILE <TAB> PERL SUBSTITUTION <TAB> WHAT IT BREAKS
mutants=$(cat <<'M'
ktpu_ref_fp.c	s/\(rem == half && \(kept & 1u\)\)/(rem == half)/	R22/R16 ties away from zero instead of to even
ktpu_ref_fp.c	s/\| \(\(b\.mag & \(\(\(\(uint64_t\)1\) << sh\) - 1u\)\) != 0\)//	exact sum loses the sticky bit of the far operand
ktpu_ref_fp.c	s/#define ALIGN_MAX 21/#define ALIGN_MAX 24/	aligned operand overflows 64 bits
ktpu_ref_fp.c	s/    a = normalise\(a\);\n    b = normalise\(b\);\n//	exact sum aligns by exponent without normalising (a wide P outweighs a larger exponent)
ktpu_ref_fp.c	s/sig = shift_rne\(mag, -24 - exp2\);/sig = 0;/	R16 flushes subnormal results to zero
ktpu_ref_fp.c	s/return 0; \/\* rounds to zero: \+0, never -0 \*\//return (uint16_t)(neg ? 0x8000u : 0u);/	R16 emits -0
ktpu_ref_fp.c	s/if \(sig >> \(KTPU_FP22_FRAC_BITS \+ 1\)\) \{/if (0) {/	R22 drops the carry of rounding into the exponent
ktpu_ref_fp.c	s/if \(biased > FP22_EMAX\) \{/if (biased > FP22_EMAX + 1) {/	R22 misses saturation at the top binade
ktpu_ref_fp.c	s/fl = KTPU_FLAG_ACC_UNDERFLOW;/fl = 0;/	R22 underflow not flagged
ktpu_ref_fp.c	s/\*flags \|= KTPU_FLAG_FP16_OVERFLOW;/;/	R16 saturation not flagged
ktpu_ref_fp.c	s/\*flags \|= fl;/*flags = fl;/	R22 flags overwrite instead of OR (not sticky)
ktpu_ref_fp.c	s/if \(e == 0\) \{ \/\* exponent field 0/if (0) { \/* exponent field 0/	FP22 exponent-0 patterns not read as zero
ktpu_ref_fp.c	s/\*exp2 = ea \+ eb - \(int\)KTPU_BLOCK_EXP_OFFSET;/*exp2 = ea + eb - 45;/	block contribution off by a factor 2
ktpu_ref_fp.c	s/int32_t mb = 8 \+/int32_t mb = 7 +/	wrong mantissa product
ktpu_ref_mx.c	s/\(2u \* r == den && \(q & 1u\)\)/(2u * r == den)/	quantiser rounds ties away
ktpu_ref_mx.c	s/\*sig = e \? \(f \| \(1u << KTPU_FP16_EXP_LSB\)\) : f;/*sig = e ? (f | (1u << KTPU_FP16_EXP_LSB)) : 0;/	quantiser flushes subnormal inputs
ktpu_ref_mx.c	s/\*ep = e \? \(int\)e : 1;/*ep = (int)e;/	subnormal inputs decoded with exponent field 0 (half their value)
ktpu_ref_mx.c	s/    if \(sig == 0\)\n        return KTPU_MX_SCALE_ONE;\n/    if (sig == 0)\n        return KTPU_MX_SCALE_ONE;\n    if (!(peak & KTPU_FP16_EXP_MASK))\n        return 0x00u;\n/	subnormal peak always gets s = 0x00 (the literal §3.2 formula; q reaches 64)
ktpu_ref_mx.c	s/uint32_t m = \(sig \+ 125u\) \/ 126u;/uint32_t m = sig \/ 126u + 1u;/	scale mantissa by floor+1 instead of ceil
ktpu_ref_mx.c	s/== FP16_EXP_INF\) \{/== FP16_EXP_INF \&\& !(mag \& 0x3FFu)) {/	NaN not treated as non-finite
ktpu_ref_mx.c	s/if \(bit % 8u > 1u\) \/\* the field spills/if (bit % 8u > 2u) \/* the field spills/	storage drops a spilled bit
ktpu_ref_mx.c	s/i < KTPU_MX_STORE_BYTES; i\+\+\)\n        bad/i < KTPU_MX_STORE_BYTES - 1; i++)\n        bad/	byte 31 not checked on load
ktpu_ref_dsp.c	s/\*upper = hi_s \+ \(int32_t\)borrow;/*upper = hi_s;/	extraction without the borrow correction
ktpu_ref_dsp.c	s/\(\(\(uint64_t\)1 << 48\) - 1u\);\n    if \(u & \(\(uint64_t\)1 << 47\)\)/(((uint64_t)1 << 47) - 1u);\n    if (u \& ((uint64_t)1 << 46))/	P wrapped at 47 bits
ktpu_ref_dsp.c	s/int64_t ad = \(int64_t\)w1 \* \(\(int64_t\)1 << KTPU_MAC_PACK_SHIFT\)/int64_t ad = (int64_t)w1 * ((int64_t)1 << 18)/	packing shift 18
ktpu_ref_acc.c	s/\*tile = ktpu_ref_r22_add_contribution\(\*tile, p, sa, sb, flags\);\n        \*out16 = ktpu_ref_r16\(\*tile, flags\);/*out16 = ktpu_ref_r16(*tile, flags);\n        *tile = ktpu_ref_r22_add_contribution(*tile, p, sa, sb, flags);/	ADD_EMIT emits the old tile
ktpu_ref_acc.c	s/\*peer_out = \*tile & FP22_WORD_MASK;/*peer_out = *tile;/	SEND passes bits above 21
ktpu_ref_acc.c	s/for \(size_t kb = kb0; kb < kb1; kb\+\+\) \{\n                int32_t p = ktpu_ref_block_dot\(qa \+ i \* k \+ kb \* KTPU_MX_BLOCK_K,\n                                               qb \+ j \* k \+ kb \* KTPU_MX_BLOCK_K\);/for (size_t kr = kb0; kr < kb1; kr++) {\n                size_t kb = kb1 - 1 - (kr - kb0);\n                int32_t p = ktpu_ref_block_dot(qa + i * k + kb * KTPU_MX_BLOCK_K,\n                                               qb + j * k + kb * KTPU_MX_BLOCK_K);/	K-blocks accumulated in decreasing order
ktpu_ref_acc.c	s/\(kb == kb0 && !acc\) \? KTPU_ACC_LOAD/(kb == kb0) ? KTPU_ACC_LOAD/	acc bit ignored
ktpu_ref_acc.c	s/for \(unsigned i = 0; i \+ d < parts; i \+= 2 \* d\)/for (unsigned i = 0; i + d < parts \&\& d == 1; i += 2 * d)/	split-K sums only the first level of the tree
ktpu_ref_acc.c	s/\*kb0 = part \* q \+ \(part < r \? part : r\);/*kb0 = part * q + (part > parts - 1 - r ? part - (parts - r) : 0);/	split-K's longer parts are the last, not the first
ktpu_npy.c	s/if \(strcmp\(descr, "<f2"\) != 0\)/if (strncmp(descr, "<f", 2) != 0)/	.npy reader accepts any little-endian float
ktpu_npy.c	s/hoff = 12;/hoff = 10;/	v2.0 header length read as v1.0
ktpu_npy.c	s/    if \(have > count \* 2u\)\n/    if (0)\n/	trailing bytes accepted
ktpu_ref_main.c	s/== KTPU_FP16_EXP_MASK\) \{/== 0xFFFFu) {/	CLI does not reject non-finite input
ktpu_ref_main.c	s/\} else if \(m->shape\[1\] % KTPU_MX_BLOCK_K != 0\) \{/} else if (0) {/	CLI accepts K not a multiple of 32
M
)

build() { # DIR: build library, ktpu-ref and the test programs from DIR/src
  local d=$1 s=$1/src
  mkdir -p "$d/bin"
  for f in ktpu_ref_dsp ktpu_ref_mx ktpu_ref_fp ktpu_ref_acc ktpu_npy ktpu_arg ktpu_in ktpu_out; do
    gcc $CFLAGS -I"$s" -c -o "$d/$f.o" "$s/$f.c" || return 1
  done
  ar rcs "$d/lib.a" "$d"/ktpu_*.o 2>/dev/null
  gcc $CFLAGS -I"$s" -o "$d/bin/ktpu-ref" "$s/ktpu_ref_main.c" "$d/lib.a" || return 1
  for t in $tests; do
    gcc $CFLAGS -I"$s" -I"$root/tests/ref" -o "$d/bin/$t" "$root/tests/ref/test_$t.c" \
        "$root/tests/ref/model.c" "$d/lib.a" || return 1
  done
  gcc $CFLAGS -I"$s" -o "$d/bin/selftest" "$root/tests/ref/selftest.c" "$d/lib.a" || return 1
}
run_all() { # DIR -> names of failing tests on stdout
  local d=$1 t
  for t in $tests; do "$d/bin/$t" >/dev/null 2>&1 || printf '%s ' "$t"; done
  "$d/bin/selftest" >/dev/null 2>&1 || printf 'selftest '
  "$root/tests/ref/cli_test.sh" "$d/bin/ktpu-ref" >/dev/null 2>&1 || printf 'cli '
}

# the unmutated copy must pass everything, or the comparison means nothing
mkdir -p "$work/base"; cp -r "$root/sim/ref" "$work/base/src"
build "$work/base" || { echo "mutants: clean build failed"; exit 1; }
clean=$(run_all "$work/base")
[ -z "$clean" ] || { echo "mutants: unmutated reference fails: $clean"; exit 1; }

n=0 caught=0 missed=0
while IFS=$'\t' read -r file subst what; do
  [ -z "$file" ] && continue
  [ -n "$filter" ] && ! grep -Eq -- "$filter" <<<"$what" && continue
  n=$((n + 1)); d=$work/m$n
  mkdir -p "$d"; cp -r "$root/sim/ref" "$d/src"
  perl -0pi -e "$subst" "$d/src/$file"
  if cmp -s "$d/src/$file" "$root/sim/ref/$file"; then
    echo "MUTANT $n NOT APPLIED ($file: $what)"; missed=$((missed + 1)); continue
  fi
  if ! build "$d" 2>"$d/build.log"; then
    echo "mutant $n ($what): does not build"; missed=$((missed + 1)); continue
  fi
  failing=$(run_all "$d")
  if [ -n "$failing" ]; then
    caught=$((caught + 1)); printf 'mutant %2d caught by %-22s %s\n' "$n" "$failing" "$what"
  else
    missed=$((missed + 1)); echo "mutant $n SURVIVED: $what"
  fi
  rm -rf "$d"
done <<<"$mutants"
echo "ref_mutants: $n mutants, $caught caught, $missed survived or not applied"
[ "$missed" -eq 0 ]
