#!/bin/sh
# dedisp-ncu.sh OUT: dedisp's one-warp blocks (modeled at half their time)
# beside its best configurations, each timed and profiled with Nsight
# Compute's warp-state, scheduler, occupancy, memory and memory-table
# sections, on the GPU host (nvcc and ncu on the PATH).  OUT/dedisp-ncu.txt.
set -eu
out=${1:?usage: dedisp-ncu.sh OUT}
d=$(dirname "$0")
mkdir -p "$out"
for c in "32 4 4" "32 1 4" "256 1 4" "64 2 4"; do
	set -- $c
	b=$out/dedisp-$1-$2-$3
	nvcc -O3 -arch=sm_90 -DNCH=128 -DBX=$1 -DTT=$2 -DDMT=$3 -o "$b" "$d/dedisp-ncu.cu"
	"$b"
	ncu --kernel-name dedisp --launch-skip 3 --launch-count 1 --section WarpStateStats \
		--section SchedulerStats --section Occupancy --section MemoryWorkloadAnalysis \
		--section MemoryWorkloadAnalysis_Tables --section SpeedOfLight \
		--metrics smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio,smsp__average_warp_latency_issue_stalled_tex_throttle.ratio,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_lg_cmd_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum,sm__cycles_elapsed.avg \
		"$b" 2>&1 | grep -v '^==PROF==' || true
done >"$out/dedisp-ncu.txt" 2>&1
