#!/usr/bin/env bash
# emu-all.sh — every bundled and held-out space emulated at the real size
# (emu:sm_90), for a model revision's before-and-after on all of them.
#
#   scripts/bench/emu-all.sh GSEARCH DIR [JOBS]      # emulate: DIR/SUITE-NAME.db
#   scripts/bench/emu-all.sh --compare DIR           # SPACE rho / regret, a line each
#
# Emulating takes about 7 minutes on 16 cores (the GPU host's) and 35 on
# 2; the stores lose their PTX and cubins (python3's sqlite3, which the
# GPU host has where it lacks the sqlite3 program).  --compare runs
# scripts/report/model-vs-measured.py against the measured store of each
# space (results/h100, results/heldoutN; the seventh and eighth suites'
# are H200 stores).  A space past 120 s is cut off and left out.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
measured() { # SUITE NAME -> the measured store
	case $1 in
	spaces) [ "$2" = matmul ] && echo "$root/results/matmul-h100.db" || echo "$root/results/h100/$2-h100.db" ;;
	heldout7 | heldout8) echo "$root/results/$1/$2-h200.db" ;;
	*) echo "$root/results/$1/$2-h100.db" ;;
	esac
}
spaces() {
	ls "$root"/spaces/*.space
	for d in heldout heldout2 heldout3 heldout4 heldout5 heldout6 heldout7 heldout8; do
		ls "$root"/scripts/bench/$d/*.space
	done
}
if [ "${1:-}" = --compare ]; then
	dir=${2:?usage: emu-all.sh --compare DIR}
	for s in $(spaces); do
		n=$(basename "$s" .space) d=$(basename "$(dirname "$s")")
		m=$(measured "$d" "$n")
		[ -f "$dir/$d-$n.db" ] && [ -f "$m" ] || continue
		python3 "$root/scripts/report/model-vs-measured.py" "$dir/$d-$n.db" "$m" 2>/dev/null |
			awk -v n="$n" '/^spearman/{s=$3} /^regret of the model/{r=$7} END{printf "%-16s %s / %s\n", n, s, r}' | tr -d ,
	done
	exit 0
fi
g=${1:?usage: emu-all.sh GSEARCH DIR [JOBS]}
dir=${2:?usage: emu-all.sh GSEARCH DIR [JOBS]}
jobs=${3:-$(nproc)}
mkdir -p "$dir"
for s in $(spaces); do
	n=$(basename "$s" .space) d=$(basename "$(dirname "$s")")
	timeout 120 "$g" run --quiet --device emu:sm_90 --jobs "$jobs" --db "$dir/$d-$n.db" "$s" \
		>"$dir/$d-$n.log" 2>&1
	python3 - "$dir/$d-$n.db" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute("UPDATE variant SET ptx = NULL, cubin = NULL, log = NULL")
c.commit()
c.execute("VACUUM")
c.close()
PY
done
