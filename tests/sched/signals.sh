#!/usr/bin/env bash
# signals.sh — every signal that can end a supervisor, sent in the middle of
# a sweep on the emulated device (real workers and compile servers): INT,
# TERM and HUP stop it after the work in flight, KILL stops it at once.
# After each, no process of the sweep may be left (workers and compile
# servers die with their parent), and running the same command again must
# finish the sweep with one result per configuration.
set -u
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
space=tests/spaces/matmul-small.space
opts=(--quiet --device emu --jobs 2 --set N=320)
for sig in INT TERM HUP KILL; do
	db=$d/$sig.db
	# the marker in the environment finds the sweep's processes afterwards
	GS_SIGNALS_TEST=$d/$sig gsearch run "${opts[@]}" --db "$db" "$space" >/dev/null 2>"$d/$sig.err" &
	pid=$!
	for _ in $(seq 600); do # until two results are stored, 60 s at most
		n=$(sqlite3 "$db" "SELECT count(*) FROM result" 2>/dev/null)
		[ "${n:-0}" -ge 2 ] && break
		sleep 0.1
	done
	kill -"$sig" "$pid"
	wait "$pid" 2>/dev/null
	rc=$?
	sleep 1
	left=$(grep -ls "GS_SIGNALS_TEST=$d/$sig" /proc/[0-9]*/environ 2>/dev/null | wc -l)
	echo "$sig: exit $rc; processes of the sweep left: $left; stop notices: $(grep -c 'finishing' "$d/$sig.err")"
	gsearch run "${opts[@]}" --db "$db" "$space" | grep "^outcomes"
	sqlite3 "$db" "SELECT count(*), count(DISTINCT idx) FROM result; SELECT status FROM sweep"
done
