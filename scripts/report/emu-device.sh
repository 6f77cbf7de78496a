#!/bin/bash
# emu-device.sh — the emulated device's costs and rankings, measured on the GPU host's CPUs
# (16 cores, otherwise idle) rather than on a shared development machine.
#
#   scripts/report/emu-device.sh cpu DIR      # EMU lines, and matmul's 270 configurations on 2 cores
#   scripts/report/emu-device.sh model DIR    # every bundled and held-out space at the real size
#
# cpu: first `run --device emu:sm_90 --jobs 2` of spaces/matmul.space alone on cores 0-1 (its
# wall time, the issue's "270 configurations in 60 s on 2 cores"), then scripts/bench/emu-cpu.sh
# (BUDGET configurations of each space, default 30) in eight groups at once, each pinned to two
# cores of its own: CPU time is what it measures, so the groups do not disturb one another's
# figures beyond shared caches and memory bandwidth.  DIR/emu-cpu.txt holds the EMU lines.
# model: each space's real-size sweep on emu:sm_90 with 16 jobs, stores DIR/NAME-emu-sm_90-real.db.
set -uo pipefail
mode=${1:?usage: emu-device.sh cpu|model DIR}
dir=${2:?usage: emu-device.sh cpu|model DIR}
g=${GSEARCH:-build/gsearch}
mkdir -p "$dir"
spaces=(spaces/*.space scripts/bench/heldout/*.space scripts/bench/heldout2/*.space
	scripts/bench/heldout3/*.space scripts/bench/heldout4/*.space scripts/bench/heldout5/*.space
	scripts/bench/heldout6/*.space scripts/bench/heldout7/*.space scripts/bench/heldout8/*.space)
case $mode in
cpu)
	rm -f "$dir/matmul-2core.db"*
	s=$(date +%s.%N)
	taskset -c 0,1 "$g" run --quiet --device emu:sm_90 --jobs 2 --db "$dir/matmul-2core.db" \
		spaces/matmul.space >"$dir/matmul-2core.txt" 2>&1
	e=$(date +%s.%N)
	awk -v a="$s" -v b="$e" 'BEGIN { printf "MATMUL270 cores=2 wall_s=%.1f\n", b - a }' | tee -a "$dir/matmul-2core.txt"
	n=${#spaces[@]}
	for ((gi = 0; gi < 8; gi++)); do
		grp=()
		for ((i = gi; i < n; i += 8)); do grp+=("${spaces[i]}"); done
		[ ${#grp[@]} -eq 0 ] && continue
		BUDGET=${BUDGET:-30} taskset -c $((2 * gi)),$((2 * gi + 1)) \
			scripts/bench/emu-cpu.sh "$g" "${grp[@]}" >"$dir/emu-cpu-$gi.txt" 2>&1 &
	done
	wait
	cat "$dir"/emu-cpu-[0-7].txt | grep '^EMU ' | sort >"$dir/emu-cpu.txt"
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^ratio=/) { sub("ratio=", "", $i); print $i } }' \
		"$dir/emu-cpu.txt" | sort -g | awk '{ v[NR] = $1 } END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "MEDIAN ratio=%.3f over %d spaces\n", m, NR }' | tee -a "$dir/emu-cpu.txt"
	;;
model)
	for sp in "${spaces[@]}"; do
		b=$(basename "$sp" .space)
		"$g" run --quiet --device emu:sm_90 --jobs 16 --db "$dir/$b-emu-sm_90-real.db" "$sp" \
			>"$dir/$b-emu-sm_90-real-run.txt" 2>&1
		echo "$b: $(grep '^outcomes' "$dir/$b-emu-sm_90-real-run.txt")"
	done
	;;
*)
	echo "emu-device.sh: cpu or model, not '$mode'" >&2
	exit 2
	;;
esac
