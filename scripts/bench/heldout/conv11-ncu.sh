#!/bin/sh
# conv11-ncu.sh OUT: conv11's global-memory tiles (SMEM=0) at 8, 2 and 1
# blocks an SM and a shared-memory one, each timed and profiled with Nsight
# Compute's warp-state, scheduler, occupancy and memory sections, on the
# GPU host (nvcc and ncu on the PATH).  OUT/conv11-ncu.txt.
set -eu
out=${1:?usage: conv11-ncu.sh OUT}
d=$(dirname "$0")
mkdir -p "$out"
for c in "32 8 1 0" "32 8 2 0" "32 16 2 0" "32 16 4 0" "32 8 2 1"; do
	set -- $c
	b=$out/conv11-$1-$2-$3-$4
	nvcc -O3 -arch=sm_90 -DBX=$1 -DBY=$2 -DOY=$3 -DSMEM=$4 -o "$b" "$d/conv11-ncu.cu"
	"$b"
	ncu --kernel-name conv --launch-skip 3 --launch-count 1 --section WarpStateStats \
		--section SchedulerStats --section Occupancy --section MemoryWorkloadAnalysis \
		--section SpeedOfLight "$b" 2>&1 | grep -v '^==PROF==' || true
done >"$out/conv11-ncu.txt" 2>&1
