#!/usr/bin/env bash
# usage: bench_gemm.sh BUILD_DIR CSV [SHAPE...]
# SPEC §15 GEMM grid on the co-simulator with the built-in GEMM firmware
# sequencing (ktpu-sim --dp-model: the clusters' datapath as its functional
# model, which make test's soc_dp_model shows gives the RTL's cycles and
# results, at about 1.6x the simulation speed): each MxKxN on 1, 2 and 4
# clusters, FP16 (quantised on the way) and pre-quantised MXFP7 operands, at DRAM latency 64 (the default) and 1
# (the shortest the DRAM model has; upstream's figures are for a zero-latency
# bench RAM). Every run is also a full check: a run that fails its checks is
# marked FAIL and the bench exits non-zero.
#
# CSV: one row per run, ktpu-sim --csv's columns (the seed, the DRAM latency
# and the simulator's version among them) plus the firmware's CPU busy
# fraction and the job's phases from
# the firmware's "gemm: phases:" line (cycles from the job's start): the
# first instruction, the latest first sweep of a cluster (the prologue ends;
# 0 for a single plan, whose GEMM is SILENT),
# the last sweep's start (the tail begins), and whether the plan split K
# across clusters, and the quantise-on-upload phase's cycles (0: none).
# After the grid, shapes with few C tiles and a long K are run with split-K
# (the planner's choice) and without (--no-split-k), on 2 and 4 clusters;
# 512x512x512 FP16 with quantise-on-upload (the planner's choice there) and
# without (--no-qjob); then the short jobs 4x32x4 and 16x64x16 on 1, 2
# and 4 clusters (whose time is the CPU's). The previous run's CSV
# is kept as CSV.prev and every row that got slower (more job cycles) than
# the same row there is listed (a CSV.prev of another column layout is not
# compared). With gnuplot, CSV.png plots % of peak per
# shape (MXFP7, latency 64).
set -u
b=$1 csv=$2; shift 2
shapes=("$@")
[ ${#shapes[@]} -gt 0 ] || shapes=(64x128x64 128x128x128 256x256x256 256x256x1024)
seed=1
commit=$("$b/ktpu-sim" --version | awk '{ print $2 }')
mkdir -p "$(dirname "$csv")"
[ -f "$csv" ] && mv -f "$csv" "$csv.prev"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
# the columns after ktpu-sim's (which end with seed, dram_latency, version)
extra=cpu_busy_pct,first_instr,first_sweep,last_sweep,split_k,upload_cycles
# The awk programs below read the CSV's columns by name, from its header
# line (v("job_cycles")), so a column added to ktpu-sim --csv moves none.
cols='function v(name) { if (!(name in col)) { print "bench_gemm.sh: no column " name >"/dev/stderr"; exit 2 }
                         return $(col[name]) }
      FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }'
printf '%-14s %-5s %8s %4s %10s %10s %8s %6s %8s %8s %8s\n' "MxKxN" "ops" "clusters" "lat" "cycles" "MACs/cyc" "% peak" "CPU %" "prologue" "steady" "last+tail"
row() {  # row SHAPE fp16|mx CLUSTERS LATENCY [--no-split-k|--no-qjob]: one run, one CSV row
  local s=$1 fmt=$2 c=$3 lat=$4 args split busy phases upload; shift 4
  args=(--clusters "$c" --gemm-gen "$s" --seed $seed --dram-latency $lat --max-cycles 100000000 --csv "$tmp/row.csv" "$@")
  [ $fmt = mx ] && args+=(--preq)
  rm -f "$tmp/row.csv"
  "$b/ktpu-sim" --dp-model "${args[@]}" >"$tmp/out.txt" 2>&1 || status=1
  split=$(sed -n 's/^split-K: K in \([0-9]*\) parts per tile.*/\1/p' "$tmp/out.txt")
  busy=$(sed -n 's/^gemm: CPU: .* busy \([0-9]*\)% of the job$/\1/p' "$tmp/out.txt")
  upload=$(sed -n 's/^quantise-on-upload: .* \([0-9]*\) cycles before the first FILL.*/\1/p' "$tmp/out.txt")
  phases=$(awk '/^gemm: phases:/ { first = $6; sw = 0
                 for (i = 10; $i != "(cluster"; i++) if ($i + 0 > sw) sw = $i + 0
                 for (; i <= NF; i++) if ($i == "from") last = $(i + 1)
                 sub(/,$/, "", first); sub(/,$/, "", last); print first "," sw "," last }' "$tmp/out.txt")
  if [ ! -s "$tmp/row.csv" ]; then
    echo "bench: $s $fmt $c clusters latency $lat $*: no result row (ktpu-sim output follows)"
    tail -n 5 "$tmp/out.txt"
    status=1
    return
  fi
  [ -f "$csv" ] || echo "$(head -n 1 "$tmp/row.csv"),$extra" >"$csv"
  echo "$(tail -n 1 "$tmp/row.csv"),${busy:-},${phases:-,,},${split:-1},${upload:-0}" >>"$csv"
  sed -n '1p;$p' "$csv" | awk -F, -v s="$s" -v f=$fmt -v c="$c" -v l="$lat" "$cols"'
    { first = v("first_sweep"); last = v("last_sweep"); split_k = v("split_k"); up = v("upload_cycles")
      printf "%-14s %-5s %8s %4s %10s %10s %8s %6s %8s %8s %8s %s%s%s\n", s, f, c, l, v("job_cycles"),
             v("macs_per_cycle"), v("pct_peak"), v("cpu_busy_pct"), first, last - first, v("job_cycles") - last,
             (split_k > 1 ? "split-K " split_k " " : ""), (up > 0 ? "upload " up " " : ""), (v("result") == "pass" ? "" : "FAIL") }'
}
for lat in 64 1; do
  for s in "${shapes[@]}"; do
    for fmt in fp16 mx; do
      for c in 1 2 4; do
        row "$s" $fmt $c $lat
      done
    done
  done
done
# split-K against the same job without it
for s in 64x1024x64 128x2048x64; do
  for c in 2 4; do
    row "$s" mx $c 64
    row "$s" mx $c 64 --no-split-k
  done
done
# quantise-on-upload (FP16) against the same job reading its operands online
for c in 2 4; do
  row 512x512x512 fp16 $c 64
  row 512x512x512 fp16 $c 64 --no-qjob
done
# short jobs: the job time of a one-tile GEMM is the CPU's (the service's
# target for 4x32x4: at most 1,500 cycles from the job block read to the
# last completion)
for s in 4x32x4 16x64x16; do
  for c in 1 2 4; do
    row "$s" mx $c 64
  done
done
awk -F, "$cols"' v("m") == 4 && v("k") == 32 && v("n") == 4 { n++; if (v("job_cycles") + 0 > 1500) slow++ }
         END { if (n) printf "short jobs: 4x32x4 on %d machine(s), %d over 1,500 cycles\n", n, slow }' "$csv"
echo "CSV: $csv"

# rows slower than the previous run's (key: m, k, n, operands, clusters,
# latency, split-K parts, uploaded or not, and the row's rank among rows of
# that key: a split-K job whose plan does not split has a twin run with
# --no-split-k, and each is compared with its own)
if [ -f "$csv.prev" ] && [ "$(head -n 1 "$csv.prev")" = "$(head -n 1 "$csv")" ]; then
  awk -F, "$cols"'
           function key(n) { k = v("m")","v("k")","v("n")","v("operands")","v("clusters")","v("dram_latency")","v("split_k")","(v("upload_cycles") > 0)
                             return k "#" ++n[k] }
           NR == FNR { prev[key(np)] = v("job_cycles"); next }
           { k = key(nc)
             if (k in prev && v("job_cycles") + 0 > prev[k] + 0) {
               printf "SLOWER: %sx%sx%s %s %s clusters latency %s split-K %s: %s -> %s cycles\n", v("m"), v("k"), v("n"),
                      v("operands"), v("clusters"), v("dram_latency"), v("split_k"), prev[k], v("job_cycles"); n++ } }
           END { printf "compared with %s: %d row(s) slower\n", ARGV[1], n }' "$csv.prev" "$csv"
fi

if command -v gnuplot >/dev/null 2>&1; then
  # the grid's shapes only: the split-K rows after it have no 1-cluster
  # run, and a histogram's series must have the same x entries
  awk -F, -v grid="${shapes[*]}" "$cols"' BEGIN { n = split(grid, g, " "); for (i = 1; i <= n; i++) in_grid[g[i]] = 1 }
       v("operands") == "mx" && v("dram_latency") == 64 && (v("m")"x"v("k")"x"v("n")) in in_grid {
         print v("m")"x"v("k")"x"v("n"), v("clusters"), v("pct_peak") }' \
      "$csv" >"$tmp/plot.dat"
  gnuplot <<GP
set terminal pngcairo size 900,500 noenhanced
set output "$csv.png"
set title "GEMM, MXFP7 operands, DRAM latency 64, CPU sequencing ($commit)"
set ylabel "% of peak"
set yrange [0:100]
set style data histograms
set style fill solid 0.8
set key top left
set xtics rotate by -20
plot for [c in "1 2 4"] "< awk '\$2 == " . c . "' $tmp/plot.dat" using 3:xtic(1) title c . " cluster(s)"
GP
  [ -f "$csv.png" ] && echo "plot: $csv.png"
else
  echo "plot: gnuplot not installed (scripts/deps.sh installs it)"
fi
exit $status
