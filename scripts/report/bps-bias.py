#!/usr/bin/env python3
"""bps-bias.py PAIRS: whether the model errs by blocks resident per SM.

PAIRS has one line per space, "NAME MODEL.db MEASURED.db" (an emulated store and
a measured one of the same space).  For each space with ten or more
configurations in both, each configuration's modeled / measured time is divided
by the space's median of that ratio, and the medians of the result are printed
per blocks per SM (1 to 7, and 8 or more); the last line, ALL, gives per blocks
per SM the median over the spaces of those medians.  1.00: modeled as
accurately as the space's configurations at large."""
import json
import os
import sqlite3
import statistics as st
import sys


def load(path):
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    rows = db.execute(
        "SELECT c.params, r.time_ms, r.blocks_per_sm FROM result r JOIN config c USING(sweep_id, idx)"
        " WHERE r.status = 'ok' AND r.sweep_id = (SELECT max(id) FROM sweep)").fetchall()
    return {json.dumps(json.loads(p), sort_keys=True): (t, b) for p, t, b in rows}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: bps-bias.py PAIRS")
    agg = {}
    for line in open(sys.argv[1]):
        if not line.strip():
            continue
        name, mdb, hdb = line.split()
        if not os.path.exists(mdb) or not os.path.exists(hdb):
            continue
        m, h = load(mdb), load(hdb)
        keys = [k for k in m if k in h and h[k][0]]
        if len(keys) < 10:
            continue
        ratio = {k: m[k][0] / h[k][0] for k in keys}
        med = st.median(ratio.values())
        by = {}
        for k in keys:
            b = min(m[k][1] or 0, 8)
            by.setdefault(b, []).append(ratio[k] / med)
        print(name, " ".join(f"bps{b}:{st.median(v):.2f}(n{len(v)})" for b, v in sorted(by.items())))
        for b, v in by.items():
            agg.setdefault(b, []).append(st.median(v))
    print("ALL", " ".join(f"bps{b}:{st.median(v):.2f}(spaces{len(v)})" for b, v in sorted(agg.items())))


if __name__ == "__main__":
    main()
