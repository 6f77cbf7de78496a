#!/bin/sh
# emu-prior.sh — the search issue's `--prior emu` check, replayed: for each
# space, its H100 store searched with the emulated device's real-size sweep
# of the same space as the prior, budget max(5% of the space, 20)
# evaluations, 25 repeats, the prior's strategies beside ils without one.
#
#   scripts/bench/emu-prior.sh DIR... > results/search/emu-prior-NAME.txt
#
# DIR holds SPACE-h100.db and SPACE-emu-sm_90-real.db pairs (results/heldout6,
# say): every SPACE with both is replayed; GPU names another measured store,
# SPACE-$GPU.db (results/bat: h200).  GSEARCH: the binary
# (default build/gsearch).  The goal: within 2% of the measured optimum
# (f98) within the budget on each space.
set -eu
g=${GSEARCH:-build/gsearch}
gpu=${GPU:-h100}
echo "# --prior from the emulated device, replayed against $gpu stores:"
echo "#   $g replay H100.db --prior sweep:EMU.db --strategy pils --strategy po --strategy prior --strategy surrogate --strategy ils --budget max(5%,20) --repeats 25"
for dir in "$@"; do
	for h in "$dir"/*-"$gpu".db; do
		s=$(basename "$h" -"$gpu".db)
		e=$dir/$s-emu-sm_90-real.db
		[ -f "$e" ] || continue
		n=$(sqlite3 "file:$h?immutable=1" "SELECT count(*) FROM result WHERE sweep_id = (SELECT max(id) FROM sweep)")
		b=$(( (n * 5 + 99) / 100 ))
		[ "$b" -ge 20 ] || b=20
		echo "## $s: $h, prior $e, $n results, budget $b (max(5%, 20))"
		"$g" replay "$h" --prior "sweep:$e" --strategy pils --strategy po --strategy prior \
			--strategy surrogate --strategy ils --budget "$b" --repeats 25
	done
done
