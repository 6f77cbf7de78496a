#!/usr/bin/env bash
# plot-model.sh — modeled (emu:sm_90) against measured (H100) times, one
# panel per space, both at the emulator size: where the model ranks well
# the points climb from left to right.
#
#   scripts/report/plot-model.sh OUT.png SPACE...     (needs gnuplot, python3)
set -euo pipefail
out=$1
shift
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
n=$#
for s in "$@"; do
	python3 - "results/emu/$s-emu-sm_90.db" "results/h100/$s-h100-emusize.db" >"$d/$s.dat" <<'PY'
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
	echo "set terminal pngcairo size $((420 * n)),420 font 'DejaVu Sans,10'"
	echo "set output '$out'"
	echo "set multiplot layout 1,$n"
	echo "set termoption noenhanced; set logscale xy; set grid; set key off"
	echo "set xlabel 'modeled on emu:sm_90 (us)'; set ylabel 'measured on the H100 (us)'"
	for s in "$@"; do
		echo "set title '$s, emulator size'"
		echo "plot '$d/$s.dat' using 1:2 with points pt 7 ps 0.6 lc rgb '#1f77b4'"
	done
	echo "unset multiplot"
} | gnuplot
