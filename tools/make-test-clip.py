#!/usr/bin/env python3
"""Writes a reference clip and a distorted clip as Y4M (or raw .yuv) for trying and timing
`mad video`, from integer formulas: the worked example of ST-MAD's contract, at any size.

  tools/make-test-clip.py --width 1920 --height 1080 --frames 300 ref.y4m dist.y4m

The reference's content moves 2 pixels left and 1 up per frame (so ST-MAD's motion weights are
not zero); the distorted clip adds offsets of -20..+20 on 4x4 blocks that change every frame.
At 84x60 and 40 frames these are exactly the clips of docs/algorithm.md's ST-MAD example. Chroma
is flat (128): mad scores luma only. Needs numpy.
"""
import argparse
import sys

import numpy as np


def tri(k, p):
    return np.abs(np.mod(k, p) - p // 2)


def pattern(u, v):
    return (60 + 3 * tri(u, 24) + 2 * tri(v, 18) + 2 * tri(u + v, 10)
            + 3 * np.mod(7 * u + 13 * v, 5))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--width", type=int, required=True)
    ap.add_argument("--height", type=int, required=True)
    ap.add_argument("--frames", type=int, required=True)
    ap.add_argument("--raw", action="store_true", help="write raw yuv420p instead of Y4M")
    ap.add_argument("ref")
    ap.add_argument("dist")
    a = ap.parse_args()
    if a.width < 2 or a.height < 2 or a.width % 2 or a.height % 2 or a.frames < 1:
        sys.exit("make-test-clip: width and height must be even and at least 2, frames at least 1")
    w, h, n = a.width, a.height, a.frames
    # The pattern over every position the moving window reaches, once.
    v, u = np.mgrid[0:h + n, 0:w + 2 * n].astype(np.int64)
    base = pattern(u, v)
    y, x = np.mgrid[0:h, 0:w].astype(np.int64)
    blocks = 37 * (x // 4) + 91 * (y // 4)
    chroma = np.full(((h + 1) // 2) * ((w + 1) // 2) * 2, 128, np.uint8).tobytes()
    header = b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n" % (w, h)
    with open(a.ref, "wb") as rf, open(a.dist, "wb") as df:
        if not a.raw:
            rf.write(header)
            df.write(header)
        for t in range(n):
            ref = base[t:t + h, 2 * t:2 * t + w]
            dist = np.clip(ref + 2 * (np.mod(blocks + 53 * t, 21) - 10), 0, 255)
            for f, plane in ((rf, ref), (df, dist)):
                if not a.raw:
                    f.write(b"FRAME\n")
                f.write(plane.astype(np.uint8).tobytes())
                f.write(chroma)


if __name__ == "__main__":
    main()
