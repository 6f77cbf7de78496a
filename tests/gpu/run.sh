#!/usr/bin/env bash
# run.sh — `make test-gpu`: sweeps on the real GPU that must end in every
# outcome, time a kernel of known duration, and agree with themselves.
#   tests/gpu/run.sh [GSEARCH]     (needs a GPU, NVRTC and python3)
set -uo pipefail
g=${1:-build/gsearch}
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
spin=$(sed -n 's/^problem SPIN = \([0-9]*\).*/\1/p' tests/gpu/outcomes.space)
fails=0
echo "== outcomes"
"$g" run --quiet --jobs 4 --db "$d/o.db" tests/gpu/outcomes.space || true
python3 tests/gpu/check.py outcomes "$d/o.db" "$spin" || fails=$((fails + 1))
echo "== wrong: the GPU's comparison kernel says what the emulated device's host comparison says"
"$g" run --quiet --emu --timeout 2 --db "$d/w.db" tests/emu/outcomes.space | grep "^workers replaced" || true
python3 tests/gpu/check.py samewrong "$d/w.db" tests/cli/cases/run-emu-outcomes/stdout || fails=$((fails + 1))
echo "== a kernel that writes its input"
"$g" run --quiet --db "$d/s.db" tests/emu/scribble.space | grep "^outcomes" || true
python3 tests/gpu/check.py scribble "$d/s.db" || fails=$((fails + 1))
echo "== two runs of one sweep"
for i in 1 2; do
	"$g" run --quiet --set N=1024 --db "$d/m$i.db" spaces/matmul.space | grep -E "^(outcomes|best|baseline)"
done
python3 tests/gpu/check.py agree "$d/m1.db" "$d/m2.db" || fails=$((fails + 1))
echo "== the CUDA backend"
if [ -x build/gpu/dev_smoke ]; then build/gpu/dev_smoke | tail -1 || fails=$((fails + 1)); fi
[ "$fails" -eq 0 ] && echo "test-gpu: all passed" || echo "test-gpu: $fails part(s) failed"
[ "$fails" -eq 0 ]
