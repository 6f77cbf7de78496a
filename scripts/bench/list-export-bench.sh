#!/usr/bin/env bash
# list-export-bench.sh — how long `gsearch list` and `query export --csv` take
# on a million lines, against another gsearch binary.
#
#   scripts/bench/list-export-bench.sh OLD_GSEARCH [NEW_GSEARCH]
#
# NEW_GSEARCH defaults to build/gsearch.  `list` (plain and --csv) runs on a
# space of 1,024,000 configurations with integer, float and string
# parameters (one float needs all 17 digits); `export --csv` on a store of
# about 1,000,000 results made once by tests/query/gen_store.py into DB
# (default build/bench/list-export-1000000.db).  OLD_GSEARCH makes it, so
# that its schema is one both binaries read (a newer gsearch reads the
# stores of an older one, not the other way round).  Each
# command runs RUNS times (default 3) per binary, output to /dev/null; the
# table gives the median wall time of each and old/new.  Exit status 1 if a
# run fails or the two binaries' outputs differ.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
old=${1:?usage: list-export-bench.sh OLD_GSEARCH [NEW_GSEARCH]}
new=${2:-$root/build/gsearch}
n=1000000
db=${DB:-$root/build/bench/list-export-$n.db}
runs=${RUNS:-3}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp "$root/kernels/matvec.cu" "$tmp/"
cat >"$tmp/big.space" <<'SPACE'
kernel matvec from "matvec.cu"
problem N = 2048
param BS in range(32, 1056, 8)
param TW in range(1, 101)
param F in [0.5, 0.1, 1.7, 3.3333333333333335]
param L in ["row", "col,tile"]
param U in range(10)
block BS
grid N // BS
launch matvec(N)
SPACE

if [ ! -f "$db" ]; then
	mkdir -p "$(dirname "$db")"
	echo "list-export-bench: making $db ($n results)"
	rm -f "$db.tmp"
	GSEARCH=$old python3 "$root/tests/query/gen_store.py" --size "$n" "$db.tmp" >/dev/null
	mv "$db.tmp" "$db"
fi

# median wall seconds of RUNS runs of "$@"
median() {
	local t=()
	for _ in $(seq "$runs"); do
		local s e
		s=$(date +%s.%N)
		"$@" >/dev/null
		e=$(date +%s.%N)
		t+=("$(echo "$e - $s" | bc)")
	done
	printf '%s\n' "${t[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p"
}

echo "list-export-bench: old $old, new $new, $runs runs each, median wall seconds"
echo "host: $(nproc) cores, $(uname -r)"
printf '%-26s %10s %10s %8s\n' command old new old/new
status=0
bench() {
	local name=$1
	shift
	if ! cmp -s <("$old" "$@") <("$new" "$@"); then
		echo "list-export-bench: $name: outputs differ" >&2
		status=1
	fi
	local a b
	a=$(median "$old" "$@")
	b=$(median "$new" "$@")
	printf '%-26s %10.2f %10.2f %7.1fx\n' "$name" "$a" "$b" "$(echo "$a / $b" | bc -l)"
}
bench "list" list "$tmp/big.space"
bench "list --csv" list --csv "$tmp/big.space"
bench "query export --csv" query "$db" export --csv
exit $status
