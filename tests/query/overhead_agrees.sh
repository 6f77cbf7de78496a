#!/usr/bin/env bash
# overhead_agrees.sh — `run` and `query summary` give one sweep one overhead
# factor: run's end line, summary's text and its JSON, to two decimals.
#
#   tests/query/overhead_agrees.sh LABEL gsearch run ARGS...
#
# The run's store is a temporary file (--db is added).  Prints one line
# saying whether they agree and where the device's share of the bound came
# from (the results' kernel work, or the time the device was busy).
set -uo pipefail
label=$1
shift
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
if ! "$@" --db "$d/s.db" >"$d/run" 2>"$d/err"; then
	echo "$label: the run failed"
	cat "$d/err"
	exit 1
fi
run=$(sed -n 's/^wall .*, overhead factor \([0-9.]*\)$/\1/p' "$d/run")
text=$(gsearch query "$d/s.db" summary | tr '\n' ' ' | sed -n 's/.*overhead factor \([0-9.]*\).*/\1/p')
json=$(gsearch query "$d/s.db" summary --json | python3 -c '
import json, sys
s = json.load(sys.stdin)["sweeps"][0]
print("%.2f" % s["overhead"], "kernel work" if s["work_s"] else "device busy")')
from=${json#* }
json=${json%% *}
if [ -n "$run" ] && [ "$run" = "$text" ] && [ "$run" = "$json" ]; then
	echo "$label: run and summary agree (the device's share from $from)"
else
	echo "$label: run says '$run', summary '$text', its JSON '$json'"
fi
