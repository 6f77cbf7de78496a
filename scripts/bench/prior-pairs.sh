#!/usr/bin/env bash
# prior-pairs.sh — what a prior from another GPU is worth, on every pair of
# published exhaustive Kernel Tuner caches: same vendor (every ordered pair
# of the four RTX GPUs, for GEMM, convolution and pnpoly) and across vendors
# (each of the AMD GPUs MI250X, W7800, W6600 as the prior of each of the
# NVIDIA A100, A4000, A6000 and the other way round, for convolution_milo
# and dedispersion_milo).  No GPU: `gsearch replay`.
#
#   scripts/bench/prior-pairs.sh KTDIR
#
# KTDIR holds KERNEL/GPU.json (scripts/bench/benchmark-hub.sh DIR makes
# DIR/kt).  Per target cache, the strategies without a prior (NOPRIOR,
# default "ils anneal random") are replayed once and the fewest median
# evaluations to reach 98% of the optimum among them is the baseline M; per
# pair and prior strategy S (STRATEGIES, default "pils"), S is replayed with
# the other cache as `--prior kt:FILE` and its median evaluations N printed:
#
#   PRIOR kernel=K target=T prior=P strategy=S f98=N noprior_best_f98=M ratio=N/M
#
# (after a line per target, NOPRIOR kernel=K target=T ils=N anneal=N ...,
# the f98 of each strategy without a prior)
# then per strategy a summary: the median ratio over same-vendor pairs (goal:
# at most 0.2) and how many meet it; the largest and the median ratio over
# cross-vendor pairs (goal: at most 1.1) and how many meet it.  A target
# never reached within the budget prints "-" (and counts as failing).
#
# Environment: GSEARCH (default build/gsearch), REPEATS (default 25), BUDGET
# (replay's --budget, default 25%: enough for every strategy here to get
# within 2% in its median repeat), JOBS (replays at once, default the
# number of cores), KERNELS (default every one above).  Runs niced.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ $# -ne 1 ]; then
	echo "usage: $0 KTDIR" >&2
	exit 2
fi
kt=$1
gsearch=${GSEARCH:-$root/build/gsearch}
repeats=${REPEATS:-25}
budget=${BUDGET:-25%}
jobs=${JOBS:-$(nproc)}
strategies=${STRATEGIES:-pils}
noprior=${NOPRIOR:-ils anneal random}
kernels=${KERNELS:-gemm convolution pnpoly convolution_milo dedispersion_milo}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

same="RTX_2080_Ti RTX_3060_laptop RTX_3090 RTX_Titan"
nvidia="A100 A4000 A6000"
amd="MI250X W7800 W6600"

# the jobs: "ID KERNEL TARGET PRIOR|- STRATEGY..." one a line
: >"$tmp/jobs"
: >"$tmp/pairs"
for k in $kernels; do
	case $k in
	*_milo) gpus="$nvidia $amd" ;;
	*) gpus=$same ;;
	esac
	for t in $gpus; do
		[ -f "$kt/$k/$t.json" ] || { echo "missing $kt/$k/$t.json" >&2; exit 1; }
		echo "np.$k.$t $k $t - $noprior" >>"$tmp/jobs"
		case $k in
		*_milo) case " $nvidia " in *" $t "*) ps=$amd ;; *) ps=$nvidia ;; esac; kind=cross ;;
		*) ps=$same; kind=same ;;
		esac
		for p in $ps; do
			[ "$p" = "$t" ] && continue
			for s in $strategies; do
				echo "p.$k.$t.$p.$s $k $t $p $s" >>"$tmp/jobs"
				echo "$kind $k $t $p $s" >>"$tmp/pairs"
			done
		done
	done
done

run_job() {
	local id=$1 k=$2 t=$3 p=$4
	shift 4
	local args=()
	for s in "$@"; do args+=(--strategy "$s"); done
	[ "$p" != - ] && args+=(--prior "kt:$kt/$k/$p.json")
	nice "$gsearch" replay "$kt/$k/$t.json" "${args[@]}" --repeats "$repeats" --budget "$budget" \
		--csv >"$tmp/$id.csv" 2>"$tmp/$id.err" || echo "FAIL $id" >&2
}
export -f run_job
export kt gsearch repeats budget tmp
xargs -P "$jobs" -L 1 bash -c 'run_job "$@"' _ <"$tmp/jobs"

# f98 of strategy $2 in csv $1 ("-": never)
f98() {
	awk -F, -v s="$2" '$1 == s { print ($7 == "" ? "-" : $7) }' "$1"
}

echo "# gsearch replay --repeats $repeats --budget $budget; no-prior baseline: best f98 of: $noprior"
for f in "$tmp"/np.*.csv; do
	id=${f##*/np.}
	id=${id%.csv}
	line="NOPRIOR kernel=${id%%.*} target=${id#*.}"
	for n in $noprior; do
		line="$line $n=$(f98 "$f" "$n")"
	done
	echo "$line"
done
while read -r kind k t p s; do
	m=-
	for n in $noprior; do
		v=$(f98 "$tmp/np.$k.$t.csv" "$n")
		[ "$v" != - ] && { [ "$m" = - ] || [ "$v" -lt "$m" ]; } && m=$v
	done
	n=$(f98 "$tmp/p.$k.$t.$p.$s.csv" "$s")
	[ -z "$n" ] && n=-
	if [ "$n" != - ] && [ "$m" != - ]; then
		r=$(awk -v a="$n" -v b="$m" 'BEGIN { printf "%.3f", a / b }')
	else
		r=-
	fi
	echo "PRIOR kernel=$k target=$t prior=$p strategy=$s f98=$n noprior_best_f98=$m ratio=$r"
	echo "$kind $s $r" >>"$tmp/ratios"
done <"$tmp/pairs"

for s in $strategies; do
	awk -v s="$s" '
	function med(a, n,    i, j, x) {
		for (i = 2; i <= n; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
		return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
	}
	$2 == s {
		r = $3 == "-" ? 1e9 : $3
		if ($1 == "same") { sn++; sa[sn] = r; sok += r <= 0.2 }
		else { cn++; ca[cn] = r; cok += r <= 1.1; if (r > cmax) cmax = r }
	}
	END {
		if (sn) printf "SUMMARY strategy=%s same_vendor_pairs=%d median_ratio=%.3f pairs_within_0.2=%d\n", s, sn, med(sa, sn), sok
		if (cn) printf "SUMMARY strategy=%s cross_vendor_pairs=%d max_ratio=%.3f median_ratio=%.3f pairs_within_1.1=%d\n", s, cn, cmax, med(ca, cn), cok
	}' "$tmp/ratios"
done
grep -h . "$tmp"/*.err >&2 || true
