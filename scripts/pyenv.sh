#!/usr/bin/env bash
# pyenv.sh — the Python environment the interoperability tests run the
# community's own tools in: Kernel Tuner (its simulation mode replays a cache
# file, and it ships the T4 schema), jsonschema, and autotuning-methodology
# (its reader of T4 files).
#
#   scripts/pyenv.sh [DIR]    make DIR (default build/pyenv) once; print its python
#   scripts/pyenv.sh --offline [DIR]
#                             print its python if DIR is made; else say so and
#                             exit 77 (skipped), never asking PyPI.  GS_OFFLINE=1
#                             (`make test OFFLINE=1`) does the same.
#
# A venv of the system's python3 (python3-venv from apt when the venv module
# is missing), filled from PyPI.  A finished venv is marked with a stamp
# holding the package list, so a second run costs nothing; a change of the
# list rebuilds it.  Any failure exits non-zero with the reason on stderr:
# the tests that need this environment fail, they do not skip (unless
# offline, above).
set -euo pipefail

offline=${GS_OFFLINE:-0}
[ "$offline" = 0 ] && offline=
if [ "${1:-}" = --offline ]; then
	offline=1
	shift
fi
dir=${1:-build/pyenv}
# pinned: the tests compare against what these versions read and write
pkgs=(kernel_tuner==1.5.0 jsonschema==4.26.0 autotuning-methodology==1.1.0)
stamp=$dir/.gsearch-pyenv
want="${pkgs[*]}"

if [ -x "$dir/bin/python" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
	echo "$dir/bin/python"
	exit 0
fi

fail() {
	echo "pyenv: error: $*" >&2
	exit 1
}

if [ -n "$offline" ]; then
	echo "pyenv: skipped: offline, and $dir is not made (it needs ${pkgs[*]} from PyPI)" >&2
	exit 77
fi

# The distribution's interpreter, not one a version manager put first on PATH:
# CI has only the former.
py=/usr/bin/python3
[ -x "$py" ] || py=$(command -v python3) || fail "no python3 (scripts/install-deps.sh installs it)"

if ! "$py" -c 'import venv, ensurepip' 2>/dev/null; then
	if command -v apt-get >/dev/null && [ "$(id -u)" -eq 0 ]; then
		echo "pyenv: installing python3-venv" >&2
		DEBIAN_FRONTEND=noninteractive apt-get update -q >&2 &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
				python3-venv >&2 || fail "cannot install python3-venv"
	else
		fail "$py has no venv module; install python3-venv"
	fi
fi

rm -rf "$dir"
"$py" -m venv "$dir" >&2 || fail "cannot create a venv in $dir with $py"
echo "pyenv: installing ${pkgs[*]} into $dir (once)" >&2
"$dir/bin/python" -m pip install -q --disable-pip-version-check "${pkgs[@]}" >&2 ||
	fail "pip could not install ${pkgs[*]} into $dir (is PyPI reachable?)"
echo "$want" > "$stamp"
echo "$dir/bin/python"
