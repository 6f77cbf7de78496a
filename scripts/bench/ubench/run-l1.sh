#!/bin/sh
# run-l1.sh: l1lines.cu on this host's GPU (run.sh); one line per
# measurement, with its unit (SM cycles per warp load by the L1 lines,
# sectors and banks one warp load touches; 2-D tiles of narrow blocks).
#
#   scripts/bench/ubench/run-l1.sh [OUT]     # OUT: also a copy of the output
exec "$(dirname "$0")/run.sh" l1lines "$@"
