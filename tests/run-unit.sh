#!/usr/bin/env bash
# run-unit.sh — run the unit test executables (Check) and add up their results.
#
#   tests/run-unit.sh build/unit/test_util build/unit/test_lex ...
#
# Each executable prints Check's report and a last line "<name>: N passed,
# M failed" (tests/unit/harness.h).  An executable that dies without that
# line, exits non-zero with no failed test (a leak report at exit, say), or
# whose output carries a sanitizer report counts one extra failure.  A test
# that printed "<name>: skipped: ..." (gs_test_skip) passed in Check's count
# but ran nothing: it counts as skipped, and with GS_NO_SKIP=1 (the Makefile
# sets it on a host that has NVRTC, which every skip today waits for) as
# failed too.  Runs from the repository root with a fresh TMPDIR.  Prints
# "unit: N passed, N failed[, N skipped]"; with GS_RESULT set, writes
# "<passed> <failed> <skipped>" there for `make test`.
set -uo pipefail

cd "$(dirname "$0")/.." || exit 2
export CK_FORK=${CK_FORK:-yes}
export CK_DEFAULT_TIMEOUT=${CK_DEFAULT_TIMEOUT:-30}
# Both limits times the slow-machine factor (tests/slow-factor.sh): they
# catch a hang, not a loaded machine.
slow=$(tests/slow-factor.sh) || exit 2
export CK_TIMEOUT_MULTIPLIER=$((${CK_TIMEOUT_MULTIPLIER:-1} * slow))
# A whole executable may not run longer than this (Check times single tests).
limit=$((${GS_UNIT_LIMIT:-900} * slow))

passed=0
failed=0
skipped=0
if [ $# -eq 0 ]; then
	echo "unit: no unit tests (tests/unit/test_*.c)"
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for bin in "$@"; do
	name=$(basename "$bin")
	out="$tmp/$name.out"
	mkdir -p "$tmp/$name.tmp"
	TMPDIR="$tmp/$name.tmp" timeout "$limit" "$bin" >"$out" 2>&1
	status=$?
	cat "$out"
	line=$(grep -E "^$name: [0-9]+ passed, [0-9]+ failed\$" "$out" | tail -n 1)
	if [ -z "$line" ]; then
		echo "$name: FAIL: no summary line (exit status $status)"
		failed=$((failed + 1))
		continue
	fi
	p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')
	s=$(grep -cE "^$name: skipped: " "$out")
	[ "$s" -gt "$p" ] && s=$p
	passed=$((passed + p - s))
	failed=$((failed + f))
	skipped=$((skipped + s))
	if [ "$s" -gt 0 ] && [ "${GS_NO_SKIP:-0}" = 1 ]; then
		echo "$name: FAIL: $s test(s) skipped on a host where they must run (GS_NO_SKIP=1)"
		failed=$((failed + s))
	fi
	if [ "$f" -eq 0 ] && [ "$status" -ne 0 ]; then
		echo "$name: FAIL: exit status $status although every test passed"
		failed=$((failed + 1))
	elif [ "$f" -eq 0 ] && grep -qE 'Sanitizer|runtime error:' "$out"; then
		echo "$name: FAIL: sanitizer report"
		failed=$((failed + 1))
	fi
done

extra=
[ "$skipped" -gt 0 ] && extra=", $skipped skipped"
echo "unit: $passed passed, $failed failed$extra"
[ -n "${GS_RESULT:-}" ] && echo "$passed $failed $skipped" >"$GS_RESULT"
[ "$failed" -eq 0 ]
