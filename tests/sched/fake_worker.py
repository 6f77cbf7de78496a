#!/usr/bin/env python3
"""A misbehaving stand-in for `gsearch worker`, for the supervisor's tests.

Speaks the worker protocol (driver/sched/proto.h) on stdin/stdout and
misbehaves by configuration index, so one sweep exercises every fault:
  idx % 6 == 1: crashes (exits with status 3) while measuring
  idx % 6 == 2: hangs (the supervisor's timer must kill it)
  idx % 6 == 3: writes bytes that are not a frame
  idx % 6 == 4: answers for another configuration (a protocol violation)
  idx % 6 == 5: a crash result marked sticky, then exits (as a broken
                CUDA context makes the real worker do)
  otherwise:    a result with time_ms = 1 + idx / 100 and an interval
With FAKE_SETUP_HANG=1 it never finishes its setup.  With FAKE_ALL_OK=1
every configuration succeeds, each after FAKE_DELAY
seconds (default 0), for the resume and interrupt tests.
"""
import json
import os
import struct
import sys
import time

inp = sys.stdin.buffer
out = sys.stdout.buffer


def read_exact(n):
    b = b""
    while len(b) < n:
        c = inp.read(n - len(b))
        if not c:
            sys.exit(0)
        b += c
    return b


def recv():
    (n,) = struct.unpack("<I", read_exact(4))
    fields = []
    for _ in range(n):
        (l,) = struct.unpack("<I", read_exact(4))
        fields.append(read_exact(l))
    return fields


def send(*fields):
    b = struct.pack("<I", len(fields))
    for f in fields:
        f = f if isinstance(f, bytes) else f.encode()
        b += struct.pack("<I", len(f)) + f
    out.write(b)
    out.flush()


setup = recv()
if setup[0] != b"setup" or setup[1] != b"gsearch-worker-3":
    send("fatal", "bad setup")
    sys.exit(1)
if os.environ.get("FAKE_SETUP_HANG"):
    time.sleep(3600)  # a setup that never ends: the supervisor's limit must end it
send("ready", json.dumps({"name": "fake", "cc": "9.0", "sms": 1, "driver": "0"}))
while True:
    m = recv()
    idx = int(m[1])
    k = 0 if os.environ.get("FAKE_ALL_OK") else idx % 6
    time.sleep(float(os.environ.get("FAKE_DELAY", "0")))
    if k == 1:
        sys.exit(3)
    if k == 2:
        time.sleep(3600)
    if k == 3:
        out.write(b"\xff\xff\xff\xff garbage")
        out.flush()
        time.sleep(3600)
    if k == 4:
        send("result", str(idx + 1000), json.dumps({"status": "ok", "time_ms": 1.0}))
        time.sleep(3600)
    if k == 5:
        send("result", str(idx), json.dumps({"status": "crash", "error": "sticky",
                                              "sticky": True}))
        time.sleep(0.2)  # the supervisor must not dispatch to us meanwhile
        sys.exit(0)
    t = 1 + idx / 100
    # as the stopping rule reports: 12 timed runs after 2 warm-ups
    send("result", str(idx), json.dumps({"status": "ok", "time_ms": t,
                                          "min_ms": 1, "iqr_ms": 0, "reps": 10,
                                          "runs": 12, "warmups": 2,
                                          "ci_lo_ms": t * 0.999, "ci_hi_ms": t * 1.002,
                                          "ci_pct": 96.14, "timed_ms": 14 * t}))
