#!/usr/bin/env bash
# slow-factor.sh — prints the factor every time limit of the tests is
# multiplied by (tests/README.md, "Time limits"), a whole number >= 1.
#
# The limits catch a hang, not a slow machine: a case that takes 8 s alone
# may take ten times that on two cores shared with other work.  GS_TEST_SLOW,
# when set, is the factor; else 3, times the 1-minute load average per core
# (rounded up) when that is above 1, measured when the part starts, and
# at most 10: a hung case must still end within the hour.
set -u
f=${GS_TEST_SLOW:-}
if [ -n "$f" ]; then
	case $f in
	*[!0-9]* | 0*) echo "slow-factor: GS_TEST_SLOW must be a whole number >= 1, not '$f'" >&2; exit 2 ;;
	esac
	echo "$f"
	exit 0
fi
cores=$(nproc 2>/dev/null || echo 1)
awk -v cores="$cores" '{ n = int($1 / cores); if (n < $1 / cores) n++; if (n < 1) n = 1; f = 3 * n; if (f > 10) f = 10; print f; exit }' \
	/proc/loadavg 2>/dev/null || echo 3
