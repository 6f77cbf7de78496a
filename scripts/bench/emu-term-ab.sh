#!/bin/sh
# emu-term-ab.sh — what a change of the emulator's model moved, on every
# space with an H100 sweep: the bundled spaces and the held-out suites.
#
#   scripts/bench/emu-term-ab.sh OLD NEW DIR [NAME ...]
#
# OLD and NEW are two gsearch builds.  Per space, OLD sweeps it on emu:sm_90
# at the real size into DIR/NAME.db (a copy kept as DIR/NAME-old.db), then
# NEW sweeps the same store (a new sweep, its variants compiled once), and
# prints how far each configuration's modeled time moved (max, median, the
# count beyond 1%) and, for each build, Spearman, Kendall and top-5 regret
# against the H100 (scripts/report/model-vs-measured.py).  JOBS: the runs'
# --jobs (default 2).  Without NAMEs, every space that has an H100 store.
# A build reads the profiles beside it (BIN/../profiles): where NEW adds a
# profile key, OLD refuses NEW's profile, so run OLD from a copy of its own
# tree (or of BIN/ and profiles/ as they were at its commit).
set -u
old=${1:?usage: emu-term-ab.sh OLD NEW DIR [NAME ...]}
new=${2:?usage: emu-term-ab.sh OLD NEW DIR [NAME ...]}
dir=${3:?usage: emu-term-ab.sh OLD NEW DIR [NAME ...]}
shift 3
jobs=${JOBS:-2}
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
mkdir -p "$dir"
# NAME SPACE H100-STORE, one a line
spaces() {
	for f in "$root"/spaces/*.space; do
		n=$(basename "$f" .space)
		h=$root/results/h100/$n-h100.db
		[ "$n" = matmul ] && h=$root/results/matmul-h100.db
		[ -f "$h" ] && echo "$n $f $h"
	done
	for d in heldout heldout2 heldout3 heldout4; do
		for f in "$root"/scripts/bench/$d/*.space; do
			[ -f "$f" ] || continue
			n=$(basename "$f" .space)
			h=$root/results/$d/$n-h100.db
			[ -f "$h" ] && echo "$n $f $h"
		done
	done
}
echo "# emu-term-ab.sh: OLD $("$old" --version) NEW $("$new" --version), --jobs $jobs, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
spaces | while read -r n sp h100; do
	if [ $# -gt 0 ]; then
		case " $* " in *" $n "*) ;; *) continue ;; esac
	fi
	db=$dir/$n.db
	rm -f "$db" "$db-wal" "$db-shm" "$dir/$n-old.db"
	"$old" run --quiet --device emu:sm_90 --jobs "$jobs" --db "$db" "$sp" >"$dir/$n-old.txt" 2>&1
	cp "$db" "$dir/$n-old.db"
	"$new" run --quiet --device emu:sm_90 --jobs "$jobs" --db "$db" "$sp" >"$dir/$n-new.txt" 2>&1
	python3 - "$n" "$dir/$n-old.db" "$db" "$h100" "$root/scripts/report/model-vs-measured.py" <<'PY'
import importlib.util, statistics, subprocess, sys
name, old, new, h100, mvm = sys.argv[1:]
# the stores' newest sweeps, read as model-vs-measured.py reads them
spec = importlib.util.spec_from_file_location("mvm", mvm)
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)
def times(path):
    return m.times(path)[0]
a, b = times(old), times(new)
moved = sorted(abs(b[k] / a[k] - 1) for k in a if k in b and a[k] > 0)
if not moved:
    print(f"{name:15s} no configuration ok in both")
    sys.exit(0)
print(f"{name:15s} n={len(moved)} max={100 * moved[-1]:.2f}% median={100 * statistics.median(moved):.3f}% "
      f">1%: {sum(m > 0.01 for m in moved)}")
for label, db in (("old", old), ("new", new)):
    out = subprocess.run([sys.executable, mvm, db, h100], capture_output=True, text=True).stdout
    rho = tau = reg = "-"
    for line in out.splitlines():
        if line.startswith("spearman"):
            w = line.split()
            rho, tau = w[2].rstrip(","), w[5]
        if line.startswith("regret"):
            reg = line.split(":")[1].split()[0]
    print(f"   {label}: Spearman {rho} Kendall {tau} top-5 regret {reg}")
PY
done
