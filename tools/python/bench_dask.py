"""The overhead of mad.dask.score_pairs against mad.score_batch on the same pairs (issue 27 item 3):

    PYTHONPATH=build/python python3 tools/python/bench_dask.py [--pairs 200] [--size 64x64]
        [--workers 2] [--threads-per-worker 1] [--backend cpu] [--repeats 5]

Writes --pairs 8-bit PGM pairs (one reference per 10 distorted images, --size WxH), then times,
each as the median of --repeats runs after a warm-up run (so that plans for the shape exist):
score_batch in this process (every core), as it is and with the malloc thresholds mad.dask sets
in its workers, and score_pairs on a LocalCluster of --workers processes of
--threads-per-worker threads, already started. Prints one "DASK: ..." line per figure; the
cluster's start and the first (cold) call are printed too, as they are paid once per job.
"""

import argparse
import contextlib
import ctypes
import os
import statistics
import sys
import tempfile
import time

import numpy as np

# This script sits beside the package's sources (tools/python/mad, without the compiled part):
# import the built or installed package instead.
_here = os.path.dirname(os.path.abspath(__file__))
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != _here]
import mad  # noqa: E402
import mad.dask  # noqa: E402


def write_pgm(path, image):
    h, w = image.shape
    with open(path, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (w, h) + image.tobytes())


def make_pairs(folder, n, width, height):
    rng = np.random.default_rng(0)
    y, x = np.mgrid[0:height, 0:width]
    pairs = []
    for k in range(n):
        ref_path = os.path.join(folder, "ref%03d.pgm" % (k // 10))
        if k % 10 == 0:
            ref = ((x * (3 + k % 7) + y * 2) % 200 + 20).astype(np.uint8)
            write_pgm(ref_path, ref)
        dist = np.clip(ref + rng.normal(0, 4 + k % 10, ref.shape), 0, 255).astype(np.uint8)
        dist_path = os.path.join(folder, "dist%04d.pgm" % k)
        write_pgm(dist_path, dist)
        pairs.append((ref_path, dist_path))
    return pairs


def timed(fn):
    t = time.perf_counter()
    value = fn()
    return time.perf_counter() - t, value


def median_seconds(fn, repeats):
    return statistics.median(timed(fn)[0] for _ in range(repeats))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--size", default="64x64", help="WxH of every image")
    ap.add_argument("--workers", type=int, default=2, help="Dask worker processes")
    ap.add_argument("--threads-per-worker", type=int, default=1)
    ap.add_argument("--scheduler", help="score on this running cluster (e.g. tcp://host:8786: "
                    "GPU workers started as docs/dask.md shows) instead of a LocalCluster")
    ap.add_argument("--backend", default="cpu", choices=["cpu", "cuda", "auto"])
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    width, height = (int(v) for v in a.size.lower().split("x"))
    import distributed
    from distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory() as folder:
        pairs = make_pairs(folder, a.pairs, width, height)
        refs, dists = [r for r, _ in pairs], [d for _, d in pairs]
        batch = lambda: mad.score_batch(refs, dists, backend=a.backend, errors="record")  # noqa
        cold_batch, want = timed(batch)
        t_batch = median_seconds(batch, a.repeats)
        t = time.perf_counter()
        # The workers' malloc thresholds (mad.dask._keep_heap), here too: irreversible, so after
        # the plain measurement. Dask's overhead is the difference from this one.
        ctypes.CDLL(None).mallopt(-3, 32 << 20)
        ctypes.CDLL(None).mallopt(-1, 64 << 20)
        t_tuned = median_seconds(batch, a.repeats)
        if a.scheduler:
            cluster = contextlib.nullcontext()
            client = Client(a.scheduler)
        else:
            cluster = LocalCluster(n_workers=a.workers, threads_per_worker=a.threads_per_worker,
                                   processes=True, dashboard_address=None, silence_logs=40)
            client = Client(cluster)
        start = time.perf_counter() - t
        with cluster, client:
            run = lambda: mad.dask.score_pairs(pairs, client, backend=a.backend)  # noqa
            cold_dask, got = timed(run)
            t_dask = median_seconds(run, a.repeats)
        same = all(got[f].tobytes() == want[f].tobytes() for f in ("mad", "hi", "lo", "sig"))
    print("DASK: %d pairs of %dx%d, backend %s, %d CPU cores, distributed %s"
          % (a.pairs, width, height, a.backend, os.cpu_count(), distributed.__version__))
    print("DASK: score_batch (1 process, every core): %.3f s (%.2f ms/pair; cold %.3f s)"
          % (t_batch, 1e3 * t_batch / a.pairs, cold_batch))
    print("DASK: score_batch, malloc thresholds as mad.dask sets them on workers: %.3f s "
          "(%.2f ms/pair)" % (t_tuned, 1e3 * t_tuned / a.pairs))
    where = a.scheduler or "LocalCluster %d x %d thread" % (a.workers, a.threads_per_worker)
    print("DASK: score_pairs (%s): %.3f s (%.2f ms/pair; cold %.3f s, "
          "cluster start %.2f s)" % (where, t_dask, 1e3 * t_dask / a.pairs, cold_dask, start))
    print("DASK: ratio dask/score_batch %.2f (against the same malloc: %.2f, overhead %+.3f s, "
          "%+.2f ms/pair); rows bit for bit: %s" % (t_dask / t_batch, t_dask / t_tuned,
                                                     t_dask - t_tuned,
                                                     1e3 * (t_dask - t_tuned) / a.pairs, same))


if __name__ == "__main__":
    main()
