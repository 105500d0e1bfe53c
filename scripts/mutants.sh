#!/usr/bin/env bash
# The RTL mutant sweep (SPEC §14: a test never seen to fail is not a test).
#
#   scripts/mutants.sh BLOCK [FILTER] [-- ARG...]
#   scripts/mutants.sh --check BLOCK...
#
# reads tests/BLOCK/mutants.tsv: the benches that judge the block, then one
# deliberately broken copy of one source per line. For each mutant whose
# name contains FILTER, the driver copies the file, applies the line's perl
# substitution to the whole file (perl -0), builds each of the line's
# benches through the tree's own make rule (the verilate rule and flags of
# `make test`: VL_DIR, FILELIST_DIR and RTL_PATCH point the build at the
# mutant's directory, so nothing in the tree or in build/vl is touched) and
# runs them in order. The mutant is killed when a bench fails (non-zero
# status, including a time-out); it survives when every bench passes.
# First, the same benches are built and run unmutated (the baseline): if
# the baseline fails, the mutants mean nothing and the sweep stops.
#
# Table format (tab-separated; '#' lines and blank lines are comments):
#   bench <TAB> NAME <TAB> TARGET <TAB> COMMAND
#     TARGET: a make target under the mutant's VL_DIR (e.g. acc/Vktpu_acc);
#     COMMAND: words, {} replaced by the built binary, {args} by the ARGs
#     given after `--` (e.g. the programs a CPU bench runs)
#   NAME <TAB> FILE <TAB> BENCH[,BENCH...] <TAB> PERL SUBSTITUTION
#
# Output: build/mutants/BLOCK/NAME/ (the copy, build and run logs); one line
# per mutant, a summary, status 0 only if every mutant was killed.
# --check builds nothing: it applies every line's substitution of each
# BLOCK's table and fails on one that changes nothing (a mutant left behind
# by an edit of its file; `make test` runs it on every table).
# MUTANT_TIMEOUT (seconds, default 600) bounds each bench run.
set -u
cd "$(dirname "$0")/.."

# read_table FILE: its bench lines into b_target/b_cmd, its mutants into
# names/files/benches/substs
declare -A b_target b_cmd
read_table() {
  b_target=() b_cmd=() names=() files=() benches=() substs=()
  local f1 f2 f3 f4
  while IFS=$'\t' read -r f1 f2 f3 f4; do
    case $f1 in '' | '#'*) continue ;; esac
    if [ "$f1" = bench ]; then
      b_target[$f2]=$f3; b_cmd[$f2]=$f4
    else
      names+=("$f1"); files+=("$f2"); benches+=("$f3"); substs+=("$f4")
    fi
  done <"$1"
}

if [ "${1:-}" = --check ]; then
  shift
  bad=0 n=0
  for blk in "$@"; do
    read_table "tests/$blk/mutants.tsv"
    for i in "${!names[@]}"; do
      n=$((n + 1))
      if [ ! -f "${files[$i]}" ]; then
        echo "mutants: $blk: ${names[$i]}: no file ${files[$i]}"; bad=$((bad + 1))
      elif perl -0pe "${substs[$i]}" "${files[$i]}" | cmp -s - "${files[$i]}"; then
        echo "mutants: $blk: ${names[$i]}: the substitution changes nothing in ${files[$i]}"; bad=$((bad + 1))
      fi
    done
  done
  echo "mutant tables: $n substitutions in $# tables, $bad that change nothing"
  [ $bad -eq 0 ]; exit
fi
block=${1:?usage: scripts/mutants.sh BLOCK [FILTER] [-- ARG...]}
shift
filter=
if [ $# -gt 0 ] && [ "$1" != -- ]; then filter=$1; shift; fi
[ "${1:-}" = -- ] && shift
extra=("$@")
table=tests/$block/mutants.tsv
[ -f "$table" ] || { echo "mutants: no table $table" >&2; exit 2; }
out=build/mutants/$block
limit=${MUTANT_TIMEOUT:-600}
read_table "$table"

# build_run DIR PATCH BENCH: builds BENCH in DIR (RTL_PATCH=PATCH) and runs
# it; 0 pass, 1 fail, 2 no build. Logs: DIR/build-BENCH.log, DIR/run-BENCH.log
build_run() {
  local d=$1 patch=$2 b=$3 bin w words
  bin=$PWD/$d/vl/${b_target[$b]}
  if ! make --no-print-directory -s -j"$(nproc)" VL_DIR="$d/vl" FILELIST_DIR="$d/filelists" RTL_PATCH="$patch" \
       "$d/vl/${b_target[$b]}" >"$d/build-$b.log" 2>&1; then
    return 2
  fi
  local cmd=()
  read -ra words <<<"${b_cmd[$b]}"   # split on blanks, as written in the table
  for w in "${words[@]}"; do
    case $w in
      '{}') cmd+=("$bin") ;;
      '{args}') cmd+=("${extra[@]}") ;;
      *) cmd+=("$w") ;;
    esac
  done
  # in a subshell that outlives the bench (no exec), so the shell's "Aborted"
  # for a bench killed by a signal goes to the log, not to the sweep's output
  (timeout "$limit" "${cmd[@]}"; exit $?) >"$d/run-$b.log" 2>&1
  run_rc=$?
  [ "$run_rc" -eq 0 ] && return 0
  return 1
}

# the benches the selected mutants use, each once
selected=()
declare -A used
for i in "${!names[@]}"; do
  [ -n "$filter" ] && [[ ${names[$i]} != *$filter* ]] && continue
  selected+=("$i")
  for b in ${benches[$i]//,/ }; do
    [ -n "${b_target[$b]:-}" ] || { echo "mutants: ${names[$i]}: no bench '$b' in $table" >&2; exit 2; }
    used[$b]=1
  done
done
[ ${#selected[@]} -gt 0 ] || { echo "mutants: no mutant in $table matches '$filter'" >&2; exit 2; }

d=$out/baseline; mkdir -p "$d"
for b in "${!used[@]}"; do
  build_run "$d" "" "$b"
  case $? in
    0) echo "baseline $b: passes" ;;
    1) echo "baseline $b FAILS: mutants mean nothing (see $d/run-$b.log)"; exit 1 ;;
    2) echo "baseline $b does not build (see $d/build-$b.log)"; exit 1 ;;
  esac
done

killed=0; survived=0; broken=0
for i in "${selected[@]}"; do
  name=${names[$i]} file=${files[$i]}
  d=$out/$name; rm -rf "$d"; mkdir -p "$d"
  copy=$d/$(basename "$file")
  cp "$file" "$copy"
  perl -0pi -e "${substs[$i]}" "$copy"
  if cmp -s "$file" "$copy"; then
    echo "BROKEN   $name: the substitution changed nothing in $file (update $table)"; broken=$((broken + 1)); continue
  fi
  verdict=
  for b in ${benches[$i]//,/ }; do
    build_run "$d" "$file=$copy" "$b"
    case $? in
      0) verdict="$verdict $b:pass" ;;
      1) verdict="$verdict $b:FAIL"; break ;;
      2) verdict="$verdict $b:BUILD"; break ;;
    esac
  done
  if [[ $verdict == *BUILD ]]; then
    broken=$((broken + 1)); echo "BROKEN   $name:$verdict (does not build: $d/build-${b}.log)"
  elif [[ $verdict == *FAIL ]]; then
    killed=$((killed + 1))
    why=$(grep -m1 -E 'FAIL|MISMATCH|%Error|Assertion|time-out|no completion|fatal' "$d/run-$b.log" | cut -c1-100)
    [ "$run_rc" -eq 124 ] && why="no end within $limit s"
    echo "killed   $name:$verdict  ${why:-(status $run_rc)}"
  else
    survived=$((survived + 1)); echo "SURVIVED $name:$verdict"
  fi
done
echo "$block mutants: ${#selected[@]} run, $killed killed, $survived survived, $broken broken"
[ "$survived" -eq 0 ] && [ "$broken" -eq 0 ]
