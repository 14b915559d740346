"""Ctrl-C during mad.score_batch: the batch stops between pairs with KeyboardInterrupt, soon,
and the process ends cleanly (the binding checks for signals before each pair and finishes the
pairs in flight first). The rows scored before it are kept on the exception (e.rows)."""

import os
import signal
import subprocess
import sys
import time

CHILD = r"""
import sys, time
import numpy as np
import mad
rng = np.random.default_rng(0)
ref = rng.integers(0, 256, (96, 96), dtype=np.uint8)
dists = [rng.integers(0, 256, (96, 96), dtype=np.uint8) for _ in range(8)]
scorer = mad.Scorer(backend="cpu")
print("started", flush=True)
start = time.monotonic()
try:
    scorer.score_batch([ref] * 20000, dists * 2500)
    print("finished", flush=True)
except KeyboardInterrupt as e:
    print("interrupted after %.2f s" % (time.monotonic() - start), flush=True)
    rows = e.rows
    n = len(rows)
    again = scorer.score_batch([ref] * n, (dists * 2500)[:n])
    print("rows %d equal %s" % (n, bool(n > 0 and rows["ok"].all() and
                                        (rows["mad"] == again["mad"]).all())), flush=True)
    sys.exit(3)
"""


def test_ctrl_c_stops_a_batch_between_pairs():
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    assert child.stdout.readline().strip() == "started"
    time.sleep(1.0)  # well inside the batch: 20000 pairs take minutes on the CPU
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=60)
    assert child.returncode == 3, (out, err)
    assert out.startswith("interrupted after"), (out, err)
    # The pairs scored in that second are kept, in order, and are the scores of those pairs.
    assert out.splitlines()[1].endswith("equal True"), (out, err)
    # One pair of 96x96 takes milliseconds: the batch must stop about at once.
    assert time.monotonic() - sent < 10.0
