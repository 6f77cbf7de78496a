#!/usr/bin/env bash
# sweeps.sh — every configuration of every bundled space on the emulated
# device: on emu (sm_90: validated at the emulator sizes, timed from 4
# sampled blocks per launch at the real sizes, to keep the suite short) and
# on emu:g80 (at the emulator sizes; --emu-sample does not apply to it).
# Passes when every outcome is ok, invalid or compile_error (never wrong,
# crash, timeout, emu_limit or launch_error), and when a second emu:sm_90
# sweep of each space with a different number of threads gives an identical
# store.
#
#   tests/emu/sweeps.sh [GSEARCH] [SPACE...]     (default: spaces/*.space)
# Prints one line per sweep and "<passed> <failed>" to $GS_RESULT if set.
set -uo pipefail
g=${1:-build/gsearch}
shift || true
spaces=("$@")
[ ${#spaces[@]} -gt 0 ] || spaces=(spaces/*.space)
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok    $*"; }
bad() { fail=$((fail + 1)); echo "FAIL  $*"; }

# what two stores of one sweep must agree on, measurement dates aside
content() {
	sqlite3 "$1" "SELECT idx, status, time_ms, blocks_per_sm, limiter, max_abs_err,
		max_rel_err, error, metrics, counters, modeled FROM result ORDER BY idx"
}

for sp in "${spaces[@]}"; do
	name=$(basename "$sp" .space)
	for dev in emu emu:g80; do
		db="$d/$name-${dev/:/-}.db"
		t0=$(date +%s.%N)
		if ! "$g" run --quiet --device "$dev" --emu-sample 4 --db "$db" "$sp" >"$d/out" 2>&1; then
			bad "$name on $dev: gsearch run failed"; sed 's/^/      /' "$d/out"; continue
		fi
		t1=$(date +%s.%N)
		counts=$(sqlite3 "$db" "SELECT group_concat(status || ' ' || n, ', ') FROM
			(SELECT status, count(*) n FROM result GROUP BY status ORDER BY status)")
		badn=$(sqlite3 "$db" "SELECT count(*) FROM result WHERE status NOT IN
			('ok', 'invalid', 'compile_error')")
		total=$(sqlite3 "$db" "SELECT count(*) FROM config")
		done_=$(sqlite3 "$db" "SELECT count(*) FROM result")
		secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
		if [ "$badn" -eq 0 ] && [ "$total" -eq "$done_" ] && [ "$total" -gt 0 ]; then
			ok "$name on $dev: $counts ($total configurations, ${secs} s)"
		else
			bad "$name on $dev: $counts ($done_ of $total measured)"
			sqlite3 "$db" "SELECT '      ' || idx || ' ' || status || ': ' || substr(error, 1, 200)
				FROM result WHERE status NOT IN ('ok', 'invalid', 'compile_error') LIMIT 5"
		fi
	done
	# determinism: the same sweep on one thread gives the same store
	db1="$d/$name-emu.db" db2="$d/$name-emu-1thread.db"
	if "$g" run --quiet --device emu --emu-sample 4 --threads 1 --db "$db2" "$sp" >"$d/out" 2>&1 &&
		cmp -s <(content "$db1") <(content "$db2"); then
		ok "$name on emu: one thread and all threads give identical results"
	else
		bad "$name on emu: a second run with --threads 1 differs"
		diff <(content "$db1") <(content "$db2") | head -5 | sed 's/^/      /'
	fi
done
echo "$pass passed, $fail failed"
[ -n "${GS_RESULT:-}" ] && echo "$pass $fail" >"$GS_RESULT"
[ "$fail" -eq 0 ]
