#!/bin/sh
# run-terms.sh: build terms.cu with nvcc and run it on this host's GPU; one
# line per measurement, with its unit (atomics, shuffles, local memory,
# constant-cache serialization, read-only loads, strided stores).
#
#   scripts/bench/ubench/run-terms.sh [OUT]     # OUT: also a copy of the output
set -eu
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
nvcc -O3 -arch=sm_90 -o "$t/terms" scripts/bench/ubench/terms.cu
if [ $# -gt 0 ]; then
	"$t/terms" | tee "$1"
else
	"$t/terms"
fi
