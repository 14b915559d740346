"""mad.video.score (issue 40 item 6): clips from paths (Y4M, raw with width/height/
pixel_format), T x H x W arrays, iterables of frames or of frame pairs. Each frame's row equals
mad.score on that frame with input_class="double"; a generator's clip is consumed without being
held; keywords are `mad video`'s options and others raise TypeError."""

import math
import tracemalloc

import numpy as np
import pytest

import mad
import mad.video

from conftest import textured

H, W, T = 40, 48, 3


def clip(seed, frames=T, noise=0):
    rng = np.random.default_rng(seed)
    base = np.stack([textured(H, W, seed * 100 + t) for t in range(frames)])
    if noise:
        base = np.clip(base.astype(int) + rng.integers(-noise, noise + 1, base.shape), 0, 255)
    return base.astype(np.uint8)


def write_y4m(path, frames):
    with open(path, "wb") as f:
        f.write(b"YUV4MPEG2 W%d H%d F25:1 Ip A1:1 C420jpeg\n" % (W, H))
        chroma = bytes([128]) * (2 * ((W + 1) // 2) * ((H + 1) // 2))
        for frame in frames:
            f.write(b"FRAME\n" + frame.tobytes() + chroma)


def write_yuv(path, frames):
    chroma = bytes([128]) * (2 * ((W + 1) // 2) * ((H + 1) // 2))
    with open(path, "wb") as f:
        for frame in frames:
            f.write(frame.tobytes() + chroma)


REF, DIST = clip(1), clip(1, noise=25)


def test_arrays_rows_equal_mad_score_in_double():
    r = mad.video.score(REF, DIST, backend="cpu")
    assert r.frames_scored == T and list(r.frame) == list(range(T))
    for t in range(T):
        one = mad.score(REF[t], DIST[t], backend="cpu", input_class="double")
        assert (r.mad[t], r.hi[t], r.lo[t]) == (one.mad, one.hi, one.lo)
    pooled = r.pooled["mad"]
    assert pooled["mean"] == pytest.approx(np.mean(r.mad), rel=1e-12)
    assert pooled["p95"] == pytest.approx(np.percentile(r.mad, 95), rel=1e-12)
    assert pooled["count"] == T
    assert math.isnan(r.stmad) and r.stmad_details is None
    assert r.rows()[1]["metrics"]["mad"] == r.mad[1]
    assert (r.width, r.height, r.backend, r.input_class) == (W, H, "cpu", "double")


def test_paths_and_raw_files_give_the_array_rows(tmp_path):
    from_arrays = mad.video.score(REF, DIST, backend="cpu")
    write_y4m(tmp_path / "r.y4m", REF)
    write_y4m(tmp_path / "d.y4m", DIST)
    y4m = mad.video.score(tmp_path / "r.y4m", str(tmp_path / "d.y4m"), backend="cpu")
    np.testing.assert_array_equal(y4m.mad, from_arrays.mad)
    assert y4m.fps == 25 and y4m.pixel_format == "yuv420p"
    write_yuv(tmp_path / "r.yuv", REF)
    write_yuv(tmp_path / "d.yuv", DIST)
    raw = mad.video.score(tmp_path / "r.yuv", tmp_path / "d.yuv", backend="cpu", width=W,
                          height=H, pixel_format="yuv420p")
    np.testing.assert_array_equal(raw.mad, from_arrays.mad)
    with pytest.raises(mad.InvalidArgument):
        mad.video.score(tmp_path / "r.yuv", tmp_path / "d.yuv", backend="cpu")


def test_generators_and_frame_pairs():
    want = mad.video.score(REF, DIST, backend="cpu").mad
    gen = mad.video.score((f for f in REF), (f for f in DIST), backend="cpu")
    np.testing.assert_array_equal(gen.mad, want)
    pairs = mad.video.score(zip(REF, DIST), None, backend="cpu")
    np.testing.assert_array_equal(pairs.mad, want)
    sub = mad.video.score(REF, DIST, backend="cpu", subsample=2)
    assert list(sub.frame) == [0, 2]
    np.testing.assert_array_equal(sub.mad, want[[0, 2]])


def test_a_generators_clip_is_not_held():
    # 60 frames of 96 x 128 (737 kB per clip): frames are pulled as they are scored and let go,
    # so Python's traced memory at its peak holds a few frames, never the clips.
    frames, h, w = 60, 96, 128
    made = []

    def frames_of(seed):
        rng = np.random.default_rng(seed)
        for t in range(frames):
            made.append(t)
            yield rng.integers(0, 256, (h, w), dtype=np.uint8)

    tracemalloc.start()
    try:
        r = mad.video.score(frames_of(1), frames_of(2), backend="cpu", mad_version=2011)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert r.frames_scored == frames and len(made) == 2 * frames
    clip_bytes = frames * h * w
    assert peak < clip_bytes / 4, peak


def test_uint16_frames_take_their_bit_depth():
    ten = (REF.astype(np.uint16) * 4).astype(np.uint16)  # 10-bit samples of the same picture
    dist = (DIST.astype(np.uint16) * 4).astype(np.uint16)
    r = mad.video.score(ten, dist, backend="cpu", pixel_format="gray10le")
    assert r.pixel_format == "gray10le" and r.frames_scored == T
    scaled = mad.score(ten[0] * (255.0 / 1023), dist[0] * (255.0 / 1023), backend="cpu",
                       input_class="double")
    assert r.mad[0] == pytest.approx(scaled.mad, rel=1e-12)
    with pytest.raises(mad.InputError, match="above 1023"):
        mad.video.score(ten * 64, dist, backend="cpu", pixel_format="gray10le")


def test_bad_frames_keywords_and_iterator_errors():
    with pytest.raises(TypeError, match="unexpected keyword 'colour'"):
        mad.video.score(REF, DIST, colour=True)
    with pytest.raises(mad.InputError, match="like the clip's first frame"):
        mad.video.score(REF, [DIST[0], DIST[1][:, :10]], backend="cpu")
    with pytest.raises(mad.InvalidArgument, match="uint8 or uint16"):
        mad.video.score(REF.astype(np.float32), DIST, backend="cpu")
    with pytest.raises(mad.InvalidArgument, match="T x H x W"):
        mad.video.score(REF[0], DIST[0], backend="cpu")

    def broken():
        yield DIST[0]
        raise KeyError("the decoder failed")

    with pytest.raises(KeyError, match="the decoder failed"):
        mad.video.score(REF, broken(), backend="cpu")


def test_stmad_keyword_reaches_the_model():
    r = mad.video.score(REF, DIST, backend="cpu", stmad=True)
    assert r.stmad_details is not None and r.stmad_details["frames"] == T
    assert math.isnan(r.tmad)  # fewer than 34 frames
    assert any("34" in n for n in r.stmad_details["notes"])
