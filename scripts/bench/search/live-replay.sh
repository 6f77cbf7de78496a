#!/bin/bash
# live-replay.sh — what a live search under a time budget would have found,
# replayed on a recorded exhaustive sweep as `run --jobs J` runs it on one
# device (`gsearch replay --jobs`), over many seeds.
#
#   scripts/bench/search/live-replay.sh STORE BUDGET [JOBS [REPEATS [STRATEGY...]]]
#
# Prints, per strategy, how many seeds ended within 3% of the optimum (the
# live goal's margin) and the median and worst gap, from `replay --trace`
# (the evaluations that arrived inside the budget).  Defaults: 16 jobs (the
# GPU host's cores), 25 repeats, surrogate random ils anneal.
set -euo pipefail
cd "$(dirname "$0")/../../.."
G=${GSEARCH:-build/gsearch}
store=${1:?usage: $0 STORE BUDGET [JOBS [REPEATS [STRATEGY...]]]}
budget=${2:?usage: $0 STORE BUDGET [JOBS [REPEATS [STRATEGY...]]]}
jobs=${3:-16}
repeats=${4:-25}
shift $(($# < 4 ? $# : 4))
strategies=("$@")
[ ${#strategies[@]} -gt 0 ] || strategies=(surrogate random ils anneal)
args=()
for s in "${strategies[@]}"; do args+=(--strategy "$s"); done
trace=$(mktemp)
trap 'rm -f "$trace"' EXIT
echo "# $G replay $store ${args[*]} --budget $budget --jobs $jobs --repeats $repeats"
"$G" replay "$store" "${args[@]}" --budget "$budget" --jobs "$jobs" --repeats "$repeats" --trace "$trace"
opt=$("$G" query "$store" top -n 1 --csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "time_ms") c = i; next } NR == 2 { print $c }')
python3 - "$trace" "$opt" "$budget" "$jobs" <<'PY'
import collections, csv, statistics, sys
trace, opt, budget, jobs = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4]
best, evals = collections.defaultdict(dict), collections.defaultdict(dict)
for r in csv.DictReader(open(trace)):
    k = (r["strategy"], r["repeat"])
    evals[r["strategy"]][r["repeat"]] = int(r["eval"])
    if r["time_ms"]:
        b = best[r["strategy"]]
        b[r["repeat"]] = min(b.get(r["repeat"], float("inf")), float(r["time_ms"]))
for s in evals:
    gaps = [(best[s].get(rep, float("inf")) / opt - 1) * 100 for rep in evals[s]]
    print(f"LIVE strategy={s} budget={budget} jobs={jobs} repeats={len(gaps)} "
          f"evaluated_median={statistics.median(evals[s].values()):.0f} "
          f"within3={sum(g <= 3 for g in gaps)} gap_median={statistics.median(gaps):.2f}% gap_max={max(gaps):.2f}%")
PY
