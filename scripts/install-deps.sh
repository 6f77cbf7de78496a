#!/usr/bin/env bash
# install-deps.sh — install the Debian/Ubuntu packages gsearch needs to build
# and test.
#
#   scripts/install-deps.sh           libraries, Check, pkg-config, python3
#   scripts/install-deps.sh --fuzz    the same, plus clang and its sanitizer and
#                                     libFuzzer runtimes for `make fuzz`
#
# Installs only what is missing (so a second run does nothing), says what it
# installs, runs apt-get update once per run and only when something is
# missing.  Needs root, or sudo.  The Makefile calls it when a header or tool
# is missing.
set -euo pipefail

pkgs=(libuv1-dev libsqlite3-dev libjansson-dev libxxhash-dev zlib1g-dev check libsubunit-dev pkg-config python3 sqlite3 gnuplot-nox)
case ${1:-} in
"") ;;
# The runtimes (libclang-rt-14-dev on Debian 12) are only recommended by
# clang, and recommends are not installed; without them -fsanitize=fuzzer
# fails at link time.
--fuzz) pkgs+=(clang libclang-rt-dev) ;;
*) echo "usage: $0 [--fuzz]" >&2; exit 2 ;;
esac

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
	echo "install-deps: not a Debian-like system; install these by hand: ${pkgs[*]}" >&2
	exit 1
fi

missing=()
for p in "${pkgs[@]}"; do
	if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" != installed ]; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -eq 0 ]; then
	echo "install-deps: all installed: ${pkgs[*]}"
	exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
	as_root=()
elif command -v sudo >/dev/null; then
	as_root=(sudo)
else
	echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
	exit 1
fi

echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${as_root[@]}" env DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "install-deps: done"
