#!/usr/bin/env bash
# emu-ab.sh — two gsearch builds emulating one space at the real size, side
# by side on this host: the CPU time and the wall time of each, and whether
# they model the same times.
#
#   scripts/bench/emu-ab.sh BASE NEW [SPACE [ROUNDS]]
#
# SPACE defaults to spaces/matmul.space (the issue's 270 configurations on
# 2 cores), ROUNDS to 2.  Each round runs BASE then NEW, each as
# scripts/report/emu-device.sh's `cpu` mode runs it: `run --quiet --device
# emu:sm_90 --jobs JOBS` (default 2) into a fresh store, compiles included.
# Rounds alternate the builds so that a shared host's changing load falls
# on both alike; CPU time (user + system of the run and of every process it
# started, getrusage of a subreaper) is the figure to compare there, wall
# time is the issue's.  Prints per run
#
#   AB build=BASE|NEW round=R cpu_s=X wall_s=Y outcomes
#
# then the totals and ratio (NEW / BASE), and the last round's stores
# compared configuration by configuration (storecmp.py same: max_diff is the
# largest relative difference of a modeled time).  KEEP=DIR keeps the stores.
set -euo pipefail
base=${1:?usage: emu-ab.sh BASE NEW [SPACE [ROUNDS]]}
new=${2:?usage: emu-ab.sh BASE NEW [SPACE [ROUNDS]]}
space=${3:-spaces/matmul.space}
rounds=${4:-2}
jobs=${JOBS:-2}
tmp=${KEEP:-$(mktemp -d)}
mkdir -p "$tmp"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$tmp"' EXIT
name=$(basename "$space" .space)

# run OUT CMD...: CMD's output in OUT; prints "CPU WALL" in seconds
run() {
	python3 "$(dirname "$0")/cputime.py" "$@"
}

printf 'host: %s, %s cores, load %s; space %s; --jobs %s\n' "$(hostname)" "$(nproc)" \
	"$(cut -d' ' -f1-3 /proc/loadavg)" "$space" "$jobs"
printf 'BASE %s: %s\nNEW  %s: %s\n' "$base" "$("$base" --version)" "$new" "$("$new" --version)"
declare -A cpu wall
cpu[BASE]=0 cpu[NEW]=0 wall[BASE]=0 wall[NEW]=0
for ((r = 1; r <= rounds; r++)); do
	for b in BASE NEW; do
		g=$base
		[ $b = NEW ] && g=$new
		db=$tmp/$name-$b.db
		rm -f "$db" "$db"-*
		read -r c w < <(run "$tmp/$name-$b.txt" "$g" run --quiet --device emu:sm_90 --jobs "$jobs" \
			--db "$db" "$space")
		echo "AB build=$b round=$r cpu_s=$c wall_s=$w $(sed -n 's/^outcomes: /outcomes: /p' "$tmp/$name-$b.txt")" \
			"load $(cut -d' ' -f1 /proc/loadavg)"
		cpu[$b]=$(awk -v a="${cpu[$b]}" -v b="$c" 'BEGIN { print a + b }')
		wall[$b]=$(awk -v a="${wall[$b]}" -v b="$w" 'BEGIN { print a + b }')
	done
done
awk -v cb="${cpu[BASE]}" -v cn="${cpu[NEW]}" -v wb="${wall[BASE]}" -v wn="${wall[NEW]}" -v r="$rounds" 'BEGIN {
	printf "AB total rounds=%d base_cpu_s=%.2f new_cpu_s=%.2f cpu_ratio=%.3f base_wall_s=%.2f new_wall_s=%.2f wall_ratio=%.3f\n",
		r, cb, cn, cn / cb, wb, wn, wn / wb
}'
python3 "$(dirname "$0")/storecmp.py" same --name "$name" "$tmp/$name-BASE.db" "$tmp/$name-NEW.db"
