#!/usr/bin/env bash
# vs-kt-strategies.sh — gsearch's search strategies against Kernel Tuner 1.5's,
# side by side on published exhaustive Kernel Tuner caches, no GPU: both
# replay the cache, both are scored with the autotuning-methodology package's
# own score.
#
#   scripts/bench/vs-kt-strategies.sh CACHE...
#
# CACHE: a Kernel Tuner cache file (scripts/bench/benchmark-hub.sh puts
# benchmark_hub's in DIR/kt/KERNEL/GPU.json); its name in the output is
# KERNEL_GPU (folder_file).  Per cache:
#
#   1. the budget, as the methodology derives it from the cache alone
#      (experiments.calculate_budget): the time random search needs to get
#      95% of the way from the median to the optimum, +10%; printed as
#      BUDGET cache=NAME size=N time_limit_s=T fevals=F fevals_methodology=M:
#      F is what T affords on Kernel Tuner's simulation clock (T / the cache's
#      mean compile + verification + benchmark time), M the runner's own
#      conversion (T / the mean objective time per evaluation).
#   2. gsearch: `GSEARCH replay CACHE --csv --repeats R --budget B --trace T`,
#      every strategy, no prior; B is F (GS_BUDGET=time gives "Ts" instead).
#      Its CSV rows are printed as "REPLAY ..." lines, and its trace scored.
#   3. Kernel Tuner: each strategy of KT_STRATEGIES run R times in simulation
#      mode with strategy_options={"time_limit": T, "max_fevals": size}, as
#      the methodology's runner drives it (scripts/bench/kt_strategies.py kt),
#      and scored.  max_fevals is ours: without it greedy_ils, greedy_mls, mls
#      and bayes_opt stop after 100 evaluations, their default, whatever the
#      time (KT_MAX_FEVALS=none: the methodology's time limit alone).  The
#      strategies in KT_DEFAULT_FEVALS (default: bayes_opt) keep their own
#      default (bayes_opt: 100): with a GEMM space of 17,956 configurations
#      and the size as its limit, one bayes_opt run had not finished after 9
#      minutes on a loaded 2-core machine, and its real time counts in the limit.
#   Both tools' lines:
#      STRAT cache=NAME tool=gsearch|kt strategy=S prior=P f95=N f100=N score=X
#      DETAIL ... (see scripts/bench/kt_strategies.py)
#   f95/f100: median over repeats of the distinct configurations evaluated
#   until the best is within optimum/0.95 / is the optimum ("-": the median
#   repeat never got there); score: the methodology's (0: random search, 1:
#   the optimum from the start).  gsearch's evaluations are charged the
#   cache's own objective time per configuration; Kernel Tuner's what the
#   run really reported (its framework and strategy time are real).
#
# Environment: GSEARCH (default build/gsearch next to this script's project),
# REPEATS (default 25), KT_STRATEGIES (space-separated; default below),
# JOBS (caches run at once, default 1; output still in the order given),
# SIDES (default "gsearch kt"; "kt" runs Kernel Tuner only), OUTDIR (default
# build/vs-kt-strategies): traces, the T4 conversions and a copy of all that
# is printed (OUTDIR/vs-kt-strategies.txt).  A side that fails prints
# "FAIL cache=NAME tool=..." and the script goes on; the exit status is then 1.
# Runs niced.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -lt 1 ]; then
	echo "usage: $0 CACHE..." >&2
	exit 2
fi
py=$("$root/scripts/pyenv.sh" "$root/build/pyenv") || exit 1
gsearch=${GSEARCH:-$root/build/gsearch}
repeats=${REPEATS:-25}
# brute_force excluded; skopt and pyatf_strategies need packages Kernel
# Tuner 1.5 does not install, nsga2/nsga3 are multi-objective
# (simulated_annealing, diff_evo, pso and basinhopping also run, at several
# times the cost: name them in KT_STRATEGIES)
kt_strategies=${KT_STRATEGIES:-random_sample dual_annealing greedy_ils genetic_algorithm bayes_opt mls greedy_mls ordered_greedy_mls firefly_algorithm minimize}
jobs=${JOBS:-1}
sides=${SIDES:-gsearch kt}
out=${OUTDIR:-$root/build/vs-kt-strategies}
mkdir -p "$out/work" || exit 1
log=$out/vs-kt-strategies.txt
: > "$log"
say() { echo "$*" | tee -a "$log"; }
helper() { nice "$py" "$here/kt_strategies.py" "$@"; }

# one cache, everything it prints on stdout; status 1 if a side failed
one_cache() {
	local cache=$1 name b size tl fe fk side t0 trace csvout budget s rc=0
	name=$(basename "$(dirname "$cache")")_$(basename "$cache" .json)
	name=${name// /_}
	if [ ! -f "$cache" ]; then
		echo "FAIL cache=$name: no such file $cache"
		return 1
	fi
	b=$(helper budget "$cache" --work "$out/work") || {
		echo "FAIL cache=$name: no budget"
		return 1
	}
	read -r size tl fe fk < <(echo "$b" | "$py" -c 'import json,sys; d=json.load(sys.stdin); print(d["size"], "%.3f" % d["budget"]["time_limit"], d["fevals_equivalent"], d["fevals_kt_clock"])')
	echo "BUDGET cache=$name size=$size time_limit_s=$tl fevals=$fk fevals_methodology=$fe"

	for side in $sides; do
		t0=$(date +%s)
		case $side in
		gsearch)
			trace=$out/work/$name-gsearch-trace.csv
			csvout=$out/work/$name-gsearch.csv
			budget=$fk
			[ "${GS_BUDGET:-fevals}" = time ] && budget=${tl}s
			rm -f "$trace"
			if ! nice "$gsearch" replay "$cache" --csv --repeats "$repeats" --budget "$budget" \
				--trace "$trace" > "$csvout" 2> "$out/work/$name-gsearch.err"; then
				echo "FAIL cache=$name tool=gsearch: $gsearch replay: $(tail -n1 "$out/work/$name-gsearch.err")"
				rc=1
				continue
			fi
			sed 's/^/REPLAY /' "$csvout"
			helper score "$cache" --work "$out/work" --trace "$trace" --tool gsearch --csv "$csvout" \
				--time cache 2>> "$out/work/$name-score.err" || { echo "FAIL cache=$name tool=gsearch: scoring"; rc=1; }
			;;
		kt)
			trace=$out/work/$name-kt-trace.csv
			rm -f "$trace"
			args=()
			for s in $kt_strategies; do args+=(--strategy "$s"); done
			dflt=()
			for s in ${KT_DEFAULT_FEVALS-bayes_opt}; do dflt+=(--default-fevals "$s"); done
			if ! helper kt "$cache" --work "$out/work" "${args[@]}" --repeats "$repeats" \
				--max-fevals "${KT_MAX_FEVALS:-size}" "${dflt[@]}" --trace "$trace" 2> "$out/work/$name-kt.err"; then
				echo "FAIL cache=$name tool=kt: $(tail -n1 "$out/work/$name-kt.err") (a KTFAIL line above: a strategy left out)"
				rc=1
			fi
			[ -s "$trace" ] || continue
			helper score "$cache" --work "$out/work" --trace "$trace" --tool kt --time trace \
				2>> "$out/work/$name-score.err" || { echo "FAIL cache=$name tool=kt: scoring"; rc=1; }
			;;
		*)
			echo "FAIL unknown side $side"
			rc=1
			;;
		esac
		echo "TIME cache=$name tool=$side s=$(($(date +%s) - t0))"
	done
	return $rc
}

say "# vs-kt-strategies.sh $* (REPEATS=$repeats JOBS=$jobs SIDES=\"$sides\" KT_STRATEGIES=\"$kt_strategies\" KT_MAX_FEVALS=${KT_MAX_FEVALS:-size} KT_DEFAULT_FEVALS=\"${KT_DEFAULT_FEVALS-bayes_opt}\"; $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
t0=$(date +%s)
status=0
if [ "$jobs" -le 1 ]; then
	for cache in "$@"; do
		one_cache "$cache" | tee -a "$log"
		[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
	done
else
	# JOBS caches at a time, each into its own file, printed in the order given
	i=0
	for cache in "$@"; do
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
		( one_cache "$cache" > "$out/work/part-$i.txt"; echo $? > "$out/work/part-$i.rc" ) &
		i=$((i + 1))
	done
	wait
	for ((j = 0; j < i; j++)); do
		tee -a "$log" < "$out/work/part-$j.txt"
		[ "$(cat "$out/work/part-$j.rc")" = 0 ] || status=1
	done
fi
say "TIME total s=$(($(date +%s) - t0))"
exit $status
