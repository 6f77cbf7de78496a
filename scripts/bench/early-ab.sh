#!/usr/bin/env bash
# early-ab.sh — cold sweeps of convheavy and matmul-nomaxreg (N=1024) on a GPU host, three ways in
# turn, twice each: BASE (another build, e.g. the last release), this build without early compiles
# (GSEARCH_EARLY=0) and with them (GSEARCH_EARLY=1).  Each run: a fresh store, an empty
# CUDA_CACHE_PATH, --jobs 16; "process" is the whole process's wall clock.
#
#   scripts/bench/early-ab.sh BASE NEW      (run from the repository root)
#
# results/bench-early-h200.txt is its output on an H200.
set -u
base=$1 new=$2
for sp in "scripts/bench/spaces/convheavy.space" "scripts/bench/spaces/matmul-nomaxreg.space --set N=1024"; do
	for i in 1 2; do
		for v in base new0 new; do
			d=$(mktemp -d)
			export CUDA_CACHE_PATH=$d/cc
			b=$new e=1
			[ $v = base ] && b=$base
			[ $v = new0 ] && e=0
			s=$(date +%s.%N)
			# shellcheck disable=SC2086
			GSEARCH_EARLY=$e GSEARCH_PROFILE=1 $b run --quiet --jobs 16 --db "$d/x.db" $sp >"$d/out" 2>"$d/err"
			t=$(date +%s.%N)
			echo "$v $i ${sp%% *} process $(python3 -c "print(round($t - $s, 3))") s | $(grep -E '^wall' "$d/out") | $(grep -E 'early compiles adopted' "$d/err")"
			rm -rf "$d"
		done
	done
done
