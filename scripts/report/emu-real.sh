#!/bin/sh
# emu-real.sh — sweep the bundled spaces on emu:sm_90 at their real size, as
# results/emu/<space>-emu-sm_90-real.db and -run.txt, with the CPU the run
# took (perf stat's task-clock: gsearch, its compile threads and its worker).
#
#   scripts/report/emu-real.sh [GSEARCH [SPACE ...]]     (every spaces/*.space by default)
#
# Needs perf and the sqlite3 shell.  Each store is made afresh.  Its compile
# cache loses PTX and cubins afterwards to keep the repository small;
# registers and results stay, and `gsearch compile` regenerates a variant.
# Then run make-report.sh.
set -eu
g=${1:-build/gsearch}
[ $# -gt 0 ] && shift
[ $# -gt 0 ] || set -- $(cd spaces && ls *.space | sed 's/\.space$//')
for s in "$@"; do
	db=results/emu/$s-emu-sm_90-real.db
	out=results/emu/$s-emu-sm_90-real-run.txt
	rm -f "$db" "$db-wal" "$db-shm"
	perf stat -x, -e task-clock -o "$out.perf" "$g" run --device emu:sm_90 --db "$db" \
		"spaces/$s.space" --quiet >"$out" 2>&1
	ms=$(awk -F, '/task-clock/ { print $1 }' "$out.perf")
	rm -f "$out.perf"
	echo "cpu $(awk -v ms="$ms" 'BEGIN { printf "%.1f", ms / 1000 }') s (perf stat task-clock: user + system of gsearch, its compile threads and its worker)" >>"$out"
	sqlite3 "$db" "UPDATE variant SET cubin = NULL, ptx = NULL; VACUUM;"
	tail -n 2 "$out"
done
