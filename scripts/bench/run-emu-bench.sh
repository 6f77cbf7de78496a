#!/usr/bin/env bash
# run-emu-bench.sh — the PTX interpreter's speed: tiled matmul in several
# configurations of spaces/matmul.space, the naive matmul and a divergent
# kernel, compiled by NVRTC for sm_90, each launched RUNS times (default 5)
# on one host thread with the counters on.
#
#   scripts/bench/run-emu-bench.sh [EMU_BENCH [WORKLOAD...]]
#
# EMU_BENCH is the benchmark binary (default build/bench/emu_bench, built by
# `make emu-bench`); N (default 256) is the matrix size.  Columns: warp- and
# thread-instructions of one launch, the median wall time, and millions of
# warp- and thread-instructions per second of one core.  Every result is
# checked against the host; the exit status is 1 if any run fails.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
bench=${1:-$root/build/bench/emu_bench}
shift $(($# > 0 ? 1 : 0))
runs=${RUNS:-5}
n=${N:-256}

if [ ! -x "$bench" ]; then
	echo "run-emu-bench: no executable $bench (make emu-bench builds it)" >&2
	exit 1
fi
if [ $# -gt 0 ]; then
	work=("$@")
else
	work=(matmul:16,1,16,1 matmul:16,1,16,0 matmul:16,2,16,1 matmul:16,4,16,1
	      matmul:16,1,4,1 matmul:16,1,1,0 matmul:8,2,8,1 matmul:32,1,32,1 naive divergent)
fi

cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //')
echo "PTX interpreter on ${cpu:-$(uname -m)}, one core, N=$n: median of $runs launches"
echo
printf '%-20s %12s %13s %9s %10s %10s\n' workload warp-inst thread-inst median-s 'Mwinst/s' 'Mtinst/s'
status=0
for w in "${work[@]}"; do
	if ! line=$("$bench" --root "$root" --runs "$runs" --n "$n" "$w"); then
		echo "run-emu-bench: $w failed" >&2
		status=1
		continue
	fi
	eval "$(echo "$line" | tr ' ' '\n' | sed -n 's/^\([a-z_]*\)=\(.*\)$/\1="\2"/p')"
	printf '%-20s %12s %13s %9s %10s %10s\n' "$workload" "$warp_inst" "$thread_inst" \
		"$median_s" "$(awk -v x="$winst_per_s" 'BEGIN { printf "%.1f", x / 1e6 }')" \
		"$(awk -v x="$tinst_per_s" 'BEGIN { printf "%.1f", x / 1e6 }')"
done
exit $status
