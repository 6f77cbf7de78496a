#!/usr/bin/env python3
"""cputime.py OUT CMD... -- run CMD with its output in OUT; print "CPU WALL" in seconds.

CPU is getrusage(RUSAGE_CHILDREN) of a subreaper (PR_SET_CHILD_SUBREAPER), so that
a process the command starts and leaves running when it exits (gsearch's worker runs
in a session of its own) is reaped here and counted too.  Exits with CMD's status.
"""
import ctypes
import os
import resource
import subprocess
import sys
import time

ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
t = time.monotonic()
with open(sys.argv[1], "w") as out:
    rc = subprocess.call(sys.argv[2:], stdout=out, stderr=subprocess.STDOUT)
wall = time.monotonic() - t
while True:
    try:
        os.waitpid(-1, 0)
    except ChildProcessError:
        break
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{r.ru_utime + r.ru_stime:.3f} {wall:.3f}")
sys.exit(rc)
