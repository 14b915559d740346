"""ST-MAD of `mad.video.score` (the C++ model, mad/video/stmad.h) against the numpy transcription
of the spec (stmad_oracle.py, itself checked on the worked example by test_stmad_oracle.py) on
clips the example does not cover: other sizes (not multiples of 8), an odd frame count, a pan in
both directions, a small moving object over a static background (most windows without motion),
noise and blur. Every figure within 1e-10 relative, the spec's oracle tolerance."""

import os
import sys

import numpy as np
import pytest

import mad

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stmad_oracle  # noqa: E402

REL = 1e-10


def smooth_field(height, width, seed):
    """A smooth random texture (sums of a few sinusoids), 40..200."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    f = np.zeros((height, width))
    for _ in range(6):
        fx, fy, ph = rng.uniform(0.02, 0.3), rng.uniform(0.02, 0.3), rng.uniform(0, 6.28)
        f += np.sin(fx * x + fy * y + ph)
    return 120 + 13 * f


def pan_clip(frames, height, width, dx, dy, seed):
    """A texture panned by (dx, dy) pixels a frame; distorted by seeded noise of +-12."""
    big = smooth_field(height + abs(dy) * frames, width + abs(dx) * frames, seed)
    ref = np.empty((frames, height, width), np.uint8)
    for t in range(frames):
        oy = t * dy if dy >= 0 else (frames - 1 - t) * -dy
        ox = t * dx if dx >= 0 else (frames - 1 - t) * -dx
        ref[t] = np.clip(np.rint(big[oy:oy + height, ox:ox + width]), 0, 255)
    rng = np.random.default_rng(seed + 1)
    dist = np.clip(ref.astype(np.int64) + rng.integers(-12, 13, ref.shape), 0, 255).astype(np.uint8)
    return ref, dist


def object_clip(frames, height, width):
    """A bright 9x7 block moving over a static gradient; distorted by a 3x3 box blur."""
    y, x = np.mgrid[0:height, 0:width]
    background = (50 + (x * 90) // width + (y * 40) // height).astype(np.int64)
    ref = np.empty((frames, height, width), np.uint8)
    for t in range(frames):
        f = background.copy()
        top, left = 10 + (t % 20), 5 + 2 * t % (width - 15)
        f[top:top + 7, left:left + 9] = 220
        ref[t] = f
    padded = np.pad(ref.astype(np.float64), ((0, 0), (1, 1), (1, 1)), mode="edge")
    blur = sum(padded[:, 1 + dy:1 + dy + height, 1 + dx:1 + dx + width]
               for dy in (-1, 0, 1) for dx in (-1, 0, 1)) / 9.0
    return ref, np.rint(blur).astype(np.uint8)


CLIPS = {
    "pan 90x46 x35, right and down": lambda: pan_clip(35, 46, 90, 2, 1, 7),
    "pan 77x59 x36, left": lambda: pan_clip(36, 59, 77, -3, 0, 11),
    "moving object 72x64 x34, blurred": lambda: object_clip(34, 64, 72),
}


@pytest.mark.parametrize("name", sorted(CLIPS))
def test_the_cpp_model_equals_the_numpy_transcription(name):
    ref, dist = CLIPS[name]()
    want = stmad_oracle.stmad(ref, dist)
    got = mad.video.score(ref, dist, stmad=True, backend="cpu")
    details = got.stmad_details
    for key in ("smad", "tmad", "stmad"):
        np.testing.assert_allclose(getattr(got, key), want[key], rtol=REL, atol=0, err_msg=key)
    for key in ("m_row", "m_col", "mad_hi", "mad_lo", "beta"):
        np.testing.assert_allclose(details[key], want[key], rtol=REL, atol=0, err_msg=key)
    for key in ("w_row", "w_col", "lo_row", "lo_col"):
        np.testing.assert_allclose(np.asarray(details[key]), np.asarray(want[key]), rtol=REL,
                                   atol=1e-12, err_msg=key)
    # The per-frame LO is the model's own input: equal to the oracle's through the same CPU path.
    np.testing.assert_allclose(got.lo, want["lo"], rtol=REL, atol=1e-12)
