#!/usr/bin/env bash
# query-bench.sh — how long `gsearch query` takes on a store of a million
# results.
#
#   scripts/bench/query-bench.sh [GSEARCH]
#
# Makes the store once with tests/query/gen_store.py (N results, default
# 1,000,000, into DB, default build/bench/query-N.db; about a minute and
# 800 MB), then times summary, top, a two-objective pareto (time and
# registers) and compare, three runs each, and prints the median wall time
# of each with the goal (under 1 s).  The store is kept for the next run.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
gsearch=${1:-$root/build/gsearch}
n=${N:-1000000}
db=${DB:-$root/build/bench/query-$n.db}
runs=3

if [ ! -x "$gsearch" ]; then
	echo "query-bench: no executable $gsearch (make first)" >&2
	exit 1
fi
if [ ! -f "$db" ]; then
	mkdir -p "$(dirname "$db")"
	echo "query-bench: making $db ($n results)"
	rm -f "$db.tmp"
	start=$(date +%s)
	GSEARCH=$gsearch python3 "$root/tests/query/gen_store.py" --size "$n" "$db.tmp"
	mv "$db.tmp" "$db"
	echo "query-bench: made in $(( $(date +%s) - start )) s"
fi
results=$(sqlite3 "$db" "SELECT count(*) FROM result")
echo "store: $db, $results results, $(du -m "$db" | cut -f1) MB"
echo "machine: $(nproc) cores, $(uname -m); load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '%-42s %10s %10s  %s\n' "report" "median s" "goal s" "runs s"
fail=0
while IFS='|' read -r name args; do
	times=()
	for _ in $(seq $runs); do
		start=$(date +%s%N)
		# shellcheck disable=SC2086
		"$gsearch" query "$db" $args >/dev/null
		times+=("$(( ($(date +%s%N) - start) / 1000000 ))")
	done
	sorted=$(printf '%s\n' "${times[@]}" | sort -n)
	median=$(echo "$sorted" | sed -n "$(( (runs + 1) / 2 ))p")
	all=$(printf '%s ' "${times[@]}")
	secs() { awk -v t="$1" 'BEGIN { printf "%.3f", t / 1000 }'; }
	printf '%-42s %10s %10s  %s\n' "$name" "$(secs "$median")" "1" \
		"$(for t in $all; do printf '%s ' "$(secs "$t")"; done)"
	[ "$median" -lt 1000 ] || fail=1
done <<'LIST'
summary|summary
top (10 rows)|top
pareto --min time_ms --min registers|pareto --min time_ms --min registers
compare|compare
LIST
echo
if [ $fail = 0 ]; then echo "every report under 1 s"; else echo "some report took 1 s or more"; fi
