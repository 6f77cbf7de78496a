#!/usr/bin/env bash
# check-scale.sh — how `gsearch check` scales with the size of a space file.
#
#   scripts/bench/check-scale.sh [GSEARCH]     (default build/gsearch)
#
# Generates spaces with 10k, 40k and 100k lets (each reading the one before
# it, and a parameter) and with as many single-valued parameters, times
# `gsearch check` on each (best of 3), and prints seconds, microseconds per
# statement and the ratio of each time to the 10k time scaled linearly
# (1.0 = linear; a quadratic checker shows 4 and 10).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
gsearch=${1:-$root/build/gsearch}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root/tests/bad/kernel.cu" "$work/kernel.cu"

gen() { # kind n
	python3 - "$1" "$2" >"$work/$1-$2.space" <<'PY'
import sys
kind, n = sys.argv[1], int(sys.argv[2])
out = ['kernel scale from "kernel.cu"', 'problem N = 1024', 'param TILE in [8, 16, 32]']
if kind == 'lets':
    out.append('let L0 = TILE')
    out += ['let L%d = L%d + TILE' % (i, i - 1) for i in range(1, n)]
    out.append('require L%d > 0' % (n - 1))
else:
    out += ['param P%d in [%d]' % (i, i) for i in range(n)]
    out.append('require P%d > 0' % (n - 1))
out += ['block TILE', 'grid N // TILE', 'input A float[N] random(seed=1)',
        'output B float[N] tolerance 1e-6', 'launch scale(A, B, N)']
print('\n'.join(out))
PY
}

best() { # file: best wall time of 3 runs, in seconds
	local b=
	for _ in 1 2 3; do
		local s e
		s=$(date +%s.%N)
		"$gsearch" check "$1" >/dev/null
		e=$(date +%s.%N)
		b=$(echo "$s $e ${b:-inf}" | awk '{t = $2 - $1; print ($3 == "inf" || t < $3) ? t : $3}')
	done
	echo "$b"
}

echo "gsearch check, best of 3 ($("$gsearch" --version 2>/dev/null | head -1), $(uname -m), $(nproc) CPUs)"
printf '%-8s %8s %10s %12s %14s\n' kind n seconds "us/stmt" "vs linear"
for kind in lets params; do
	base=
	for n in 10000 40000 100000; do
		gen "$kind" "$n"
		t=$(best "$work/$kind-$n.space")
		[ -z "$base" ] && base=$t
		awk -v k="$kind" -v n="$n" -v t="$t" -v b="$base" 'BEGIN {
			printf "%-8s %8d %10.3f %12.2f %14.2f\n", k, n, t, t / n * 1e6, t / (b * n / 10000)
		}'
	done
done
