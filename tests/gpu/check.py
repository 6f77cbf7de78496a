#!/usr/bin/env python3
"""Checks of `make test-gpu` on the stores its sweeps wrote.

    check.py outcomes OUTCOMES_DB SPIN
    check.py agree DB1 DB2
Prints PASS/FAIL lines and exits 1 on any failure.
"""
import sqlite3
import sys

fails = 0


def check(ok, what):
    global fails
    print(("PASS " if ok else "FAIL ") + what)
    fails += 0 if ok else 1


if sys.argv[1] == "outcomes":
    db = sqlite3.connect(sys.argv[2])
    spin = int(sys.argv[3])
    want = {0: "ok", 1: "crash", 2: "timeout", 3: "wrong", 4: "compile_error", 5: "invalid",
            6: "invalid", 7: "ok", 8: "launch_error"}
    rows = db.execute("SELECT json_extract(c.params, '$.KIND'), r.status, r.error, r.time_ms,"
                      " r.sm_clock_mhz FROM config c LEFT JOIN result r USING (sweep_id, idx)"
                      " ORDER BY 1").fetchall()
    for kind, status, error, t, clock in rows:
        check(status == want[kind], f"KIND={kind}: {status} (want {want[kind]}): {error or ''}"[:200])
        if kind == 7 and status == "ok" and clock:
            expect = spin / (clock * 1e3)
            check(abs(t - expect) / expect < 0.03,
                  f"known duration: {t:.3f} ms measured, {expect:.3f} ms from {spin} cycles at "
                  f"{clock:.0f} MHz ({100 * (t / expect - 1):+.2f}%)")
elif sys.argv[1] == "samewrong":
    # the KIND 3 kernel at the emulator size, measured on the GPU: its
    # message must be the emulated device's golden one, character for
    # character (the golden keeps the first 90 characters)
    db = sqlite3.connect(sys.argv[2])
    got = db.execute("SELECT r.status, r.error FROM config c JOIN result r USING (sweep_id, idx)"
                     " WHERE json_extract(c.params, '$.KIND') = 3").fetchone()
    want = None
    for line in open(sys.argv[3]):
        f = line.rstrip("\n").split("|")
        if len(f) >= 4 and f[0] == "3" and f[1] == "wrong":
            want = f[3]
    check(got is not None and got[0] == "wrong" and want is not None and got[1][:90] == want,
          f"wrong on the GPU: {got[1] if got else None!r}; on emu: {want!r}")
elif sys.argv[1] == "scribble":
    # KIND 1 writes its input: wrong, found by the device comparison; the
    # configurations measured after it must see the input as filled
    db = sqlite3.connect(sys.argv[2])
    got = {k: (st, err) for k, st, err in db.execute(
        "SELECT json_extract(c.params, '$.KIND'), r.status, r.error"
        " FROM config c JOIN result r USING (sweep_id, idx)")}
    check(got.get(0, (None,))[0] == "ok" and got.get(2, (None,))[0] == "ok",
          f"the kernels that leave their input alone: {got.get(0)}, {got.get(2)}")
    one = got.get(1, (None, None))
    check(one[0] == "wrong" and (one[1] or "").startswith("the kernel wrote its input y"),
          f"the kernel that writes its input: {one}")
elif sys.argv[1] == "agree":
    best = []
    for path in sys.argv[2:4]:
        db = sqlite3.connect(path)
        best.append(db.execute("SELECT c.params, r.time_ms FROM result r JOIN config c USING"
                               " (sweep_id, idx) WHERE r.status = 'ok' ORDER BY r.time_ms"
                               " LIMIT 3").fetchall())
    top1 = {p for p, _ in best[1]}
    check(best[0][0][0] in top1,
          f"two runs agree: run 1's optimum {best[0][0][0]} ({best[0][0][1]:.4f} ms) is in run 2's "
          f"top 3 ({', '.join(f'{t:.4f}' for _, t in best[1])} ms)")

sys.exit(1 if fails else 0)
