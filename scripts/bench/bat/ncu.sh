#!/usr/bin/env bash
# ncu.sh — Nsight Compute on single configurations of a BAT T1 file, to see
# where the GPU's time goes where the model's went elsewhere.
#
#   scripts/bench/bat/ncu.sh T1.json STORE INDEX...
#
# Each INDEX is a configuration of STORE (a sweep of T1.json); its
# parameters pin a copy of the T1 file (every Values list one value), which
# `gsearch run --device cuda` measures under `ncu --clock-control none
# --cache-control none -c 1` (the first launch of the kernel).  Prints one
# NCU line per configuration: the time, L1 hit rate and global load
# requests, sectors and wavefronts, instructions, issue activity, active
# warps and the main stall reasons per issue.  GSEARCH: the binary; NCU:
# Nsight Compute (default ncu).
set -uo pipefail
[ $# -ge 3 ] || { sed -n 5p "$0" | sed 's/^# *//' >&2; exit 2; }
t1=$1 store=$2
shift 2
g=${GSEARCH:-build/gsearch}
ncu=${NCU:-ncu}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
m=gpu__time_duration.sum,l1tex__t_sector_hit_rate.pct
m=$m,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
m=$m,l1tex__data_pipe_lsu_wavefronts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
m=$m,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,smsp__inst_executed.sum
m=$m,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
for s in long_scoreboard short_scoreboard lg_throttle mio_throttle barrier math_pipe_throttle wait not_selected; do
	m=$m,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio
done
dir=$(dirname "$t1")
for idx in "$@"; do
	pin=$dir/pinned-$idx.json
	python3 - "$t1" "$store" "$idx" "$pin" <<'PY' || exit 1
import json, sqlite3, sys
t1, store, idx, out = sys.argv[1:]
db = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
p = json.loads(db.execute("SELECT params FROM config WHERE idx = ? ORDER BY sweep_id DESC",
                          (int(idx),)).fetchone()[0])
d = json.load(open(t1))
for tp in d["ConfigurationSpace"]["TuningParameters"]:
    tp["Values"] = repr([p[tp["Name"]]])
json.dump(d, open(out, "w"), indent=1)
PY
	name=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["KernelSpecification"]["KernelName"])' "$pin")
	"$ncu" --clock-control none --cache-control none --target-processes all -k "regex:^$name\$" -c 1 \
		--csv --metrics "$m" "$g" run --device cuda --quiet --db "$tmp/$idx.db" "$pin" \
		>"$tmp/$idx.csv" 2>"$tmp/$idx.err"
	python3 - "$tmp/$idx.csv" "$idx" <<'PY'
import csv, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
if len(rows) < 2:
    print(f"NCU index={sys.argv[2]} no profile"); sys.exit(0)
h = rows[0]; vals = {}
for r in rows[1:]:
    vals[r[h.index("Metric Name")]] = r[h.index("Metric Value")].replace(",", "")
short = lambda k: k.replace("smsp__average_warps_issue_stalled_", "stall_").replace("_per_issue_active.ratio", "")
print(f"NCU index={sys.argv[2]} " + " ".join(f"{short(k)}={v}" for k, v in vals.items()))
PY
	rm -f "$pin"
done
