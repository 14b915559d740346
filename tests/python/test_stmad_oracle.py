"""The numpy transcription of ST-MAD (stmad_oracle.py) reproduces the worked example of
shared/stmad-spec.md §11 within 1e-10, so it can check mad/video/stmad.h on other clips. The
original's values are §11's table, tests/data/reference/stmad_example.json (the C++ model's test,
tests/video/stmad_example_test.cpp, reads the same file)."""

import json
import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stmad_oracle  # noqa: E402
from conftest import DATA  # noqa: E402

REL = 1e-10  # the spec's oracle tolerance (§10)

with open(DATA / "reference" / "stmad_example.json") as f:
    TABLE = json.load(f)


def per_frame(name, t):
    """HI or LO of frame t from the table, which gives frames 0, 1, 2 and 39."""
    return TABLE[name][TABLE["frames"].index(t)]


def example_clips(frames=40, width=84, height=60):
    """§11's reference and distorted clips from their integer formulas (T x H x W uint8)."""
    t, y, x = np.meshgrid(np.arange(frames), np.arange(height), np.arange(width), indexing="ij")

    def tri(k, p):
        return np.abs(np.mod(k, p) - p // 2)

    u, v = x + 2 * t, y + t
    ref = 60 + 3 * tri(u, 24) + 2 * tri(v, 18) + 2 * tri(u + v, 10) + 3 * np.mod(7 * u + 13 * v, 5)
    dist = np.clip(ref + 2 * (np.mod(37 * (x // 4) + 91 * (y // 4) + 53 * t, 21) - 10), 0, 255)
    return ref.astype(np.uint8), dist.astype(np.uint8)


@pytest.fixture(scope="module")
def example():
    ref, dist = example_clips()
    return stmad_oracle.stmad(ref, dist)


def near(actual, expected):
    np.testing.assert_allclose(actual, expected, rtol=REL, atol=0)


def test_example_generator_first_pixels():
    ref, dist = example_clips(frames=1)
    assert list(ref[0, 0, :8]) == [124, 125, 126, 112, 113, 99, 104, 109]
    assert list(dist[0, 1, :8]) == [109, 95, 96, 97, 115, 120, 110, 115]


def test_spatial(example):
    near(example["hi"][0], per_frame("hi", 0))
    near(example["lo"][39], per_frame("lo", 39))
    for name in ("mad_hi", "mad_lo", "sigma", "smad"):
        near(example[name], TABLE[name])


def test_motion(example):
    near(example["m_ver"][:3], [3.176410903461279, 5.170953522243787, 5.182210721827578])
    near(example["m_hor"][:2], [0.6402745149450269, 5.34798273608753])
    for name in ("w_row", "w_col", "m_row", "m_col"):
        near(example[name], TABLE[name])
    assert not example["static"]


def test_temporal_and_combined(example):
    near(example["lo_row"][[0, 6]], np.array(TABLE["lo_row"])[[0, 6]])
    near(example["lo_col"][[0, 9]], np.array(TABLE["lo_col"])[[0, 9]])
    for name in ("sts_row", "sts_col", "tmad", "mov_index", "beta", "stmad"):
        near(example[name], TABLE[name])


def test_window_of_the_worked_example():
    """§11's window (3, 5) of frame pair (0, 1): V = 5.395541853475799."""
    ref, _ = example_clips(frames=2)
    crop = ref[:, :56, :80].astype(np.float64)
    near(stmad_oracle.window_speeds(crop[1], crop[0])[3, 5], 5.395541853475799)


def test_stmad_version_scales_hi_by_ten():
    """mad_version="stmad": HI = 10 d_detect (the oracle applies the x10 to the 2010 HI itself)."""
    ref, dist = example_clips(frames=1)
    a = stmad_oracle.mad.score(ref[0], dist[0], backend="cpu", input_class="double",
                               mad_version="stmad")
    b = stmad_oracle.mad.score(ref[0], dist[0], backend="cpu", input_class="double",
                               mad_version=2010)
    assert a.mad_version == "stmad" and a.to_dict()["mad_version"] == "stmad"
    assert a.hi == 10 * b.hi and a.lo == b.lo
    near(a.hi, per_frame("hi", 0))
