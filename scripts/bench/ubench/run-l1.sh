#!/bin/sh
# run-l1.sh: build l1lines.cu with nvcc and run it on this host's GPU; one
# line per measurement, with its unit (SM cycles per warp load by the L1
# lines and sectors one warp load touches; 2-D tiles of narrow blocks).
#
#   scripts/bench/ubench/run-l1.sh [OUT]     # OUT: also a copy of the output
set -eu
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
nvcc -O3 -arch=sm_90 -o "$t/l1lines" scripts/bench/ubench/l1lines.cu
if [ $# -gt 0 ]; then
	"$t/l1lines" | tee "$1"
else
	"$t/l1lines"
fi
