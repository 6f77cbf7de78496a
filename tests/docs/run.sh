#!/usr/bin/env bash
# run.sh — the documentation tests: every command shown in README.md and
# docs/*.md runs on the emulated device, and a console block's output must be
# what it shows.  The convention is in tests/README.md; the work is done by
# docrun.py.
#
#   tests/docs/run.sh [FILE.md...]              every file, or those named
#   DOCS_UPDATE=1 tests/docs/run.sh README.md   rewrite the outputs shown
#
# GSEARCH names the binary (default build/gsearch); GS_RESULT, when set,
# receives "<passed> <failed>" for `make test`.
exec python3 "$(dirname "$0")/docrun.py" "$@"
