#!/usr/bin/env bash
# compile-bench.sh — compile throughput of `gsearch run --compile-only`.
#
#   scripts/bench/compile-bench.sh [GSEARCH] [SPACE] [JOBS...]
#
# For each thread count: a cold pass into a fresh store (every variant is
# compiled) and a warm pass over the same store (every variant is cached).
# Prints variants per second, the speed-up over --jobs 1 and how much faster
# the warm pass is.  Goal of the design: speed-up >= 0.9 x threads, and a warm
# pass at least 50x faster than a cold one.  Run it on an otherwise idle host.
# Each cold pass gets an empty CUDA_CACHE_PATH: NVRTC 12.9 and later answer a
# compile they have seen before from the driver's compute cache, which would
# make every pass after the first a warm one.
set -euo pipefail
gsearch=${1:-build/gsearch}
space=${2:-spaces/matmul.space}
shift $(( $# > 2 ? 2 : $# ))
cores=$(nproc)
if [ $# -gt 0 ]; then
	jobs=("$@")
else
	jobs=()
	j=1
	while [ "$j" -lt "$cores" ]; do jobs+=("$j"); j=$((j * 2)); done
	jobs+=("$cores")
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }

printf 'host: %s, %s cores; space: %s; %s\n' "$(hostname)" "$cores" "$space" \
	"$("$gsearch" --version)"
printf '%6s %10s %10s %12s %9s %10s %10s\n' jobs variants cold_s variants/s speedup warm_s cold/warm
base=""
for j in "${jobs[@]}"; do
	db="$tmp/j$j.db"
	mkdir -p "$tmp/nv$j"
	t0=$(now)
	out=$(CUDA_CACHE_PATH=$tmp/nv$j "$gsearch" run --compile-only --jobs "$j" --db "$db" "$space")
	t1=$(now)
	"$gsearch" run --compile-only --jobs "$j" --db "$db" "$space" >/dev/null
	t2=$(now)
	n=$(printf '%s\n' "$out" | sed -n 's/^compiled \([0-9]*\) variants.*/\1/p')
	# awk does the arithmetic: bc is not everywhere
	row=$(awk -v j="$j" -v n="$n" -v t0="$t0" -v t1="$t1" -v t2="$t2" -v base="$base" 'BEGIN {
		c = t1 - t0; w = t2 - t1; rate = n / c; sp = base == "" ? 1 : rate / base;
		printf "%6d %10d %10.2f %12.2f %9.2f %10.3f %10.0f %.6f\n", j, n, c, rate, sp, w, c / w, rate
	}')
	printf '%s\n' "${row% *}"
	[ -n "$base" ] || base=${row##* }
done
