#!/usr/bin/env bash
# run.sh — BAT's published T1 files, run as they are: a held-out check of the
# emulated device on kernels written elsewhere (GEMM, MD5Hash, hotspot of
# NTNU-HPC-Lab/BAT's batbench/benchmarks; its convolution and nbody are kept
# for judging and are never run here).
#
#   scripts/bench/bat/run.sh fetch DIR        # BAT's benchmarks into DIR
#   scripts/bench/bat/run.sh emu DIR OUT      # the model's predictions
#   scripts/bench/bat/run.sh gpu DIR OUT      # the same configurations measured
#   scripts/bench/bat/run.sh trim OUT         # stores small enough to commit
#   scripts/bench/bat/run.sh report OUT       # Spearman and top-5 regret
#
# fetch: a clone of https://github.com/NTNU-HPC-Lab/BAT at commit $BAT_COMMIT,
# or, where GitHub cannot be reached, BAT=PATH (a work tree or a bare git
# directory of it); DIR/batbench/benchmarks gets those kernels' folders of
# that commit (nothing else: the judged ones stay out).  They
# are BAT's, under its licence: never commit them.
# emu, gpu: per kernel, N (default 150) configurations drawn uniformly from
# the T1 file's space (`--strategy random --seed 1`: the same draw on both
# devices, whatever the results), into OUT/NAME-emu-sm_90-real.db or
# OUT/NAME-$GPU.db (GPU: default h100), with the run's output beside it
# (-run.txt).  The
# predictions are committed before the GPU measures.  GSEARCH: the binary
# (default build/gsearch); KERNELS: a subset of "GEMM MD5Hash hotspot".
# trim: the stores keep only the measured configurations' rows (hotspot's
# space has 349,853, 106 MB of store) and no PTX or cubins; `query` reads
# them as before, but says a baseline outside the 150 is rejected by a
# constraint: it is only not in the store.
set -uo pipefail
mode=${1:-}
root=$(cd "$(dirname "$0")/../../.." && pwd)
g=${GSEARCH:-$root/build/gsearch}
n=${N:-150}
gpu=${GPU:-h100}
kernels=${KERNELS:-GEMM MD5Hash hotspot}
BAT_COMMIT=${BAT_COMMIT:-06e0be2}
usage() { sed -n 7,11p "$0" | sed 's/^# *//' >&2; exit 2; }

t1() { # the T1 file of kernel $1 under benchmarks dir $2
	echo "$2/batbench/benchmarks/$1/$1-CAFF.json"
}

case $mode in
fetch)
	[ $# -eq 2 ] || usage
	dir=$2
	mkdir -p "$dir" || exit 1
	src=${BAT:-}
	tmp=
	if [ -z "$src" ]; then
		tmp=$(mktemp -d)
		if ! git clone -q https://github.com/NTNU-HPC-Lab/BAT "$tmp/BAT"; then
			echo "cannot clone BAT: set BAT=PATH to a clone" >&2
			rm -rf "$tmp"
			exit 1
		fi
		src=$tmp/BAT
	fi
	paths=
	for k in $kernels; do paths="$paths batbench/benchmarks/$k"; done
	# shellcheck disable=SC2086
	git -C "$src" archive "$BAT_COMMIT" $paths | tar -x -C "$dir" || exit 1
	[ -n "$tmp" ] && rm -rf "$tmp"
	for k in $kernels; do
		[ -f "$(t1 "$k" "$dir")" ] || { echo "missing $(t1 "$k" "$dir")" >&2; exit 1; }
	done
	echo "BAT $BAT_COMMIT in $dir"
	;;
emu|gpu)
	[ $# -eq 3 ] || usage
	dir=$2 out=$3
	mkdir -p "$out" || exit 1
	rc=0
	for k in $kernels; do
		if [ "$mode" = emu ]; then
			db=$out/$k-emu-sm_90-real.db dev=emu:sm_90
		else
			db=$out/$k-$gpu.db dev=cuda
		fi
		log=${db%.db}-run.txt
		"$g" version >"$log" 2>&1
		"$g" run --device "$dev" --strategy random --budget "$n" --seed 1 --db "$db" \
			"$(t1 "$k" "$dir")" >>"$log" 2>&1 || rc=1
		tail -n 3 "$log"
	done
	exit $rc
	;;
trim)
	[ $# -eq 2 ] || usage
	# only the GPU's stores: the predictions stay as they were committed
	for db in "$2"/*.db; do
		case $db in *-emu-*) continue ;; esac
		python3 - "$db" <<'PY' || exit 1
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("DELETE FROM config WHERE NOT EXISTS (SELECT 1 FROM result r "
           "WHERE r.sweep_id = config.sweep_id AND r.idx = config.idx)")
db.execute("UPDATE variant SET cubin = NULL, ptx = NULL")
db.commit()
db.execute("VACUUM")
db.close()
PY
	done
	;;
report)
	[ $# -eq 2 ] || usage
	out=$2
	for k in $kernels; do
		echo "== $k"
		python3 "$root/scripts/report/model-vs-measured.py" "$out/$k-emu-sm_90-real.db" "$out/$k-$gpu.db"
	done
	;;
*)
	usage
	;;
esac
