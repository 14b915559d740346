"""numpy inputs: every dtype and layout, views, batches, options and every error."""

import numpy as np
import pytest

import mad
from conftest import needs_pnm, textured, write_pnm

H, W = 40, 48  # small: a CPU pair takes milliseconds


def same(a, b):
    return (a.mad, a.hi, a.lo, a.sig) == (b.mad, b.hi, b.lo, b.sig)


@pytest.fixture(scope="module")
def pair():
    return textured(H, W, 1), textured(H, W, 2)


def test_uint8_gray_result_fields(pair):
    r = mad.score(*pair, backend="cpu")
    assert (r.width, r.height, r.backend, r.precision, r.mad_version) == (W, H, "cpu", "double", 2011)
    assert r.input_class == "uint8" and r.mad > 0 and r.hi_map is None
    assert "mad.Result(" in repr(r)


def test_maps(pair):
    r = mad.score(*pair, backend="cpu", maps=True)
    assert r.hi_map.shape == (H, W) and r.lo_map.shape == (H, W)
    assert r.hi_map.dtype == np.float64 and r.lo_map.max() > 0
    assert same(r, mad.score(*pair, backend="cpu"))


def test_views_negative_strides_and_padding(pair):
    ref, dist = pair
    want = mad.score(ref, dist, backend="cpu")
    flipped = mad.score(np.ascontiguousarray(ref[::-1, ::-1]), np.ascontiguousarray(dist[::-1, ::-1]),
                        backend="cpu")
    assert same(mad.score(ref[::-1, ::-1], dist[::-1, ::-1], backend="cpu"), flipped)
    padded = np.zeros((H + 3, W + 7), np.uint8)
    padded[1:H + 1, 2:W + 2] = ref
    assert same(mad.score(padded[1:H + 1, 2:W + 2], dist, backend="cpu"), want)
    fortran = np.asfortranarray(ref)
    assert same(mad.score(fortran, dist, backend="cpu"), want)
    strided = np.repeat(ref, 2, axis=1)[:, ::2]
    assert same(mad.score(strided, dist, backend="cpu"), want)


@needs_pnm()
@pytest.mark.parametrize("channels", [3, 4])
def test_rgb_uint8_matches_the_file_loader(tmp_path, channels):
    ref, dist = textured(H, W, 3, channels), textured(H, W, 4, channels)
    write_pnm(tmp_path / "r.ppm", ref[..., :3], 255)
    write_pnm(tmp_path / "d.ppm", dist[..., :3], 255)
    want = mad.score(tmp_path / "r.ppm", tmp_path / "d.ppm", backend="cpu")
    assert same(mad.score(ref, dist, backend="cpu"), want)
    # channel-last view of a planar (CHW) array
    planar = np.ascontiguousarray(ref.transpose(2, 0, 1))
    assert same(mad.score(planar.transpose(1, 2, 0), dist, backend="cpu"), want)


@needs_pnm()
@pytest.mark.parametrize("channels", [None, 3])
def test_uint16_matches_the_file_loader(tmp_path, channels):
    ref = textured(H, W, 5, channels, np.uint16, 65535)
    dist = textured(H, W, 6, channels, np.uint16, 65535)
    write_pnm(tmp_path / "r.pnm", ref, 65535)
    write_pnm(tmp_path / "d.pnm", dist, 65535)
    want = mad.score(tmp_path / "r.pnm", tmp_path / "d.pnm", backend="cpu")
    got = mad.score(ref, dist, backend="cpu")
    assert same(got, want) and got.input_class == "double"


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_float_arrays_are_the_0_255_scale(pair, dtype):
    ref, dist = pair
    as_double = mad.score(ref, dist, backend="cpu", input_class="double")
    got = mad.score(ref.astype(dtype), dist.astype(dtype), backend="cpu")
    assert got.input_class == "double" and same(got, as_double)


def test_float_rgb_is_the_unrounded_weighted_sum():
    ref = textured(H, W, 7, 3, np.float64)
    gray = 0.298936021293775 * ref[..., 0] + 0.587043074451121 * ref[..., 1] \
        + 0.114020904255103 * ref[..., 2]
    dist = textured(H, W, 8, None, np.float64)
    assert same(mad.score(ref, dist, backend="cpu"), mad.score(gray, dist, backend="cpu"))


def test_uint8_semantics_differ_from_double(pair):
    ref, dist = pair
    dist = dist.copy()
    dist[dist > 200] = 255  # 255 is where uint8 luminance differs
    u8 = mad.score(ref, dist, backend="cpu")
    dbl = mad.score(ref, dist, backend="cpu", input_class="double")
    assert u8.input_class == "uint8" and dbl.input_class == "double" and u8.hi != dbl.hi


def test_mad_version_2010(pair):
    a, b = mad.score(*pair, backend="cpu"), mad.score(*pair, backend="cpu", mad_version=2010)
    assert b.mad_version == 2010 and a.lo == b.lo and a.hi == pytest.approx(200 * b.hi)


def test_batch_lists_and_stacked_arrays(pair):
    ref, dist = pair
    refs = np.stack([ref, ref, dist])
    dists = np.stack([dist, ref, ref])
    got = mad.score_batch(refs, dists, backend="cpu")
    assert got.dtype == mad.BATCH_DTYPE and len(got) == 3 and got["ok"].all()
    assert got["mad"][1] == 0.0
    one = mad.score(ref, dist, backend="cpu")
    assert (got["mad"][0], got["hi"][0], got["lo"][0], got["sig"][0]) == (one.mad, one.hi, one.lo, one.sig)
    assert (got["width"][0], got["height"][0]) == (W, H)
    listed = mad.score_batch(list(refs), list(dists), backend="cpu")
    assert (listed["mad"] == got["mad"]).all()


def test_batch_errors_raise_or_record(pair):
    ref, dist = pair
    small = np.zeros((20, 20), np.uint8)
    with pytest.raises(ValueError, match="pair 1: .*at least 34x34"):
        mad.score_batch([ref, small], [dist, small], backend="cpu")
    got = mad.score_batch([ref, small, ref], [dist, small, "missing.png"], backend="cpu",
                          errors="record")
    assert list(got["ok"]) == [True, False, False]
    assert np.isnan(got["mad"][1]) and "34x34" in got["error"][1]
    assert "missing.png" in got["error"][2] and "file not found" in got["error"][2]
    with pytest.raises(ValueError, match="differ in length"):
        mad.score_batch([ref], [], backend="cpu")
    with pytest.raises(ValueError, match="errors must be"):
        mad.score_batch([ref], [dist], errors="ignore")


def test_batch_errors_raise_keeps_the_rows_scored(pair):
    ref, dist = pair
    small = np.zeros((20, 20), np.uint8)
    with pytest.raises(ValueError, match="pair 1: .*at least 34x34") as e:
        mad.score_batch([ref, small, dist], [dist, small, ref], backend="cpu")
    rows = e.value.rows  # every pair's row, as errors="record" returns them: nothing lost
    recorded = mad.score_batch([ref, small, dist], [dist, small, ref], backend="cpu",
                               errors="record")
    assert rows.dtype == mad.BATCH_DTYPE and list(rows["ok"]) == [True, False, True]
    assert rows["mad"][0] == recorded["mad"][0] and rows["mad"][2] == recorded["mad"][2]
    assert "34x34" in rows["error"][1]


def test_batch_of_one_iterable_of_pairs(pair):
    ref, dist = pair
    refs, dists = [ref, dist, ref], [dist, ref, ref]
    want = mad.score_batch(refs, dists, backend="cpu")
    for pairs in (zip(refs, dists), list(zip(refs, dists)), ([r, d] for r, d in zip(refs, dists))):
        got = mad.score_batch(pairs, backend="cpu")
        assert (got["mad"] == want["mad"]).all() and len(got) == 3
    assert (mad.Scorer(backend="cpu").score_batch(zip(refs, dists))["mad"] == want["mad"]).all()
    with pytest.raises(ValueError, match=r"item 1 is not a \(ref, dist\) pair \(got 3 items\)"):
        mad.score_batch([(ref, dist), (ref, dist, ref)], backend="cpu")
    with pytest.raises(ValueError, match="not an array of images: pass score_batch"):
        mad.score_batch(np.stack(refs), backend="cpu")


def test_scorer_keeps_options(pair):
    s = mad.Scorer(backend="cpu", mad_version=2010)
    assert s.backend == "cpu"
    assert same(s.score(*pair), mad.score(*pair, backend="cpu", mad_version=2010))
    assert s.score_batch([pair[0]], [pair[1]])["mad"][0] == s.score(*pair).mad
    with pytest.raises(ValueError, match="no maps"):
        mad.Scorer(backend="cpu", maps=True).score_batch([pair[0]], [pair[1]])


@pytest.mark.parametrize("call, message", [
    (lambda p: mad.score(p[0], p[1][:, :40]), "reference is 48x40 but distorted is 40x40"),
    (lambda p: mad.score(p[0][:30], p[1][:30]), "MAD needs at least 34x34"),
    (lambda p: mad.score(p[0].astype(np.int16), p[1]), "unsupported dtype int16"),
    (lambda p: mad.score(p[0].astype(">f8"), p[1]), "not in native byte order"),
    (lambda p: mad.score(np.zeros((2, 40, 40, 1), np.uint8), p[1]), "got 4 dimensions"),
    (lambda p: mad.score(np.zeros((40, 48, 5), np.uint8), p[1]), "channel count 5"),
    (lambda p: mad.score(np.zeros((0, 48), np.uint8), p[1]), "empty image"),
    (lambda p: mad.score(np.full((40, 48), np.nan), p[1]), "not finite"),
    (lambda p: mad.score("no/such/file.png", p[1]), "cannot load image 'no/such/file.png': file not found"),
    (lambda p: mad.score(p[0], p[1], backend="gpu"), "unknown backend 'gpu' \\(expected auto, cpu or cuda\\)"),
    (lambda p: mad.score(p[0], p[1], mad_version=2012), "unknown MAD version '2012'"),
    (lambda p: mad.score(p[0], p[1], input_class="int"), "unknown input class 'int'"),
    (lambda p: mad.score(p[0], p[1], precision="half"), "unknown precision 'half'"),
    (lambda p: mad.score(p[0].astype(np.float32), p[1], input_class="uint8"),
     'input_class="uint8" needs 8-bit images \\(got 32 and 8 bits\\)'),
    (lambda p: mad.score(object(), p[1]), "expected a path, a numpy array or a GPU array"),
])
def test_errors_are_value_errors_with_the_cli_message(pair, call, message):
    with pytest.raises(ValueError, match=message):
        call(pair)


def test_error_classes():
    assert issubclass(mad.InputError, ValueError) and issubclass(mad.InvalidArgument, ValueError)
    assert issubclass(mad.GpuError, RuntimeError)


def test_cuda_backend_without_a_gpu_is_a_runtime_error(pair):
    from conftest import gpu_available
    if gpu_available():
        pytest.skip("a GPU is present")
    with pytest.raises(RuntimeError, match='backend="cuda"'):
        mad.score(*pair, backend="cuda")


def test_load_gray(tmp_path):
    img = textured(H, W, 9)
    write_pnm(tmp_path / "g.pgm", img, 255) if "pnm" in mad.supported_formats() else None
    if "pnm" in mad.supported_formats():
        assert (mad.load_gray(tmp_path / "g.pgm") == img).all()
