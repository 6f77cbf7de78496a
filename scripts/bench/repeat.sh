#!/usr/bin/env bash
# repeat.sh — how repeatable a sweep is, and whether Nsight Compute agrees
# with gsearch's time for the optimum.  On a GPU host:
#
#   scripts/bench/repeat.sh GSEARCH SPACE OUTDIR [RUN OPTION]...
#
# RUN OPTIONs go to every `gsearch run` (--set N=1024, say).
#
#   1. Two sweeps of SPACE back to back, each into a fresh store, with
#      gsearch's defaults otherwise.
#      -> REPEAT space=NAME spearman=S opt1=P@Tms opt2=P@Tms same_optimum=yes|no within=X%
#      Spearman is over the configurations ok in both; within is how much
#      slower, at most, one sweep measured the other sweep's optimum than its
#      own optimum (0% when they agree).
#   2. The first sweep's optimum alone, under Nsight Compute: storecmp.py pin
#      writes a copy of SPACE with one configuration (a `require` for it), and
#      a third gsearch run measures it into a fresh store inside
#        ncu --clock-control none --cache-control none --target-processes all
#            --metrics gpu__time_duration.sum -k regex:^(LAUNCHED)$ -c $NCU_LAUNCHES
#      where LAUNCHED are the kernels of SPACE's `launch` statements (the
#      reference is not profiled).  --clock-control none leaves the clocks as
#      gsearch's own sweeps had them: ncu's default (base) locks them to the
#      base clock, and its times would not be comparable.  --cache-control
#      none likewise leaves the L2 as gsearch's timed runs find it (warm, the
#      previous run's data): ncu's default flushes it before every profiled
#      launch, which slows a kernel whose data fit the L2 (matmul at
#      N=1024: 12 MB against 50 MB) by a few percent; gsearch's --flush-l2
#      is the match for that default.  ncu serializes and
#      profiles the first NCU_LAUNCHES (default 40) launches: the validation
#      run, warm-up and timed runs; the rest run unprofiled.
#      -> NCU space=NAME gsearch_ms=X ncu_ms=Y diff=Z%
#      with X the first sweep's time for the optimum and Y the median of the
#      profiled durations.  Meaningful for spaces with one launch per
#      configuration (every bundled space but mri-fhd).
#
# Output also in OUTDIR/repeat-NAME.txt; stores and logs in OUTDIR/work.
# NCU names the Nsight Compute binary (default: ncu).
set -uo pipefail

if [ $# -lt 3 ]; then
	echo "usage: $0 GSEARCH SPACE OUTDIR [RUN OPTION]..." >&2
	exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
gsearch=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
space=$2
out=$3
shift 3
opts=("$@")
ncu=${NCU:-ncu}
launches=${NCU_LAUNCHES:-40}
name=$(basename "$space" .space)

mkdir -p "$out/work" || exit 1
out=$(cd "$out" && pwd)
work=$out/work/repeat-$name
rm -rf "$work"
mkdir -p "$work"
exec > >(tee "$out/repeat-$name.txt") 2>&1

echo "repeat: $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(hostname); $space ${opts[*]}"
"$gsearch" --version || exit 1

status=0
for i in 1 2; do
	t0=$(date +%s)
	"$gsearch" run --quiet --db "$work/sweep$i.db" "${opts[@]}" "$space" >"$work/sweep$i.log" 2>&1 ||
		status=1
	echo "sweep $i ($(($(date +%s) - t0)) s):"
	cat "$work/sweep$i.log"
done
python3 "$here/storecmp.py" repeat --name "$name" "$work/sweep1.db" "$work/sweep2.db" || status=1

# the kernels one configuration launches, from the space's launch statements
kernels=$(sed -n 's/^launch[[:space:]]\{1,\}\([A-Za-z_][A-Za-z0-9_]*\)[[:space:]]*(.*/\1/p' "$space" |
	sort -u | paste -sd '|' -)
if [ "$(grep -c '^launch' "$space")" -ne 1 ] || grep -q '^launch.*[[:space:]]for[[:space:]]' "$space"; then
	echo "repeat: note: $space launches more than one kernel per configuration;" \
		"the NCU line compares one launch with the whole sequence"
fi
if [ -z "$kernels" ]; then
	echo "NCU space=$name gsearch_ms=nan ncu_ms=nan diff=nan% (no plain launch name in $space)"
	exit 1
fi
if ! command -v "$ncu" >/dev/null; then
	echo "NCU space=$name gsearch_ms=nan ncu_ms=nan diff=nan% (no $ncu)"
	exit 1
fi
python3 "$here/storecmp.py" pin "$space" "$work/sweep1.db" "$work/pinned.space" || exit 1
# --timeout: profiled launches are much slower than the space's own timeout allows for
"$ncu" --clock-control none --cache-control none --target-processes all --metrics gpu__time_duration.sum \
	--print-units base --csv --log-file "$work/ncu.csv" -k "regex:^($kernels)\$" -c "$launches" \
	"$gsearch" run --quiet --timeout 300 --db "$work/ncu.db" "${opts[@]}" "$work/pinned.space" \
	>"$work/ncu-run.log" 2>&1
rc=$?
echo "gsearch under ncu (exit $rc):"
cat "$work/ncu-run.log"
grep -v '^"' "$work/ncu.csv" | head -n 20
python3 "$here/storecmp.py" ncu --name "$name" --db "$work/sweep1.db" --csv "$work/ncu.csv" \
	--kernels "${kernels//|/,}" || status=1
exit $status
