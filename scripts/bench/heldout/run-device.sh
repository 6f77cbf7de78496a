#!/bin/sh
# run-device.sh: the held-out sweeps, run on the GPU host from the repository
# root with build/gsearch built there.
#
#   scripts/bench/heldout/run-device.sh emu DIR [SPACE ...]   # model, real size
#   scripts/bench/heldout/run-device.sh gpu DIR [SPACE ...]   # the H100
#
# emu: the emulated H100 (emu:sm_90) at the real problem size, JOBS jobs;
# stores DIR/NAME-emu-sm_90-real.db and DIR/NAME-emu-sm_90-real-run.txt.
# gpu: the host's GPU; stores DIR/NAME-h100.db and DIR/NAME-h100-run.txt.
# The predictions (emu) are to be committed before the measurements (gpu).
# Running it again resumes the sweeps in DIR.  Exit status 1 if a sweep failed.
# Without SPACE names, every space of the suite: SUITE, a directory (default
# scripts/bench/heldout; the second suite is scripts/bench/heldout2).  JOBS:
# emu's jobs (default 16).  Copy the stores into results/heldout/ (the second
# suite's into results/heldout2/) for scripts/report/heldout.sh.
set -u
mode=${1:?usage: run-device.sh emu|gpu DIR [SPACE ...]}
dir=${2:?usage: run-device.sh emu|gpu DIR [SPACE ...]}
shift 2
g=${GSEARCH:-build/gsearch}
suite=${SUITE:-scripts/bench/heldout}
jobs=${JOBS:-16}
mkdir -p "$dir"
if [ $# -eq 0 ]; then
	set -- $(for f in "$suite"/*.space; do basename "$f" .space; done)
fi
rc=0
for s in "$@"; do
	sp=$suite/$s.space
	case $mode in
	emu)
		db=$dir/$s-emu-sm_90-real.db
		out=$dir/$s-emu-sm_90-real-run.txt
		"$g" version >"$out" 2>&1
		"$g" run --device emu:sm_90 --jobs "$jobs" --db "$db" "$sp" >>"$out" 2>&1 || rc=1
		;;
	gpu)
		db=$dir/$s-h100.db
		out=$dir/$s-h100-run.txt
		"$g" run --db "$db" "$sp" >"$out" 2>&1 || rc=1
		;;
	*)
		echo "run-device.sh: mode must be emu or gpu" >&2
		exit 2
		;;
	esac
	# The compile cache's PTX and cubins would make the stores large;
	# registers and results stay, and `gsearch compile` regenerates them.
	# (The GPU host may have Python's sqlite3 module and no sqlite3 program.)
	if [ -f "$db" ]; then
		if command -v sqlite3 >/dev/null 2>&1; then
			sqlite3 "$db" "UPDATE variant SET cubin = NULL, ptx = NULL; VACUUM;" || rc=1
		elif command -v python3 >/dev/null 2>&1; then
			python3 -c 'import sqlite3, sys
d = sqlite3.connect(sys.argv[1]); d.execute("UPDATE variant SET cubin = NULL, ptx = NULL")
d.commit(); d.execute("VACUUM"); d.close()' "$db" || rc=1
		fi
	fi
	echo "=== $s ($mode)"
	tail -6 "$out"
done
exit $rc
