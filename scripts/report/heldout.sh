#!/bin/sh
# heldout.sh — the emulated device on spaces no constant of its model was
# fitted to (scripts/bench/heldout), against their H100 stores in
# results/heldout: Spearman, Kendall and the regret of the model's top 5.
#
#   scripts/report/heldout.sh [GSEARCH] > results/heldout/report.txt
#
# The H100 stores were made with `gsearch run --db results/heldout/S-h100.db
# scripts/bench/heldout/S.space` on an H100.
set -eu
g=${1:-build/gsearch}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
for sp in scripts/bench/heldout/*.space; do
	s=$(basename "$sp" .space)
	"$g" run --device emu:sm_90 --db "$t/$s.db" "$sp" --quiet >"$t/$s.txt" 2>&1
	echo "=== $s ($(sed -n 's/^outcomes: /outcomes on emu:sm_90: /p' "$t/$s.txt"))"
	python3 scripts/report/model-vs-measured.py "$t/$s.db" "results/heldout/$s-h100.db" | tail -3
done
