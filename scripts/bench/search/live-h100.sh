#!/bin/bash
# live-h100.sh — a budgeted search against the exhaustive sweep of the same
# compile-heavy space, live on one GPU (convbig.space: a 15 x 15
# convolution whose variants each cost NVRTC seconds).
#
#   scripts/bench/search/live-h100.sh exhaustive DIR   # the whole space; call again to resume
#   scripts/bench/search/live-h100.sh search DIR [BUDGET [STRATEGY]]   # default surrogate
#   scripts/bench/search/live-h100.sh compare DIR
#   scripts/bench/search/live-h100.sh all DIR
#
# Run from the repository root on the GPU host, with build/gsearch built
# (GSEARCH=PATH overrides).  Each step appends its wall seconds to
# DIR/STEP.wall, so an exhaustive sweep cut short (LIMIT=SECONDS stops it
# with SIGINT, which lets the work in flight finish: default 560 s, under a
# 10-minute call) and resumed is timed as the sum of its calls.  RUN_ARGS
# adds options to both runs (`--device emu:sm_90 --emu` tries the script on
# the emulated device).
#
# Each search is a fresh store of its own (DIR/convbig-STRATEGY-sSEED.db,
# SEED=N sets --seed, default 1): it compiles everything it measures, as a
# user who never ran the exhaustive sweep would (the compile cache lives in
# the store).  Its default budget is time, 9.5% of the exhaustive sweep's
# wall time, counted from the start of `run`: when it runs out the compiles
# in flight are cancelled and only the measurements sent to the device
# finish (within 0.1 s), hence the small margin under the goal's tenth.
# Without an exhaustive wall time yet it is 10% of the configurations.
# `compare` prints a line for every search in DIR.
set -uo pipefail
cd "$(dirname "$0")/../../.."
G=${GSEARCH:-build/gsearch}
SPACE=scripts/bench/search/convbig.space
LIMIT=${LIMIT:-560}
read -r -a extra <<<"${RUN_ARGS:-}"
step=${1:-}
dir=${2:-}
if [ -z "$step" ] || [ -z "$dir" ]; then
	echo "usage: $0 exhaustive|search|compare|all DIR [BUDGET [STRATEGY]]" >&2
	exit 2
fi
mkdir -p "$dir"

now() { date +%s.%N; }

# timed STEP COMMAND...: runs it under the time limit, appends its wall seconds
timed() {
	local name=$1 t0 t1 rc
	shift
	echo "\$ $*"
	t0=$(now)
	timeout -s INT -k 30 "$LIMIT" "$@"
	rc=$?
	t1=$(now)
	echo "$t0 $t1 $rc" >>"$dir/$name.wall"
	awk -v a="$t0" -v b="$t1" -v rc="$rc" -v n="$name" \
		'BEGIN { printf "WALL %s this call %.1f s (exit %d)\n", n, b - a, rc }'
	awk -v n="$name" '{ s += $2 - $1 } END { printf "WALL %s total %.1f s over %d call(s)\n", n, s, NR }' \
		"$dir/$name.wall"
	return $rc
}

# best DB: the best ok time (ms) of the store's newest sweep
best() {
	"$G" query "$1" top -n 1 --csv | awk -F, '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == "time_ms") c = i; next }
		NR == 2 && c { print $c }'
}

wall() { awk '{ s += $2 - $1 } END { printf "%.1f", s }' "$1"; }

do_exhaustive() {
	"$G" --version | head -1
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
	timed exhaustive "$G" run --quiet "${extra[@]}" --db "$dir/convbig-exhaustive.db" "$SPACE"
	local rc=$?
	"$G" query "$dir/convbig-exhaustive.db" summary
	"$G" query "$dir/convbig-exhaustive.db" top -n 5
	[ $rc -eq 130 ] || [ $rc -eq 124 ] && echo "exhaustive: cut at ${LIMIT}s; call again to resume"
	return 0
}

do_search() {
	local budget=${3:-} strat=${4:-surrogate} seed=${SEED:-1}
	if [ -z "$budget" ]; then
		if [ -s "$dir/exhaustive.wall" ]; then
			budget=$(awk '{ s += $2 - $1 } END { printf "%ds", s * 0.095 }' "$dir/exhaustive.wall")
		else
			budget=10%
		fi
	fi
	local name=$strat-s$seed
	rm -f "$dir/search-$name.wall" "$dir/convbig-$name.db"* 2>/dev/null
	timed "search-$name" "$G" run --quiet "${extra[@]}" --strategy "$strat" --seed "$seed" \
		--budget "$budget" --db "$dir/convbig-$name.db" "$SPACE"
	echo "$strat seed=$seed budget=$budget" >"$dir/search-$name.what"
	"$G" query "$dir/convbig-$name.db" summary
	"$G" query "$dir/convbig-$name.db" top -n 3
	echo "BEST search $name $(best "$dir/convbig-$name.db") ms"
}

do_compare() {
	local be bs we ws w name
	be=$(best "$dir/convbig-exhaustive.db")
	we=$(wall "$dir/exhaustive.wall")
	for w in "$dir"/search-*.what; do
		[ -e "$w" ] || continue
		name=${w##*/search-}
		name=${name%.what}
		bs=$(best "$dir/convbig-$name.db")
		ws=$(wall "$dir/search-$name.wall")
		awk -v be="$be" -v bs="$bs" -v we="$we" -v ws="$ws" -v what="$(cat "$w")" 'BEGIN {
			printf "COMPARE %s best %.4f ms, exhaustive optimum %.4f ms: %+.2f%% (goal <= 3%%); ", \
				what, bs, be, (bs / be - 1) * 100
			printf "wall %.1f s of %.1f s = 1/%.1f (goal >= 1/10)\n", ws, we, we / ws
		}'
	done
}

case $step in
exhaustive) do_exhaustive ;;
search) do_search "$@" ;;
compare) do_compare ;;
all) do_exhaustive && do_search "$@" && do_compare ;;
*) echo "$0: unknown step $step" >&2; exit 2 ;;
esac
