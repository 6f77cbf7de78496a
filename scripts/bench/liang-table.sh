#!/bin/bash
# liang-table.sh — Liang et al.'s design-space-exploration table (ES, RO,
# POS, POSF) replayed on the committed H100 stores: per space, the
# configurations each method measures, what that costs in the store's own
# compile and measurement seconds, and the best it finds against the
# optimum and against the space's baseline.
#
#   scripts/bench/liang-table.sh [GSEARCH] > results/search/liang-table-h100.txt
#
# Each space is one `gsearch replay` with `--budget own` (each strategy
# stops at its own plan: exhaustive everything, ro the configurations of the
# highest register ratio x occupancy, po Liang's Pareto set) and `--trace`;
# POSF is the first 40% of po's Pareto set (po measures it first, in the
# same order: driver/search/po.c's GS_PO_FILTER).  The performance estimate
# of POS is the emulated device's real-size sweep of the same space
# (results/emu/*-emu-sm_90-real.db); registers and occupancy are the
# store's own, known after compiling.
set -euo pipefail
cd "$(dirname "$0")/../.."
G=${1:-build/gsearch}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

stores="results/h100/regthread-h100.db results/matmul-h100.db"
for s in conv2d matvec mri-fhd mri-q reduction sad; do
	stores="$stores results/h100/$s-h100.db"
done

echo "# Liang et al.'s exploration table on the H100 stores ($(date -u +%F), $($G --version 2>/dev/null | head -1))"
echo "# scripts/bench/liang-table.sh; per store:"
echo "#   $G replay STORE --prior sweep:results/emu/SPACE-emu-sm_90-real.db \\"
echo "#       --strategy exhaustive --strategy ro --strategy po --budget own --repeats 1 --trace TRACE"
echo
for db in $stores; do
	space=$(basename "$db" .db)
	space=${space%-h100}
	prior=results/emu/$space-emu-sm_90-real.db
	echo "\$ $G replay $db --prior sweep:$prior --strategy exhaustive --strategy ro --strategy po --budget own --repeats 1 --trace $space.csv"
	$G replay "$db" --prior "sweep:$prior" --strategy exhaustive --strategy ro --strategy po \
		--budget own --repeats 1 --trace "$T/$space.csv"
	base=$(sqlite3 -readonly "$db" "SELECT r.time_ms FROM config c JOIN result r USING (sweep_id, idx)
		WHERE c.baseline = 1 AND r.status = 'ok' AND c.sweep_id = (SELECT max(id) FROM sweep)")
	echo "$space ${base:-nan}" >>"$T/base"
	echo
done

python3 - "$T" $stores <<'EOF'
import csv, math, os, sys
t = sys.argv[1]
base = dict(l.split() for l in open(os.path.join(t, "base")))
rows = []
print("Per space: configurations measured (n), their cost in seconds (compile + timed work, as")
print("replay charges it), the cost relative to ES (x: ES's cost / the method's), and the best")
print("found as a speed relative to the optimum (1.000 = the optimum; optimum / best).")
print()
hdr = "%-10s %5s %8s | %4s %7s %6s %6s | %4s %7s %6s %6s | %4s %7s %6s %6s | %7s %7s"
print(hdr % ("space", "ES n", "ES s", "RO n", "RO s", "x", "speed", "POS", "POS s", "x", "speed",
             "POSF", "POSF s", "x", "speed", "base", "POSF/b"))
for db in sys.argv[2:]:
    space = os.path.basename(db)[:-len("-h100.db")]
    runs = {}
    for r in csv.DictReader(open(os.path.join(t, space + ".csv"))):
        runs.setdefault(r["strategy"], []).append(r)
    def summary(ev):
        ts = [float(e["time_ms"]) for e in ev if e["time_ms"]]
        return len(ev), float(ev[-1]["cum_s"]), min(ts) if ts else math.inf
    es = summary(runs["exhaustive"])
    po = runs["po"]
    m = {"RO": summary(runs["ro"]), "POS": summary(po),
         "POSF": summary(po[:max(1, math.ceil(0.4 * len(po)))])}
    opt = es[2]
    b = float(base.get(space, "nan"))
    cells = [space, es[0], "%.1f" % es[1]]
    for k in ("RO", "POS", "POSF"):
        n, s, best = m[k]
        cells += [n, "%.1f" % s, "%.0f" % (es[1] / s), "%.3f" % (opt / best)]
    cells += ["%.3f" % (b / opt) if b == b else "-", "%.2f" % (b / m["POSF"][2]) if b == b else "-"]
    rows.append((es, m, b))
    print(hdr % tuple(cells))
print()
gm = lambda v: math.exp(sum(math.log(x) for x in v) / len(v))
for k in ("RO", "POS", "POSF"):
    x = [r[0][1] / r[1][k][1] for r in rows]
    sp = [r[0][2] / r[1][k][2] for r in rows]
    n = [r[1][k][0] / r[0][0] for r in rows]
    print("%-4s cost vs ES: mean %.0fx (geometric %.0fx), %.0fx to %.0fx; configurations %.1f%% of ES on average;"
          % (k, sum(x) / len(x), gm(x), min(x), max(x), 100 * sum(n) / len(n)))
    print("     best found: %.3f of the optimum's speed on average, worst %.3f, optimum itself on %d of %d"
          % (sum(sp) / len(sp), min(sp), sum(1 for v in sp if v == 1.0), len(sp)))
bs = [r[2] / r[1]["POSF"][2] for r in rows if r[2] == r[2]]
print("POSF's best against the space's baseline configuration: %.2fx on average (%.2fx to %.2fx)"
      % (sum(bs) / len(bs), min(bs), max(bs)))
print("(base: the baseline's time relative to the optimum, optimum speed-up over it; POSF/b: POSF's")
print("best's speed-up over the baseline)")
EOF
