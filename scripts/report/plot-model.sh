#!/usr/bin/env bash
# plot-model.sh — modeled (emu:sm_90) against measured (H100) times, one
# panel per space, both at the emulator size, or with --real both at the
# real size (results/emu/SPACE-emu-sm_90-real.db against the H100's
# real-size store): where the model ranks well the points climb from left
# to right.
#
#   scripts/report/plot-model.sh [--real] OUT.png SPACE...   (needs gnuplot, python3)
set -euo pipefail
real=0
if [ "${1:-}" = --real ]; then
	real=1
	shift
fi
out=$1
shift
h100() { [ "$1" = matmul ] && echo results/matmul-h100.db || echo "results/h100/$1-h100.db"; }
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
n=$#
cols=$((n < 4 ? n : 4)) rows=$(((n + 3) / 4))
size=$([ $real = 1 ] && echo "real size" || echo "emulator size")
for s in "$@"; do
	if [ $real = 1 ]; then
		model="results/emu/$s-emu-sm_90-real.db" measured=$(h100 "$s")
	else
		model="results/emu/$s-emu-sm_90.db" measured="results/h100/$s-h100-emusize.db"
	fi
	python3 - "$model" "$measured" >"$d/$s.dat" <<'PY'
import json, sqlite3, sys
def ok(p):
    db = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
    q = ("SELECT c.params, r.time_ms FROM result r JOIN config c USING (sweep_id, idx)"
         " WHERE r.status = 'ok'")
    return {json.dumps(json.loads(a), sort_keys=True): t for a, t in db.execute(q)}
m, g = ok(sys.argv[1]), ok(sys.argv[2])
for k in sorted(set(m) & set(g)):
    print(m[k] * 1e3, g[k] * 1e3)
PY
done
{
	echo "set terminal pngcairo size $((420 * cols)),$((420 * rows)) font 'DejaVu Sans,10'"
	echo "set output '$out'"
	echo "set multiplot layout $rows,$cols"
	echo "set termoption noenhanced; set logscale xy; set grid; set key off"
	echo "set xlabel 'modeled on emu:sm_90 (us)'; set ylabel 'measured on the H100 (us)'"
	for s in "$@"; do
		echo "set title '$s, $size'"
		echo "plot '$d/$s.dat' using 1:2 with points pt 7 ps 0.6 lc rgb '#1f77b4'"
	done
	echo "unset multiplot"
} | gnuplot
