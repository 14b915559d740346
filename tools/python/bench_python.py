"""Times the Python entry points beside the C++ engine on the same pairs (512x384 by default):

    PYTHONPATH=build/python python3 tools/python/bench_python.py [--pairs 64] [--backend auto]
        [--mad build/bin/mad]

Prints one "PYTHON: ..." line per measurement (median of --repeats runs, after a warm-up):
mad.score per pair (numpy), mad.score_batch per pair (numpy), mad.torch.mad per pair (CUDA
tensors, when torch and a GPU are present) and `mad score --pairs` per pair (the C++ engine,
including its PNG decoding, for scale).
"""

import argparse
import os
import statistics
import struct
import subprocess
import tempfile
import time
import zlib

import sys

import numpy as np

# This script sits beside the package's sources (tools/python/mad, without the compiled part):
# import the built or installed package instead.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != _here]
import mad  # noqa: E402


def images(n, height, width):
    rng = np.random.default_rng(0)
    y, x = np.mgrid[0:height, 0:width]
    ref = ((x * 3 + y * 2) % 200 + 20).astype(np.uint8)
    dists = [np.clip(ref + rng.normal(0, 10, ref.shape), 0, 255).astype(np.uint8) for _ in range(n)]
    return ref, dists


def median_seconds(fn, repeats):
    fn()  # warm-up: plans for the shape
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def write_png(path, image):
    """8-bit gray PNG (every build of mad reads PNG; stb's PGM is optional)."""
    h, w = image.shape
    raw = b"".join(b"\x00" + image[y].tobytes() for y in range(h))

    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--pairs", type=int, default=64)
    p.add_argument("--height", type=int, default=384)
    p.add_argument("--width", type=int, default=512)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--backend", default="auto")
    p.add_argument("--mad", help="the mad executable, to time `mad score --pairs` too")
    a = p.parse_args()
    ref, dists = images(a.pairs, a.height, a.width)
    scorer = mad.Scorer(backend=a.backend)
    shape = "%dx%d" % (a.width, a.height)
    t = median_seconds(lambda: scorer.score(ref, dists[0]), a.repeats)
    print("PYTHON: mad.score (%s, numpy, %s): %.1f ms per pair" % (scorer.backend, shape, t * 1e3))
    t = median_seconds(lambda: scorer.score_batch([ref] * a.pairs, dists), a.repeats)
    print("PYTHON: mad.score_batch (%s, numpy, %d pairs of %s): %.1f ms per pair"
          % (scorer.backend, a.pairs, shape, t * 1e3 / a.pairs))
    if scorer.backend == "cuda":
        try:
            import torch

            import mad.torch as mt
            x = torch.from_numpy(np.stack([ref] * a.pairs)).cuda()[:, None].float() / 255
            y = torch.from_numpy(np.stack(dists)).cuda()[:, None].float() / 255

            def run():
                mt.mad(y, x)
                torch.cuda.synchronize()
            t = median_seconds(run, a.repeats)
            print("PYTHON: mad.torch.mad (cuda, %d CUDA tensors of %s): %.1f ms per pair"
                  % (a.pairs, shape, t * 1e3 / a.pairs))
            # Issue 26's case: RGB pairs already on the GPU, each with its own reference (as
            # the C++ engine's "batch, distinct references" rows of `mad bench --kernels
            # pipeline`, which this is compared with), in both precisions.
            g = torch.Generator(device="cuda").manual_seed(0)
            rgb_ref = torch.rand(a.pairs, 3, a.height, a.width, device="cuda", generator=g)
            rgb_dist = (rgb_ref + 0.04 * torch.randn(rgb_ref.shape, device="cuda",
                                                     generator=g)).clamp(0, 1)
            for precision in ("double", "float"):
                def run_rgb():
                    mt.mad(rgb_dist, rgb_ref, precision=precision)
                    torch.cuda.synchronize()
                t = median_seconds(run_rgb, a.repeats)
                print("PYTHON: mad.torch.mad (cuda, %s, %d RGB CUDA tensors of %s, distinct "
                      "references): %.0f pairs/s" % (precision, a.pairs, shape, a.pairs / t))
        except ImportError:
            print("PYTHON: mad.torch.mad: skipped (no torch)")
    if a.mad:
        with tempfile.TemporaryDirectory() as d:
            write_png(os.path.join(d, "ref.png"), ref)
            with open(os.path.join(d, "pairs.csv"), "w") as f:
                for i, dist in enumerate(dists):
                    write_png(os.path.join(d, "d%d.png" % i), dist)
                    f.write("%s,%s\n" % (os.path.join(d, "ref.png"), os.path.join(d, "d%d.png" % i)))
            cmd = [a.mad, "score", "--pairs", os.path.join(d, "pairs.csv"), "--backend",
                   scorer.backend, "--out", os.path.join(d, "out.csv"), "--force"]
            t = median_seconds(lambda: subprocess.run(cmd, check=True, capture_output=True),
                               a.repeats)
            print("PYTHON: mad score --pairs (C++ engine, %s, %d pairs of %s, PNG decode "
                  "included): %.1f ms per pair" % (scorer.backend, a.pairs, shape, t * 1e3 / a.pairs))


if __name__ == "__main__":
    main()
