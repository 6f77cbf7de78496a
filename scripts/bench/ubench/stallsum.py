#!/usr/bin/env python3
"""stallsum.py CUBIN [NAME-SUBSTRING]: per kernel of an sm_70..sm_90 cubin,
each loop ptxas left (a backward BRA and its target) with its instructions
and the sum of their stall counts (bits 105..108 of each 128-bit word, the
cycles before the warp may issue its next instruction), the least cycles a
warp alone takes per iteration.  Prints
  LOOP kernel=K from=0xA to=0xB instructions=N stall_sum=S ldg=L
"""
import struct
import sys


def sections(path):
    b = open(path, "rb").read()
    shoff = struct.unpack_from("<Q", b, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3A)
    sh = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize) for i in range(shnum)]
    stro = sh[shstrndx][4]

    def name(o):
        return b[stro + o:b.index(b"\0", stro + o)].decode()

    return {name(s[0]): b[s[4]:s[4] + s[5]] for s in sh}


def main():
    want = sys.argv[2] if len(sys.argv) > 2 else ""
    for sec, code in sections(sys.argv[1]).items():
        if not sec.startswith(".text.") or want not in sec:
            continue
        words = [int.from_bytes(code[i:i + 16], "little") for i in range(0, len(code), 16)]
        for i, x in enumerate(words):
            if x & 0xFFF != 0x947:
                continue
            off = ((x >> 16) & 0xFF) << 2 | ((x >> 34) & ((1 << 48) - 1)) << 10
            if (x >> 81) & 1:
                off -= 1 << 58
            if off >= -16:
                continue
            lo = (i * 16 + 16 + off) // 16
            body = words[lo:i + 1]
            st = sum(max(1, (w >> 105) & 0xF) for w in body)
            ldg = sum(1 for w in body if w & 0xFFF == 0x981)
            print(f"LOOP kernel={sec[6:]} from={lo * 16:#x} to={i * 16:#x} instructions={len(body)} "
                  f"stall_sum={st} ldg={ldg}")


main()
