"""data_range (issue 28 §1): floats in [0, 1] never score silently as almost black."""

import numpy as np
import pytest

import mad
from conftest import textured

H, W = 40, 48


@pytest.fixture(scope="module")
def pair():
    ref = textured(H, W, 11)
    dist = np.clip(ref + np.random.default_rng(12).normal(0, 30, ref.shape), 0, 255).astype(np.uint8)
    return ref, dist


def same(a, b):
    return (a.mad, a.hi, a.lo, a.sig) == (b.mad, b.hi, b.lo, b.sig)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unit_floats_without_data_range_raise_with_advice(pair, dtype):
    ref, dist = (x.astype(dtype) / 255 for x in pair)
    with pytest.raises(ValueError, match=r"reference: a float image whose maximum is .*data_range=1"):
        mad.score(ref, dist, backend="cpu")
    with pytest.raises(mad.InvalidArgument, match="data_range=1"):
        mad.score_batch([ref], [dist], backend="cpu")


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_data_range_1_equals_the_x255_score_exactly(pair, dtype):
    ref, dist = (x.astype(dtype) / 255 for x in pair)
    want = mad.score(ref * 255, dist * 255, backend="cpu")
    got = mad.score(ref, dist, backend="cpu", data_range=1)
    assert want.mad > 1 and same(got, want) and got.input_class == "double"
    rows = mad.score_batch([ref], [dist], backend="cpu", data_range=1)
    assert rows["mad"][0] == want.mad and rows["hi"][0] == want.hi


def test_explicit_255_scores_dark_floats_as_they_are(pair):
    dark = np.full((H, W), 0.5), np.full((H, W), 0.75)
    assert mad.score(*dark, backend="cpu", data_range=255).width == W


def test_integer_arrays_keep_their_rules_and_take_other_ranges(pair):
    ref, dist = pair
    assert same(mad.score(ref, dist, backend="cpu", data_range=255), mad.score(ref, dist, backend="cpu"))
    twelve = (ref.astype(np.uint16) * 16, dist.astype(np.uint16) * 16)  # 12-bit data in uint16
    got = mad.score(*twelve, backend="cpu", data_range=4095)
    want = mad.score(*(x.astype(np.float64) * (255.0 / 4095) for x in twelve), backend="cpu")
    assert same(got, want)


@pytest.mark.parametrize("bad", [0, -1, float("nan"), float("inf"), "1", True, [1]])
def test_bad_data_range_is_refused(pair, bad):
    with pytest.raises(ValueError, match="data_range must be a positive number"):
        mad.score(*pair, backend="cpu", data_range=bad)


def test_data_range_on_files_is_refused(pair):
    with pytest.raises(ValueError, match="data_range=1 applies to arrays"):
        mad.score("ref.png", "dist.png", backend="cpu", data_range=1)
