#!/bin/sh
# run.sh NAME [OUT]: build scripts/bench/ubench/NAME.cu with nvcc and run it
# on this host's GPU, from the repository root; OUT: also a copy of the
# output.  run-terms.sh and run-l1.sh name the two that give model terms.
set -eu
name=$1
shift
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
nvcc -O3 -arch=sm_90 -o "$t/$name" "scripts/bench/ubench/$name.cu"
if [ $# -gt 0 ]; then
	"$t/$name" | tee "$1"
else
	"$t/$name"
fi
