#!/bin/bash
# early-reps.sh — cold sweeps of convheavy and matmul-nomaxreg (N=1024) on a GPU host, early compiles
# off (GSEARCH_EARLY=0) and on in turn, REPS times (default 3).  Each run: a fresh store, an empty
# CUDA_CACHE_PATH, --jobs 16.  frac = bound_s / process_s, where bound_s is the run's compile busy time
# over 16 threads: the share of scripts/bench/vs-kernel-tuner.sh's ceiling the run reaches.
#
#   scripts/bench/early-reps.sh BIN [REPS]      (run from the repository root)
#
# results/bench-early-h100.txt holds its output on an H100.
b=$1; reps=${2:-3}
for i in $(seq "$reps"); do
 for sp in "scripts/bench/spaces/convheavy.space" "scripts/bench/spaces/matmul-nomaxreg.space --set N=1024"; do
  for e in 0 1; do
   d=$(mktemp -d); export CUDA_CACHE_PATH=$d/cc
   s=$(date +%s.%N)
   # shellcheck disable=SC2086
   GSEARCH_EARLY=$e GSEARCH_PROFILE=1 $b run --quiet --jobs 16 --db "$d/x.db" $sp >"$d/out" 2>"$d/err"
   t=$(date +%s.%N)
   w=$(grep -E '^wall' "$d/out")
   busy=$(echo "$w" | sed -n 's/.*compile busy \([0-9.]*\) s.*/\1/p')
   python3 -c "p=$t-$s; b=$busy/16; print('EARLY=$e rep=$i space=${sp%% *} process_s=%.3f bound_s=%.3f frac=%.3f' % (p, b, b/p))"
   echo "   $w | $(grep -E 'early compiles adopted|devices known|sweep over' "$d/err" | tr '\n' ' ')"
   rm -rf "$d"
  done
 done
done
