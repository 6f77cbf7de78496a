#!/usr/bin/env python3
"""plotcheck.py — is each file a plot gnuplot drew?

    tests/query/plotcheck.py FILE.png|FILE.svg...

A PNG must have its signature and an IHDR with the size gsearch asks for,
and be more than a blank canvas (its compressed image data is not tiny); an
SVG must parse as XML with an <svg> root and hold text.  Prints one line per
file: its name, kind and size; exits 1 on the first bad file.
"""
import os
import struct
import sys
import xml.etree.ElementTree as ET


def png(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        return "not a PNG"
    w, h = struct.unpack(">II", data[16:24])
    if len(data) < 10000:
        return f"a PNG of {len(data)} bytes: too little drawn"
    return f"PNG {w}x{h}"


def svg(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        return f"not XML: {e}"
    if not root.tag.endswith("svg"):
        return "not an SVG"
    texts = [t.text for t in root.iter() if t.tag.endswith("text") and t.text]
    if len(texts) < 5:
        return "an SVG with almost no text"
    return f"SVG {root.get('width')}x{root.get('height')}"


for path in sys.argv[1:]:
    what = png(path) if path.endswith(".png") else svg(path)
    print(f"{os.path.basename(path)}: {what}")
    if not what.startswith(("PNG ", "SVG ")):
        sys.exit(1)
