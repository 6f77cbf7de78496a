#!/usr/bin/env bash
# benchmark-hub.sh — put benchmark_hub's published Kernel Tuner caches
# (AutoTuningAssociation/benchmark_hub: exhaustive sweeps of GEMM,
# convolution, pnpoly, hotspot and dedispersion on NVIDIA and AMD GPUs) in
# DIR, for `gsearch replay`, `--prior sweep:` and scripts/bench/vs-kt-strategies.sh.
#
#   scripts/bench/benchmark-hub.sh DIR
#
# Where the files come from, first that works:
#   1. BENCHMARK_HUB=PATH: a clone of the repository (a work tree or a bare git
#      directory) already on this machine;
#   2. git clone --depth 1 https://github.com/AutoTuningAssociation/benchmark_hub
#      (needs GitHub; the repository is ~90 MB).
# On a machine that reaches only PyPI and Debian there is no third way: no
# package on PyPI ships these caches (autotuning-methodology 1.1.0, which
# scripts/pyenv.sh installs, has none, only their schemas), so clone the
# repository elsewhere and copy it over, then set BENCHMARK_HUB.
# The files are the project's data, under its licence: never commit them.
#
# What DIR gets:
#   DIR/<path in the repository>   every cache file of the repository's HEAD,
#                                  .json.gz decompressed beside itself;
#   DIR/kt/KERNEL/GPU.json         links to the caches in Kernel Tuner's own
#                                  format (not the _T4 conversions), one
#                                  folder per kernel: gemm, convolution,
#                                  pnpoly (RTX 2080 Ti, RTX 3060 laptop,
#                                  RTX 3090, TITAN RTX), convolution_milo,
#                                  dedispersion_milo, gemm_milo, hotspot_milo
#                                  (A100, A4000, A6000, MI250X, W6600, W7800, ...),
#                                  and convolution_milo_old (an older, smaller
#                                  space: A4000, MI50);
#   DIR/INDEX                      one line per linked cache: path, kernel,
#                                  device, configurations.
# A file the source lacks (a partial mirror can miss its largest blobs) is
# named on stderr and skipped; the exit status is 0 if at least one cache was
# placed.
set -uo pipefail

if [ $# -ne 1 ]; then
	echo "usage: $0 DIR" >&2
	exit 2
fi
dir=$1
url=https://github.com/AutoTuningAssociation/benchmark_hub
mkdir -p "$dir" || exit 1
dir=$(cd "$dir" && pwd)

src=${BENCHMARK_HUB:-}
tmp=
if [ -z "$src" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	echo "benchmark-hub: cloning $url" >&2
	if ! GIT_TERMINAL_PROMPT=0 timeout 600 git clone -q --depth 1 "$url" "$tmp/hub" >&2; then
		echo "benchmark-hub: error: cannot clone $url (no route to GitHub from here?)." >&2
		echo "  Clone it on a machine that reaches GitHub, copy it here and rerun with BENCHMARK_HUB=PATH." >&2
		exit 1
	fi
	src=$tmp/hub
fi
gitdir=$(git -C "$src" rev-parse --absolute-git-dir 2>/dev/null) || {
	echo "benchmark-hub: error: $src is not a git repository" >&2
	exit 1
}
g() { git --git-dir="$gitdir" "$@"; }
rev=$(g rev-parse HEAD) || exit 1
echo "benchmark-hub: $src at $rev" >&2

placed=0 missing=0
while IFS=$'\t' read -r meta path; do
	case $path in
	*cachefiles/*.json | *cachefiles/*.json.gz) ;;
	*) continue ;;
	esac
	blob=${meta##* }
	if ! g cat-file -e "$blob" 2>/dev/null; then
		echo "benchmark-hub: missing from the source: $path" >&2
		missing=$((missing + 1))
		continue
	fi
	out=$dir/$path
	mkdir -p "$(dirname "$out")"
	g cat-file blob "$blob" > "$out.part" && mv "$out.part" "$out" || exit 1
	case $out in *.gz) gunzip -kf "$out" || exit 1 ;; esac
	placed=$((placed + 1))
done < <(g ls-tree -r HEAD)

# Kernel Tuner's own caches, linked by kernel and device: a cache holds
# "kernel_name", "device_name", "tune_params" and "cache"; a T4 file holds
# "results" instead.
rm -rf "$dir/kt"
: > "$dir/INDEX"
python3 - "$dir" <<'EOF' || exit 1
import json, os, sys
root = sys.argv[1]
rows = []
found = []
for base, _, files in os.walk(root):
	if os.path.relpath(base, root).split(os.sep)[0] == "kt":
		continue
	found += [os.path.join(base, f) for f in files if f.endswith(".json") and not f.endswith("_T4.json")]
# the repository has older copies of some caches beside "KernelTuner data": that folder wins
found.sort(key=lambda p: (0 if "KernelTuner data" in p or p.startswith(os.path.join(root, "cachefiles")) else 1, p))
for p in found:
	base = os.path.dirname(p)
	try:
		with open(p) as fh:
			d = json.load(fh)
	except (ValueError, OSError):
		continue
	if not isinstance(d, dict) or "cache" not in d or "tune_params" not in d:
		continue
	# KTT's converted outputs and hyperparameter-tuning caches are not kernels' sweeps
	if "KTT" in base or "hyperparam" in base:
		continue
	kernel = os.path.basename(base)
	# an unused older space of a kernel the repository now sweeps differently
	if "currently_unused" in base and os.path.isdir(os.path.join(root, "cachefiles", kernel)):
		kernel += "_old"
	link = os.path.join(root, "kt", kernel, os.path.basename(p))
	if os.path.lexists(link):
		continue
	os.makedirs(os.path.dirname(link), exist_ok=True)
	os.symlink(os.path.relpath(p, os.path.dirname(link)), link)
	rows.append(f"{os.path.relpath(link, root)}\t{d.get('kernel_name')}\t{d.get('device_name')}\t{len(d['cache'])}")
with open(os.path.join(root, "INDEX"), "w") as fh:
	fh.write("\n".join(sorted(rows)) + "\n")
print(f"benchmark-hub: {len(rows)} Kernel Tuner caches linked under {root}/kt (list: {root}/INDEX)", file=sys.stderr)
EOF
echo "benchmark-hub: $placed files placed, $missing missing from the source" >&2
[ "$placed" -gt 0 ]
