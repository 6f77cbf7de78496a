#!/usr/bin/env bash
# emu-cpu.sh — what the emulated device costs at the real size against what
# compiling costs: for each space, the CPU time of emulating one of its
# configurations (`gsearch run --device emu:sm_90`, sampled blocks) and of
# compiling one of its variants (NVRTC), both measured in this run.
#
#   scripts/bench/emu-cpu.sh [GSEARCH [SPACE...]]
#
# Default spaces: spaces/*.space and every held-out suite's (scripts/bench/heldout*/).  Per
# space, into a fresh store: `run --compile-only` with an empty NVRTC cache
# (CUDA_CACHE_PATH), then `run --device emu:sm_90` over the same store, whose
# variants are all cached by then.  CPU time is user + system of the command
# and of every process it started (getrusage), not wall time: the host may
# be shared.  The emulation's CPU covers the whole run: the
# inputs, the reference and the validation at the emulator size, and the
# sampled real-size launches.  Prints per space
#
#   EMU space=NAME configs=N emu_cpu_s=X compile_cpu_s=Y ratio=X/Y
#
# X the emulation CPU per configuration, Y the compile CPU per variant, and
# a last line with the median ratio.  JOBS (default 2) is --jobs and
# --threads; KEEP=DIR keeps the stores there as DIR/NAME.db; BUDGET=N
# compiles and emulates only N configurations of each space, drawn at
# random (seed 1): X and Y are then the means over those.
set -euo pipefail
gsearch=${1:-build/gsearch}
[ $# -gt 0 ] && shift
if [ $# -eq 0 ]; then
	set -- spaces/*.space scripts/bench/heldout*/*.space
fi
jobs=${JOBS:-2}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# cpu OUT CMD...: run CMD with its output in OUT, print its CPU seconds,
# the worker's included (cputime.py)
cpu() {
	local t
	t=$(python3 "$(dirname "$0")/cputime.py" "$@") || { echo "${t%% *}"; return 1; }
	echo "${t%% *}"
}

printf 'host: %s, %s cores, load %s; %s; --jobs %s --threads %s\n' "$(hostname)" "$(nproc)" \
	"$(cut -d' ' -f1-3 /proc/loadavg)" "$("$gsearch" --version)" "$jobs" "$jobs"
ratios=()
for sp in "$@"; do
	name=$(basename "$sp" .space)
	db=$tmp/$name.db
	mkdir -p "$tmp/nv-$name"
	budget=()
	[ -z "${BUDGET:-}" ] || budget=(--strategy random --budget "$BUDGET")
	ccpu=$(CUDA_CACHE_PATH=$tmp/nv-$name cpu "$tmp/$name.compile" "$gsearch" run --compile-only --device emu:sm_90 \
		--jobs "$jobs" --db "$db" "${budget[@]}" "$sp")
	nvar=$(sed -n 's/^compiled \([0-9]*\) variants.*/\1/p' "$tmp/$name.compile")
	ecpu=$(CUDA_CACHE_PATH=$tmp/nv-$name cpu "$tmp/$name.emu" "$gsearch" run --device emu:sm_90 \
		--jobs "$jobs" --threads "$jobs" --quiet --db "$db" "${budget[@]}" "$sp") || true
	ncfg=$(sed -n 's/^outcomes: //p' "$tmp/$name.emu" | tr ' ' '\n' | awk '
		/^[0-9]+$/ { n += $1 } END { print n + 0 }')
	nrun=$(sed -n 's/^outcomes: .*not run \([0-9]*\).*/\1/p' "$tmp/$name.emu")
	ncfg=$((ncfg - ${nrun:-0}))
	line=$(awk -v n="$name" -v c="$ncfg" -v v="$nvar" -v e="$ecpu" -v k="$ccpu" 'BEGIN {
		x = c ? e / c : 0; y = v ? k / v : 0
		printf "EMU space=%s configs=%d emu_cpu_s=%.4f compile_cpu_s=%.4f ratio=%.3f", n, c, x, y, y ? x / y : 0
	}')
	echo "$line"
	echo "INFO space=$name variants=$nvar emu_cpu_total_s=$ecpu compile_cpu_total_s=$ccpu" \
		"($(sed -n 's/^outcomes: //p' "$tmp/$name.emu"))"
	ratios+=("${line##*ratio=}")
	if [ -n "${KEEP:-}" ]; then
		mkdir -p "$KEEP"
		cp "$db" "$KEEP/$name.db"
		cp "$tmp/$name.emu" "$KEEP/$name-run.txt"
	fi
done
printf '%s\n' "${ratios[@]}" | sort -g | awk '{ r[NR] = $1 } END {
	m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
	printf "EMU median_ratio=%.3f spaces=%d\n", m, NR
}'
