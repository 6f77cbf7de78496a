#!/usr/bin/env bash
# layers.sh — the directories of driver/ include only downwards.
#
# Every `#include "..."` under driver/ is mapped to the directory of the
# header it names (a name without a slash is looked up beside the including
# file first, as the compiler does, then in driver/).  An include passes when
# that directory is the includer's own or a lower layer of LAYERS below; it
# fails, naming file and line, when it points to a higher layer, to a peer
# (a layer on the same line), to a directory LAYERS does not know, or into a
# PRIVATE directory from outside its parent.  A file passes when all of its
# includes do.  Files at the top of driver/ (main.c) are the layer `main`.
#
#   tests/layers.sh            check, print the failures and "layers: N passed, N failed"
#   GS_RESULT=FILE ...         also write "<passed> <failed>" to FILE for `make test`
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2

# The layers of driver/, lowest first: the one place this order is written.
# A layer may include its own directory and the lines above it.  Names on one
# line are peers, which include neither each other nor anything of the other.
LAYERS='
util
core
lang
space
gen
dev
store
interop
search
sched query
cmd
main
'
# Directories that belong to their parent's layer but that only the parent
# (and they themselves) may include: the emulated device is reached through
# dev/dev.h.
PRIVATE='dev/emu'

files=$(find driver -name '*.[ch]' | LC_ALL=C sort)
[ -n "$files" ] || { echo "layers: no files under driver/"; exit 2; }

# One line per include: file, line number, included name.
# shellcheck disable=SC2086
grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' $files /dev/null |
	sed -E 's/^([^:]+):([0-9]+):[^"]*"([^"]*)".*/\1 \2 \3/' |
	awk -v layers="$LAYERS" -v private="$PRIVATE" -v files="$files" -v result="${GS_RESULT:-}" '
	BEGIN {
		nl = split(layers, lines, "\n")
		r = 0
		for (i = 1; i <= nl; i++) {
			if (lines[i] ~ /^[[:space:]]*$/)
				continue
			r++
			nn = split(lines[i], names, " ")
			for (j = 1; j <= nn; j++)
				rank[names[j]] = r
		}
		np = split(private, priv, " ")
		nf = split(files, all, "\n")
		for (i = 1; i <= nf; i++) {
			exists[all[i]] = 1
			bad[all[i]] = 0
		}
	}
	# The directory of a path under driver/, e.g. "dev/emu/ptx" or "." at the top.
	function dirof(p) {
		sub(/^driver\//, "", p)
		if (p !~ /\//)
			return "."
		sub(/\/[^\/]*$/, "", p)
		return p
	}
	# The layer of a directory: its first component, `main` at the top.
	function layerof(d) {
		if (d == ".")
			return "main"
		sub(/\/.*/, "", d)
		return d
	}
	# The private directory d lies in, or "".
	function privof(d,   k) {
		for (k = 1; k <= np; k++)
			if (d == priv[k] || index(d, priv[k] "/") == 1)
				return priv[k]
		return ""
	}
	function fail(file, line, msg) {
		printf "%s:%s: %s\n", file, line, msg
		bad[file] = 1
	}
	{
		file = $1; line = $2; name = $3
		fdir = dirof(file)
		if (name !~ /\// && (fdir == "." ? "driver/" : "driver/" fdir "/") name in exists)
			target = (fdir == "." ? "" : fdir "/") name
		else
			target = name
		tdir = dirof("driver/" target)
		from = layerof(fdir); to = layerof(tdir)
		if (!(from in rank)) {
			fail(file, line, "directory " fdir "/ is in no layer of tests/layers.sh")
			next
		}
		if (!(to in rank)) {
			fail(file, line, "includes \"" name "\" from " tdir "/, which is in no layer of tests/layers.sh")
			next
		}
		p = privof(tdir)
		if (p != "" && index(fdir "/", layerof(p) "/") != 1) {
			fail(file, line, "includes \"" name "\": " p "/ is private to " layerof(p) "/")
			next
		}
		if (from == to)
			next
		if (rank[to] > rank[from])
			fail(file, line, "includes \"" name "\": " to " is above " from)
		else if (rank[to] == rank[from])
			fail(file, line, "includes \"" name "\": " to " and " from " are peers")
	}
	END {
		passed = 0; failed = 0
		for (f in bad)
			if (bad[f]) failed++; else passed++
		printf "layers: %d passed, %d failed\n", passed, failed
		if (result != "")
			printf "%d %d\n", passed, failed > result
		exit failed > 0
	}'
