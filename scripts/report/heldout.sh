#!/bin/sh
# heldout.sh — the emulated device on spaces no constant of its model was
# fitted to (scripts/bench/heldout), against their H100 stores in
# results/heldout: Spearman, Kendall, the regret of the model's top pick
# (top 1) and of its top 5.
#
#   scripts/report/heldout.sh [GSEARCH] > results/heldout/report.txt
#
# The stores are made on the GPU host by scripts/bench/heldout/run-device.sh:
# results/heldout/S-h100.db (measured) and, where present,
# results/heldout/S-emu-sm_90-real.db (the model at the real size, registered
# before the measurement).  A space without the latter is emulated here at the
# real size, which is slow on few cores; one without an H100 store is listed
# as not measured.
set -eu
g=${1:-build/gsearch}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
for sp in scripts/bench/heldout/*.space; do
	s=$(basename "$sp" .space)
	h=results/heldout/$s-h100.db
	m=results/heldout/$s-emu-sm_90-real.db
	if [ ! -f "$h" ]; then
		echo "=== $s (not measured: no $h)"
		continue
	fi
	if [ -f "$m" ]; then
		echo "=== $s (model: $m)"
	else
		m=$t/$s.db
		"$g" run --device emu:sm_90 --db "$m" "$sp" --quiet >"$t/$s.txt" 2>&1
		echo "=== $s ($(sed -n 's/^outcomes: /outcomes on emu:sm_90: /p' "$t/$s.txt"))"
	fi
	python3 scripts/report/model-vs-measured.py "$m" "$h" | tail -3
done
