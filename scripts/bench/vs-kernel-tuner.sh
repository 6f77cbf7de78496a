#!/usr/bin/env bash
# vs-kernel-tuner.sh — gsearch against Kernel Tuner on one GPU host: the same
# kernels, the same configurations, each tool's whole sweep timed.
#
#   scripts/bench/vs-kernel-tuner.sh GSEARCH OUTDIR [CASE...]
#
# CASE is one of matmul-1024, matmul-4096 (scripts/bench/spaces/
# matmul-nomaxreg.space at N=1024 and N=4096, 90 configurations each) and
# convheavy (scripts/bench/spaces/convheavy.space, 47 configurations that
# take NVRTC from a fraction of a second to several seconds each); default:
# all three.
# Run it from anywhere; Kernel Tuner must be importable (python3 -c 'import
# kernel_tuner'), with CuPy.  Per case:
#
#   1. gsearch, cold: `GSEARCH run --quiet --jobs $JOBS --db FRESH.db SPACE`,
#      a new store, so every variant is compiled; the time is the whole
#      process's wall clock.  Its summary is printed verbatim.
#   2. Kernel Tuner, cold: scripts/bench/kt_tune.py (cupy backend,
#      brute_force, 7 iterations, cache=None, verification on as in gsearch;
#      see its header), with CUPY_CACHE_DIR an empty directory; the time is
#      the tune_kernel call's wall clock.
#      -> VS space=NAME gsearch_s=X kt_s=Y ratio=Y/X spearman=S same_optimum=yes|no
#      Spearman is over the configurations ok in both, matched by parameter
#      values; same_optimum compares the two fastest.
#   3. gsearch, warm compile cache: the cold store copied with its sweeps,
#      configurations and results deleted and its compile cache (table
#      variant) kept (storecmp.py strip), then the same command into it: the
#      same sweep identity, every variant found in the cache, every
#      configuration measured again.  Summary printed verbatim.
#   4. Kernel Tuner has no compile cache to warm: with cache=None it keeps
#      nothing between runs, and CuPy reads its disk cache (CUPY_CACHE_DIR)
#      only for modules compiled without name_expressions, which Kernel
#      Tuner's cupy backend always passes.  So WARM compares gsearch's warm
#      run with the cold Kernel Tuner run of step 2, and says so:
#      -> WARM space=NAME gsearch_s=X kt_s=Y ratio=Y/X spearman=S same_optimum=yes|no kt_run=cold
#      With KT_WARM=1, Kernel Tuner runs a second time in a new process with
#      the same CUPY_CACHE_DIR, and WARM uses that run (kt_run=second), unless
#      the script has already run KT_WARM_UNTIL seconds (default 420).
#
# NVRTC 12.9 and later keep what they compile in the driver's compute cache
# (CUDA_CACHE_PATH, ~/.nv/ComputeCache by default) and answer a repeated
# compile from it in a fraction of a second, across processes and tools: the
# warm-up and the N=1024 sweep would otherwise warm N=4096's "cold" compiles.
# So every run above gets an empty CUDA_CACHE_PATH of its own, except Kernel
# Tuner's second run, which reuses its first run's (that is its warm cache).
#
# A CEILING line follows each VS line: the ratio a cold gsearch run would
# reach if it took only its compiles' CPU time over its threads.
#
# An INFO line follows each VS and WARM line (counts, both optima).  A Kernel
# Tuner run is stopped after KT_TIMEOUT seconds (default 330): its lines then
# say kt_s=timeout.  Everything printed also goes to OUTDIR/vs-kernel-tuner.txt;
# stores, logs and result files stay in OUTDIR/work.  Environment: JOBS
# (default 16) compile threads for gsearch.
set -uo pipefail

if [ $# -lt 2 ]; then
	echo "usage: $0 GSEARCH OUTDIR [matmul-1024|matmul-4096|convheavy]..." >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
gsearch=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
shift 2
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(matmul-1024 matmul-4096 convheavy)
jobs=${JOBS:-16}
kt_timeout=${KT_TIMEOUT:-330}
kt_warm=${KT_WARM:-0}
kt_warm_until=${KT_WARM_UNTIL:-420}

mkdir -p "$out/work" || exit 1
out=$(cd "$out" && pwd)
work=$out/work
exec > >(tee "$out/vs-kernel-tuner.txt") 2>&1

now() { date +%s.%N; }
# fresh DIR: an empty directory for NVRTC's compute cache
fresh() { rm -rf "$1" && mkdir -p "$1"; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

echo "vs-kernel-tuner: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname), $(nproc) cores"
"$gsearch" --version || { echo "vs-kernel-tuner: cannot run $gsearch" >&2; exit 1; }
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu \
	--format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
if ! python3 -c 'import kernel_tuner, cupy, numpy
from importlib.metadata import version as v
print("python:", __import__("sys").version.split()[0], "kernel_tuner", v("kernel_tuner"),
      "cupy", cupy.__version__, "numpy", numpy.__version__)'; then
	echo "vs-kernel-tuner: Kernel Tuner or CuPy cannot be imported (PYTHONPATH?)" >&2
	exit 1
fi
echo "gsearch: --jobs $jobs; Kernel Tuner: timeout ${kt_timeout} s, second runs: KT_WARM=$kt_warm"
echo

# kt NAME TAG SPACE KIND SET...: one Kernel Tuner run into $work/NAME-TAG.json;
# prints its time, or "timeout"
kt() {
	local name=$1 tag=$2 space=$3 kind=$4
	shift 4
	local sets=() s nvcache=$work/nvcache-$name-$tag
	for s in "$@"; do sets+=(--set "$s"); done
	[ "$tag" = kt-second ] && nvcache=$work/nvcache-$name-kt-cold || fresh "$nvcache"
	CUDA_CACHE_PATH=$nvcache CUPY_CACHE_DIR=$work/cupy-$name timeout "$kt_timeout" python3 "$here/kt_tune.py" \
		--gsearch "$gsearch" --space "$space" --kind "$kind" "${sets[@]}" \
		--out "$work/$name-$tag.json" >"$work/$name-$tag.log" 2>&1
	local rc=$?
	tail -n 1 "$work/$name-$tag.log" >&2
	if [ $rc -eq 124 ]; then
		echo timeout
	elif [ $rc -ne 0 ]; then
		echo "vs-kernel-tuner: Kernel Tuner failed ($rc), see $work/$name-$tag.log" >&2
		tail -n 20 "$work/$name-$tag.log" >&2
		echo failed
	else
		python3 -c 'import json, sys; print("%.2f" % json.load(open(sys.argv[1]))["wall_s"])' \
			"$work/$name-$tag.json"
	fi
}

# gs NAME TAG SPACE SET...: one gsearch run into $work/NAME-TAG.db (which may
# exist: the warm run); prints its wall time
gs() {
	local name=$1 tag=$2 space=$3
	shift 3
	local sets=() s t0 t1
	for s in "$@"; do sets+=(--set "$s"); done
	fresh "$work/nvcache-$name-$tag"
	t0=$(now)
	CUDA_CACHE_PATH=$work/nvcache-$name-$tag "$gsearch" run --quiet --jobs "$jobs" --db "$work/$name-$tag.db" "${sets[@]}" "$space" \
		>"$work/$name-$tag.log" 2>&1
	local rc=$?
	t1=$(now)
	{
		echo "gsearch $tag $name (exit $rc):"
		cat "$work/$name-$tag.log"
	} >&2
	elapsed "$t0" "$t1"
}

# line LABEL NAME GSEARCH_S KT_S DB KT_JSON [EXTRA]
line() {
	local label=$1 name=$2 gs_s=$3 kt_s=$4 db=$5 json=$6 extra=${7:-}
	if [ "$kt_s" = timeout ] || [ "$kt_s" = failed ] || [ ! -f "$json" ]; then
		echo "$label space=$name gsearch_s=$gs_s kt_s=$kt_s ratio=nan spearman=nan same_optimum=no${extra:+ $extra}"
		return
	fi
	python3 "$here/storecmp.py" vs --label "$label" --name "$name" --db "$db" \
		--gsearch-s "$gs_s" --kt "$json" | sed "1s/\$/${extra:+ $extra}/"
}

# ceiling NAME LOG KT_S: the ratio gsearch would reach if its cold run took
# no longer than its compiles' CPU time over its threads (what NVRTC alone
# costs on this host's cores, loaded as the run loaded them)
ceiling() {
	sed -n 's/.*compile busy \([0-9.]*\) s on \([0-9]*\) thread.*/\1 \2/p' "$2" | head -n 1 |
		awk -v name="$1" -v kt="$3" '{
			b = $1 / $2
			r = (kt ~ /^[0-9.]+$/ && b > 0) ? sprintf("%.2f", kt / b) : "nan"
			printf "CEILING space=%s compile_busy_s=%.2f threads=%d bound_s=%.2f ratio_at_bound=%s\n", name, $1, $2, b, r
		}'
}

# Both tools' first NVRTC compile and first CUDA context on a freshly
# started host read NVRTC, its builtins and the driver from disk and wake
# the GPU; whichever ran first would pay for both.  One throwaway sweep of
# gsearch (N=64, not benchmarked) and one CuPy module on the GPU do it for
# each.  Kernel Tuner's own timing leaves its context out anyway.
warm_t0=$(now)
fresh "$work/nvcache-warmup"
CUDA_CACHE_PATH=$work/nvcache-warmup "$gsearch" run --quiet --jobs "$jobs" --db "$work/warmup.db" --set N=64 \
	"$root/scripts/bench/spaces/matmul-nomaxreg.space" 2>&1 | sed -n 's/^wall/warm-up gsearch: wall/p'
rm -f "$work"/warmup.db*
CUDA_CACHE_PATH=$work/nvcache-warmup CUPY_CACHE_DIR=$work/cupy-warmup python3 -c 'import cupy
cupy.RawModule(code="extern \"C\" __global__ void k(float *x) { x[threadIdx.x] = 1; }").get_function("k")' \
	>/dev/null 2>&1
echo "warm-up of both tools (not counted): $(elapsed "$warm_t0" "$(now)") s"

status=0
for c in "${cases[@]}"; do
	case $c in
	matmul-1024) space=$root/scripts/bench/spaces/matmul-nomaxreg.space kind=matmul sets=(N=1024) ;;
	matmul-4096) space=$root/scripts/bench/spaces/matmul-nomaxreg.space kind=matmul sets=(N=4096) ;;
	convheavy) space=$root/scripts/bench/spaces/convheavy.space kind=convheavy sets=() ;;
	*) echo "vs-kernel-tuner: unknown case '$c'" >&2; status=1; continue ;;
	esac
	rm -rf "$work/$c"-* "$work/cupy-$c"
	mkdir -p "$work/cupy-$c"
	echo "== $c: $(date -u +%H:%M:%S), ${SECONDS} s into the run"

	gs_cold=$(gs "$c" cold "$space" "${sets[@]}")
	kt_cold=$(kt "$c" kt-cold "$space" "$kind" "${sets[@]}")
	line VS "$c" "$gs_cold" "$kt_cold" "$work/$c-cold.db" "$work/$c-kt-cold.json"
	ceiling "$c" "$work/$c-cold.log" "$kt_cold"
	case $kt_cold in timeout | failed) status=1 ;; esac

	python3 "$here/storecmp.py" strip "$work/$c-cold.db" "$work/$c-warm.db" >&2
	gs_warm=$(gs "$c" warm "$space" "${sets[@]}")
	if [ "$kt_warm" = 1 ] && [ "$SECONDS" -lt "$kt_warm_until" ] && [ -f "$work/$c-kt-cold.json" ]; then
		kt_second=$(kt "$c" kt-second "$space" "$kind" "${sets[@]}")
		line WARM "$c" "$gs_warm" "$kt_second" "$work/$c-warm.db" "$work/$c-kt-second.json" kt_run=second
	else
		line WARM "$c" "$gs_warm" "$kt_cold" "$work/$c-warm.db" "$work/$c-kt-cold.json" kt_run=cold
	fi
	echo
done
echo "vs-kernel-tuner: done in ${SECONDS} s; details in $work"
exit $status
