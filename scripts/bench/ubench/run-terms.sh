#!/bin/sh
# run-terms.sh: terms.cu on this host's GPU (run.sh); one line per
# measurement, with its unit (atomics, shuffles, local memory,
# constant-cache serialization, read-only loads, strided stores).
#
#   scripts/bench/ubench/run-terms.sh [OUT]     # OUT: also a copy of the output
exec "$(dirname "$0")/run.sh" terms "$@"
