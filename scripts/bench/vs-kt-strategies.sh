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
#      BUDGET cache=NAME size=N time_limit_s=T fevals=F, F being the runner's
#      own conversion of T to evaluations (T / mean time per evaluation).
#   2. gsearch: `GSEARCH replay CACHE --csv --repeats R --budget B --trace T`,
#      every strategy, no prior; B is F (GS_BUDGET=time gives "Ts" instead).
#      Its CSV rows are printed as "REPLAY ..." lines, and its trace scored.
#   3. Kernel Tuner: each strategy of KT_STRATEGIES run R times in simulation
#      mode with strategy_options={"time_limit": T}, as the methodology's
#      runner drives it (scripts/bench/kt_strategies.py kt), and scored.
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
kt_strategies=${KT_STRATEGIES:-random_sample dual_annealing greedy_ils genetic_algorithm bayes_opt simulated_annealing mls greedy_mls ordered_greedy_mls diff_evo pso firefly_algorithm basinhopping minimize}
sides=${SIDES:-gsearch kt}
out=${OUTDIR:-$root/build/vs-kt-strategies}
mkdir -p "$out/work" || exit 1
log=$out/vs-kt-strategies.txt
: > "$log"
say() { echo "$*" | tee -a "$log"; }
helper() { nice "$py" "$here/kt_strategies.py" "$@"; }

say "# vs-kt-strategies.sh $* (REPEATS=$repeats, $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
status=0
for cache in "$@"; do
	if [ ! -f "$cache" ]; then
		say "FAIL cache=$cache: no such file"
		status=1
		continue
	fi
	name=$(basename "$(dirname "$cache")")_$(basename "$cache" .json)
	name=${name// /_}
	b=$(helper budget "$cache" --work "$out/work") || {
		say "FAIL cache=$name: no budget"
		status=1
		continue
	}
	read -r size tl fe < <(echo "$b" | "$py" -c 'import json,sys; d=json.load(sys.stdin); print(d["size"], "%.3f" % d["budget"]["time_limit"], d["fevals_equivalent"])')
	say "BUDGET cache=$name size=$size time_limit_s=$tl fevals=$fe"

	for side in $sides; do
		t0=$(date +%s)
		case $side in
		gsearch)
			trace=$out/work/$name-gsearch-trace.csv
			csvout=$out/work/$name-gsearch.csv
			budget=$fe
			[ "${GS_BUDGET:-fevals}" = time ] && budget=${tl}s
			rm -f "$trace"
			if ! nice "$gsearch" replay "$cache" --csv --repeats "$repeats" --budget "$budget" \
				--trace "$trace" > "$csvout" 2> "$out/work/$name-gsearch.err"; then
				say "FAIL cache=$name tool=gsearch: $gsearch replay: $(tail -n1 "$out/work/$name-gsearch.err")"
				status=1
				continue
			fi
			sed 's/^/REPLAY /' "$csvout" | tee -a "$log"
			helper score "$cache" --work "$out/work" --trace "$trace" --tool gsearch --csv "$csvout" \
				--time cache 2>> "$out/work/$name-score.err" | tee -a "$log"
			[ "${PIPESTATUS[0]}" -eq 0 ] || { say "FAIL cache=$name tool=gsearch: scoring"; status=1; }
			;;
		kt)
			trace=$out/work/$name-kt-trace.csv
			rm -f "$trace"
			args=()
			for s in $kt_strategies; do args+=(--strategy "$s"); done
			helper kt "$cache" --work "$out/work" "${args[@]}" --repeats "$repeats" --trace "$trace" \
				2> "$out/work/$name-kt.err" | tee -a "$log"
			if [ "${PIPESTATUS[0]}" -ne 0 ]; then
				say "FAIL cache=$name tool=kt: $(tail -n1 "$out/work/$name-kt.err")"
				status=1
			fi
			[ -s "$trace" ] || continue
			helper score "$cache" --work "$out/work" --trace "$trace" --tool kt --time trace \
				2>> "$out/work/$name-score.err" | tee -a "$log"
			[ "${PIPESTATUS[0]}" -eq 0 ] || { say "FAIL cache=$name tool=kt: scoring"; status=1; }
			;;
		*)
			say "FAIL unknown side $side"
			status=1
			;;
		esac
		say "TIME cache=$name tool=$side s=$(($(date +%s) - t0))"
	done
done
exit $status
