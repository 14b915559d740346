"""The shape zoo through mad.score_batch (issue 25): 14 sizes in a seeded random order, gray and
colour, on the GPU in both precisions against the CPU. Before issue 25 a fourth size aborted a
GPU batch. Skipped without a GPU."""

import numpy as np
import pytest

import mad
from conftest import gpu_available, textured

pytestmark = pytest.mark.skipif(not gpu_available(), reason="no CUDA device (or no CUDA build)")

# 34x34 (the minimum), 34xN and Nx34, odd and prime sides, non-square, 1920x1080 and 4K.
ZOO = [(34, 34, None), (97, 34, 3), (34, 101, None), (47, 61, 3), (127, 127, None),
       (333, 257, 3), (509, 383, None), (37, 1000, 3), (211, 97, None), (384, 512, 3),
       (480, 640, None), (331, 331, 3), (1080, 1920, 3), (2160, 3840, None)]
BOUND = {"double": 1e-12, "float": 1e-4}  # issue 25's contract against the double CPU


def zoo_pairs(seed):
    refs, dists = [], []
    for k, (h, w, c) in enumerate(ZOO):
        ref = textured(h, w, 1000 + k, c)
        for j in range(2):  # two pairs a shape, sharing a reference
            refs.append(ref)
            dists.append(textured(h, w, 2000 + 10 * k + j, c))
    order = np.random.default_rng(seed).permutation(len(refs))
    return [refs[i] for i in order], [dists[i] for i in order]


@pytest.mark.parametrize("precision", ["double", "float"])
def test_score_batch_of_every_shape_matches_the_cpu(precision):
    refs, dists = zoo_pairs(25)
    want = mad.score_batch(refs, dists, backend="cpu")
    got = mad.score_batch(refs, dists, backend="cuda", precision=precision)
    assert got["ok"].all() and want["ok"].all()
    assert (got["width"] == want["width"]).all() and (got["height"] == want["height"]).all()
    rel = np.abs(got["mad"] - want["mad"]) / np.maximum(np.abs(want["mad"]), 1e-300)
    print(f"ZOO PYTHON {precision}: {len(refs)} pairs, worst relative difference {rel.max():.3g}")
    assert rel.max() <= BOUND[precision]
