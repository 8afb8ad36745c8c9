# SPDX-License-Identifier: Apache-2.0
"""Where the marks of one history chart are in a screenshot (PNG), for
tests/integration/t0937-history-chromium.sh.

    python3 pngmarks.py SHOT.png NIGHTS

Reads the PNG (8-bit RGB or RGBA, not interlaced: what Chromium writes)
with zlib alone, then finds, by colour: the median line (blue #1f4e9c),
its leftmost and rightmost columns the first and the last night; the
change point lines (orange #e66100, a column with 40 such pixels or more);
the alarm triangles (red #c01c28). Prints one line per mark, its kind
and the night its centre column is at: "cp 13.02", "alarm 12.97".
"""
import struct
import sys
import zlib


def read_png(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit("not a PNG")
    pos, idat = 8, b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, inter = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    if depth != 8 or ctype not in (2, 6) or inter != 0:
        sys.exit("unsupported PNG: depth %d colour %d" % (depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(h):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[x] = (line[x] + pr) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def columns(w, h, bpp, rows, rgb, tol):
    count = [0] * w
    for y in range(h):
        r = rows[y]
        for x in range(w):
            o = x * bpp
            if (abs(r[o] - rgb[0]) <= tol and abs(r[o + 1] - rgb[1]) <= tol
                    and abs(r[o + 2] - rgb[2]) <= tol):
                count[x] += 1
    return count


def groups(count, least):
    """Runs of adjacent columns with `least` pixels or more: centres."""
    out, run = [], []
    for x, c in enumerate(count + [0]):
        if c >= least:
            run.append((x, c))
        elif run:
            tot = sum(c for _, c in run)
            out.append(sum(x * c for x, c in run) / tot)
            run = []
    return out


def main():
    w, h, bpp, rows = read_png(sys.argv[1])
    nights = int(sys.argv[2])
    blue = columns(w, h, bpp, rows, (0x1f, 0x4e, 0x9c), 40)
    xs = [x for x, c in enumerate(blue) if c > 0]
    if not xs:
        sys.exit("no median line")
    # The round caps reach 0.75 px beyond the first and last nights.
    x0, x1 = xs[0] + 0.75, xs[-1] + 0.25 - 0.75 + 1
    def night(x):
        return 1 + (x + 0.5 - x0) / (x1 - x0) * (nights - 1)
    for x in groups(columns(w, h, bpp, rows, (0xe6, 0x61, 0x00), 50), 40):
        print("cp %.2f" % night(x))
    for x in groups(columns(w, h, bpp, rows, (0xc0, 0x1c, 0x28), 25), 4):
        print("alarm %.2f" % night(x))


main()
