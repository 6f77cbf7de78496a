#!/usr/bin/env bash
# run.sh — golden tests of the gsearch command line.
#
#   tests/cli/run.sh [--cases DIR] [--in-case-dir] [--name PART] [CASE...]
#
# A case is a directory DIR/<name>/ (default tests/cli/cases) holding
#   cmd      one shell command line; `gsearch` on PATH is the binary under test
#   stdout, stderr, status   the expected output and exit status
#   setup    optional; run first with bash, inside a fresh directory exported
#            as $TMP (the case directory is $CASE, the repository root $ROOT);
#            exit status 77 skips the case, its last line of output saying why
#            (a case that needs PyPI under GS_OFFLINE=1, see scripts/pyenv.sh)
# The command runs from the repository root (with --in-case-dir: from the case
# directory, as the bad-input table does), stdin from /dev/null, under
# `timeout` of ${GS_CASE_TIMEOUT:-60} seconds times the slow-machine factor
# (tests/slow-factor.sh: GS_TEST_SLOW, else from the load).  Before comparing, stdout and stderr are
# normalised: a number followed by " ms", " s", " us" or " µs" becomes
# "<time>", and the $TMP directory becomes the text "$TMP".
#
# A case fails when any of the three differs (a unified diff is printed), and
# whatever it expects when the command was killed by a signal or timed out
# (exit status >= 124) or a sanitizer reported anything.  A case with no
# expected files yet (e.g. only stdout.todo) is "pending": run and checked for
# crashes, but neither passed nor failed.
#
# GOLDEN_UPDATE=1 writes the normalised output as the new expected files
# (removing *.todo placeholders) instead of comparing; a crashing case is never
# written.  GSEARCH names the binary (default build/gsearch); GS_RESULT, when
# set, receives "<passed> <failed> <skipped>" for `make test`.  Optional CASE names
# restrict the run to those cases.
set -uo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
in_case_dir=0
part=cli
cases_dir=$root/tests/cli/cases
while [ $# -gt 0 ]; do
	case $1 in
	--in-case-dir) in_case_dir=1; shift ;;
	--name) part=$2; shift 2 ;;
	--cases) cases_dir=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "usage: $0 [--cases DIR] [--in-case-dir] [--name PART] [CASE...]" >&2; exit 2 ;;
	*) break ;;
	esac
done
cases_dir=$(cd "$cases_dir" 2>/dev/null && pwd) || cases_dir=

gsearch=${GSEARCH:-$root/build/gsearch}
case $gsearch in /*) ;; *) gsearch=$root/$gsearch ;; esac
slow=$("$root/tests/slow-factor.sh") || exit 2
timeout_s=$((${GS_CASE_TIMEOUT:-60} * slow))
update=${GOLDEN_UPDATE:-0}
[ "$update" = 0 ] && update=

passed=0
failed=0
skipped=0
pending=0
updated=0

finish() {
	local extra=
	[ "$skipped" -gt 0 ] && extra+=", $skipped skipped"
	[ "$pending" -gt 0 ] && extra+=", $pending pending"
	[ "$updated" -gt 0 ] && extra+=", $updated updated"
	echo "$part: $passed passed, $failed failed$extra"
	[ -n "${GS_RESULT:-}" ] && echo "$passed $failed $skipped" >"$GS_RESULT"
	[ "$failed" -eq 0 ]
	exit
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# `gsearch` on PATH: a directory holding only a link to the binary under test.
mkdir -p "$work/bin"
ln -s "$gsearch" "$work/bin/gsearch"
export PATH="$work/bin:$PATH"
export ROOT=$root

if [ ! -x "$gsearch" ]; then
	echo "$part: FAIL: no executable $gsearch"
	failed=1
	finish
fi
if [ -z "$cases_dir" ]; then
	echo "$part: no cases"
	finish
fi

echo "$part: each case may take $timeout_s s (${GS_CASE_TIMEOUT:-60} s times the slow-machine factor $slow)"

if [ $# -gt 0 ]; then
	names=("$@")
else
	names=()
	for d in "$cases_dir"/*/; do
		[ -f "$d/cmd" ] && names+=("$(basename "$d")")
	done
fi
if [ ${#names[@]} -eq 0 ]; then
	echo "$part: no cases in ${cases_dir#"$root"/}"
	finish
fi

# normalise FILE TMPDIR: durations and the temporary directory.
normalise() {
	local t
	t=$(printf '%s' "$2" | sed 's/[][\\.|$*+?(){}^]/\\&/g')
	sed -E -e "s|$t|\$TMP|g" \
		-e 's/[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)? (ms|s|us|µs)\b/<time>/g' "$1"
}

for name in "${names[@]}"; do
	c=$cases_dir/$name
	if [ ! -f "$c/cmd" ]; then
		echo "FAIL    $name: no such case (missing $c/cmd)"
		failed=$((failed + 1))
		continue
	fi
	out=$work/out/$name
	mkdir -p "$out"
	tmp=$(mktemp -d)
	export TMP=$tmp CASE=$c

	if [ -f "$c/setup" ]; then
		(cd "$tmp" && bash "$c/setup") >"$out/setup.log" 2>&1
		st=$?
		if [ "$st" -eq 77 ]; then
			echo "SKIPPED $name: $(tail -n 1 "$out/setup.log")"
			skipped=$((skipped + 1))
			rm -rf "$tmp"
			continue
		fi
		if [ "$st" -ne 0 ]; then
			echo "FAIL    $name: setup failed"
			sed 's/^/    /' "$out/setup.log"
			failed=$((failed + 1))
			rm -rf "$tmp"
			continue
		fi
	fi

	if [ "$in_case_dir" = 1 ]; then dir=$c; else dir=$root; fi
	# The group's 2>/dev/null silences bash's own "Segmentation fault" report.
	{ (cd "$dir" && exec timeout -k 5 "$timeout_s" bash -c "$(cat "$c/cmd")") \
		</dev/null >"$out/stdout.raw" 2>"$out/stderr.raw"; } 2>/dev/null
	status=$?
	normalise "$out/stdout.raw" "$tmp" >"$out/stdout"
	normalise "$out/stderr.raw" "$tmp" >"$out/stderr"
	echo "$status" >"$out/status"
	rm -rf "$tmp"

	# Never acceptable, whatever the expected files say.
	why=
	if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
		why="timed out after $timeout_s s"
	elif [ "$status" -gt 128 ]; then
		why="killed by signal $((status - 128))"
	elif [ "$status" -ge 125 ]; then
		why="could not run the command (exit status $status)"
	elif grep -qE 'Sanitizer|runtime error:' "$out/stdout.raw" "$out/stderr.raw"; then
		why="sanitizer report"
	fi
	if [ -n "$why" ]; then
		echo "FAIL    $name: $why"
		sed 's/^/    /' "$out/stderr" | head -n 40
		failed=$((failed + 1))
		continue
	fi

	if [ -n "$update" ]; then
		cp "$out/stdout" "$out/stderr" "$out/status" "$c/"
		rm -f "$c"/*.todo
		echo "updated $name"
		updated=$((updated + 1))
		continue
	fi

	if [ ! -f "$c/stdout" ] || [ ! -f "$c/stderr" ] || [ ! -f "$c/status" ]; then
		echo "pending $name (no expected output yet; GOLDEN_UPDATE=1 writes it)"
		pending=$((pending + 1))
		continue
	fi

	ok=1
	for f in status stdout stderr; do
		cmp -s "$c/$f" "$out/$f" && continue
		ok=
		if [ "$f" = status ]; then
			echo "FAIL    $name: exit status $(cat "$out/status"), expected $(cat "$c/$f")"
		else
			echo "FAIL    $name: $f differs"
			diff -u --label "expected/$f" --label "actual/$f" "$c/$f" "$out/$f" | head -n 200
		fi
	done
	if [ -n "$ok" ]; then
		echo "ok      $name"
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done

finish
