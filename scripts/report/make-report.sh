#!/usr/bin/env bash
# make-report.sh — every figure of results/README.md, from the committed stores.
#
#   scripts/report/make-report.sh [GSEARCH] > results/report-data.txt
#
# Per space: outcomes on the H100 (real size), on emu:sm_90 and on emu:g80
# (emulator size); `query compare` on each; the emulated model against the
# H100 at the emulator size and at the real size; and where each device's
# optimum ranks on the H100 (portability); and, where results/emu holds
# <space>-emu-sm_90-real.db, the interval model at the real size against the
# H100 (Spearman, Kendall, regret of the model's top 1 and top 5).
set -uo pipefail
g=${1:-build/gsearch}
r=results
spaces=(matmul mri-q mri-fhd sad conv2d matvec reduction regthread)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

h100() { [ "$1" = matmul ] && echo "$r/matmul-h100.db" || echo "$r/h100/$1-h100.db"; }

# where the optimum of store A ranks among store B's ok configurations, by
# parameters (the problem sizes of the two may differ)
portability() {
	python3 - "$1" "$2" <<'PY'
import json, sqlite3, sys
def ok(p):
    db = sqlite3.connect(f"file:{p}?mode=ro", uri=True)
    rows = db.execute("SELECT c.params, r.time_ms FROM result r JOIN config c USING (sweep_id, idx)"
                      " WHERE r.status = 'ok'").fetchall()
    return {json.dumps(json.loads(a), sort_keys=True): t for a, t in rows}
a, b = ok(sys.argv[1]), ok(sys.argv[2])
best_a = min(a, key=a.get)
if best_a not in b:
    print(f"  optimum {best_a} is not ok on the H100")
else:
    times = sorted(b.values())
    rank = 1 + sum(1 for x in times if x < b[best_a])
    print(f"  optimum {best_a}: rank {rank} of {len(times)} on the H100, "
          f"{100 * (b[best_a] / times[0] - 1):.1f}% slower than the H100's optimum")
PY
}

for s in "${spaces[@]}"; do
	echo "=================== $s"
	for db in "$(h100 "$s")" "$r/emu/$s-emu-sm_90.db" "$r/emu/$s-emu-g80.db"; do
		echo "--- $db"
		"$g" query "$db" summary 2>&1 | grep -E "^(device|outcomes|best|baseline)" || true
		"$g" query "$db" compare 2>&1 | grep -vE "^(min ms|iqr ms|energy J|power W|spill|static smem|local bytes)" || true
	done
	echo "--- model (emu:sm_90, modeled) against the H100 (measured) at the emulator size"
	python3 scripts/report/model-vs-measured.py "$r/emu/$s-emu-sm_90.db" "$r/h100/$s-h100-emusize.db" | tail -3
	echo "--- model (emu:sm_90 at the emulator size) against the H100 at the real size"
	python3 scripts/report/model-vs-measured.py "$r/emu/$s-emu-sm_90.db" "$(h100 "$s")" | tail -3
	real="$r/emu/$s-emu-sm_90-real.db"
	if [ -f "$real" ]; then
		echo "--- model (emu:sm_90, sampled blocks at the real size) against the H100 at the real size"
		sqlite3 "$real" "SELECT 'options ' || options_json FROM sweep ORDER BY id DESC LIMIT 1"
		grep -hE "^(wall|cpu) " "$r/emu/$s-emu-sm_90-real-run.txt" 2>/dev/null || true
		python3 scripts/report/model-vs-measured.py "$real" "$(h100 "$s")" | tail -3
		python3 scripts/report/model-vs-measured.py "$real" "$(h100 "$s")" --top 1 | tail -1
		sqlite3 "$real" "SELECT 'model bound ' || b || ' ' || n FROM (SELECT
			coalesce(json_extract(counters, '$.model.bound'),
				json_extract(metrics, '$.model_bound')) b, count(*) n FROM result
			WHERE status = 'ok' GROUP BY b) ORDER BY n DESC, b"
	else
		echo "--- model at the real size: $real not there (gsearch run --device emu:sm_90 --db $real spaces/$s.space)"
	fi
	echo "--- portability: each optimum measured on the H100 (real size)"
	for src in "$r/emu/$s-emu-g80.db" "$r/emu/$s-emu-sm_90.db" "$r/h100/$s-h100-emusize.db"; do
		echo "  from $src"
		portability "$src" "$(h100 "$s")"
	done
done
