"""GPU arrays (torch, CuPy) scored on their device with no host copy of the images, against
the host path bit for bit. Skipped without a GPU or without torch / CuPy."""

import numpy as np
import pytest

import mad
from conftest import REFERENCE, gpu_available, textured

pytestmark = pytest.mark.skipif(not gpu_available(), reason="no CUDA device (or no CUDA build)")
H, W = 384, 512


def same(a, b):
    return (a.mad, a.hi, a.lo, a.sig) == (b.mad, b.hi, b.lo, b.sig)


@pytest.fixture(scope="module")
def torch():
    return pytest.importorskip("torch")


@pytest.mark.parametrize("precision", ["double", "float"])
@pytest.mark.parametrize("dtype", ["uint8", "float32", "float64"])
def test_torch_gray_matches_host(torch, dtype, precision):
    ref, dist = textured(H, W, 1, None, dtype), textured(H, W, 2, None, dtype)
    want = mad.score(ref, dist, backend="cuda", precision=precision)
    got = mad.score(torch.from_numpy(ref).cuda(), torch.from_numpy(dist).cuda(), backend="cuda",
                    precision=precision)
    assert same(got, want) and got.input_class == want.input_class


def test_torch_rgb_uint8_views_match_host(torch):
    ref, dist = textured(H, W, 3, 3), textured(H, W, 4, 3)
    want = mad.score(ref, dist, backend="cuda")
    planar = torch.from_numpy(np.ascontiguousarray(ref.transpose(2, 0, 1))).cuda()
    got = mad.score(planar.permute(1, 2, 0), torch.from_numpy(dist).cuda().flip(0).flip(0))
    assert same(got, want)
    flipped = mad.score(torch.from_numpy(ref).cuda().flip(1), torch.from_numpy(dist).cuda().flip(1))
    assert same(flipped, mad.score(ref[:, ::-1], dist[:, ::-1], backend="cuda"))


def test_gpu_errors(torch):
    a = torch.zeros((40, 40, 3), dtype=torch.float32, device="cuda")
    with pytest.raises(ValueError, match="colour GPU input must be uint8"):
        mad.score(a, a, data_range=255)  # (all zeros: without data_range, that is refused first)
    with pytest.raises(ValueError, match="must both be host images or both GPU arrays"):
        mad.score(a[..., 0], a[..., 0].cpu().numpy(), data_range=255)
    with pytest.raises(ValueError, match='backend="cpu" cannot score GPU arrays'):
        mad.score(a[..., 0], a[..., 0], backend="cpu", data_range=255)


@pytest.mark.parametrize("precision", ["double", "float"])
def test_a_generator_of_fresh_cuda_tensors_equals_host_arrays(torch, precision):
    # Each tensor exists only inside the generator: the batch must hold it until its pair is
    # collected. Were one freed early, the allocator would hand its block to the litter below,
    # overwritten with 7s before the device gathered the pair: a silently wrong score.
    n = 12
    refs = [textured(H, W, 100 + i) for i in range(n)]
    dists = [textured(H, W, 200 + i) for i in range(n)]
    want = mad.score_batch(refs, dists, backend="cuda", precision=precision)
    litter = []

    def fresh(images):
        for image in images:
            yield torch.from_numpy(image).cuda()
            litter.append(torch.full((H, W), 7, dtype=torch.uint8, device="cuda"))

    got = mad.score_batch(fresh(refs), fresh(dists), backend="cuda", precision=precision)
    for field in ("mad", "hi", "lo", "sig"):
        assert (got[field] == want[field]).all(), field


@pytest.mark.parametrize("precision", ["double", "float"])
def test_a_mixed_batch_of_cuda_tensors_equals_host_arrays(torch, precision):
    # GPU pairs replay graphs captured after the gather, keyed by the luminance rule: a batch
    # that switches between uint8 and float tensors, gray and colour, two shapes and a reference
    # given twice in a row must score as its host arrays do, bit for bit. A graph that kept an
    # earlier pair's inputs, or the other luminance rule, would give another score.
    pairs = []
    for i, (h, w, channels, dtype) in enumerate([
            (H, W, None, np.uint8), (H, W, None, np.float32), (97, 61, 3, np.uint8),
            (H, W, None, np.float32), (97, 61, None, np.uint8), (H, W, None, np.uint8),
            (97, 61, 3, np.uint8), (H, W, 3, np.uint8), (97, 61, None, np.float64)]):
        ref = textured(h, w, 300 + i, channels, dtype)
        pairs.append((ref, textured(h, w, 400 + i, channels, dtype)))
        if i % 3 == 0:  # the same reference again, against another distorted image
            pairs.append((ref, textured(h, w, 500 + i, channels, dtype)))
    refs, dists = [r for r, _ in pairs], [d for _, d in pairs]
    want = mad.score_batch(refs, dists, backend="cuda", precision=precision)
    on_gpu = {id(a): torch.from_numpy(a).cuda() for a in refs + dists}
    got = mad.score_batch([on_gpu[id(a)] for a in refs], [on_gpu[id(a)] for a in dists],
                          backend="cuda", precision=precision)
    assert got["ok"].all()
    for field in ("mad", "hi", "lo", "sig"):
        assert (got[field] == want[field]).all(), field


def test_a_pair_on_two_gpus_is_refused(torch):
    if torch.cuda.device_count() < 2:
        pytest.skip("one GPU")
    a = torch.zeros((40, 40), dtype=torch.uint8, device="cuda:0")
    with pytest.raises(ValueError, match="reference is on GPU 0 and distorted on GPU 1"):
        mad.score(a, a.to("cuda:1"))


def test_unit_float_tensors_need_data_range(torch):
    ref, dist = textured(H, W, 9, None, np.float32), textured(H, W, 10, None, np.float32)
    r, d = torch.from_numpy(ref / 255).cuda(), torch.from_numpy(dist / 255).cuda()
    with pytest.raises(ValueError, match="data_range=1"):
        mad.score(r, d)
    got = mad.score(r, d, data_range=1)
    assert same(got, mad.score(ref / 255 * np.float32(255), dist / 255 * np.float32(255),
                               backend="cuda"))


def test_reference_pairs_torch_vs_paths(torch):
    refs = sorted(REFERENCE.glob("*_512.png"))[:1]
    dists = sorted(REFERENCE.glob(refs[0].stem + "__*.png"))[:4]
    want = mad.score_batch([refs[0]] * len(dists), dists, backend="cuda")
    tensors = [torch.from_numpy(mad.load_gray(p)).cuda() for p in [refs[0]] + dists]
    got = mad.score_batch([tensors[0]] * len(dists), tensors[1:])
    assert (got["mad"] == want["mad"]).all() and (got["hi"] == want["hi"]).all()


def test_mad_torch_matches_host_and_copies_no_images(torch):
    import mad.torch
    n = 64
    x = torch.rand((n, 3, H, W), device="cuda")
    y = (x + 0.05 * torch.randn_like(x)).clamp(0, 1)
    torch.cuda.synchronize()
    h2d0, d2h0 = mad.gpu_transfer_counters()
    scores = mad.torch.mad(y, x)
    h2d1, d2h1 = mad.gpu_transfer_counters()
    assert scores.shape == (n,) and scores.device == y.device
    # No image bytes either way: only the 16 bytes of sums per pair come back.
    assert h2d1 - h2d0 == 0 and d2h1 - d2h0 == 16 * n
    print("PYTHON: mad.torch.mad on %d x 3 x %d x %d CUDA tensors: host->device %d bytes, "
          "device->host %d bytes (%d per pair: the two sums)"
          % (n, H, W, h2d1 - h2d0, d2h1 - d2h0, (d2h1 - d2h0) // n))
    u8 = lambda t: (t * 255).round().clamp(0, 255).to(torch.uint8).permute(0, 2, 3, 1).cpu().numpy()
    host = mad.score_batch(list(u8(x[:4])), list(u8(y[:4])), backend="cuda")
    assert (scores[:4].cpu().numpy() == host["mad"]).all()


@pytest.mark.parametrize("precision", ["double", "float"])
def test_mad_torch_layouts_match_host(torch, precision):
    # mad.torch describes a CUDA batch's images itself (one pointer and the strides per image):
    # channels-last memory, a strided slice, gray with quantize=False and uint8 input with
    # quantize=False each score as their images do from host arrays, bit for bit.
    import mad.torch
    n = 5
    g = torch.Generator(device="cuda").manual_seed(3)
    x = torch.rand((2 * n, 3, 120, 94), device="cuda", generator=g)
    y = (x + 0.05 * torch.randn(x.shape, device="cuda", generator=g)).clamp(0, 1)
    u8 = lambda t: (t * 255).round().clamp(0, 255).to(torch.uint8)
    host = lambda t: [a for a in t.permute(0, 2, 3, 1).cpu().numpy()]
    gray = lambda t: [a[..., 0] for a in host(t)]

    def check(scores, refs, dists, **kw):
        want = mad.score_batch(refs, dists, backend="cuda", precision=precision, **kw)
        assert (scores.cpu().numpy() == want["mad"]).all()

    last = mad.torch.mad(y.contiguous(memory_format=torch.channels_last),
                         x.contiguous(memory_format=torch.channels_last), precision=precision)
    check(last, host(u8(x)), host(u8(y)))
    sliced = mad.torch.mad(y[::2], x[::2], precision=precision)
    check(sliced, host(u8(x[::2])), host(u8(y[::2])))
    plain = mad.torch.mad(y[:, :1], x[:, :1], quantize=False, precision=precision)
    check(plain, [255.0 * a for a in gray(x[:, :1].double())],
          [255.0 * a for a in gray(y[:, :1].double())])
    raw = mad.torch.mad(u8(y)[1::2], u8(x)[1::2], quantize=False, precision=precision)
    check(raw, host(u8(x)[1::2]), host(u8(y)[1::2]))


def test_cupy_uint16_matches_host():
    cupy = pytest.importorskip("cupy")
    ref, dist = textured(H, W, 7, None, np.uint16, 65535), textured(H, W, 8, None, np.uint16, 65535)
    for precision in ("double", "float"):
        got = mad.score(cupy.asarray(ref), cupy.asarray(dist), precision=precision)
        assert same(got, mad.score(ref, dist, backend="cuda", precision=precision))


def test_cupy_matches_host():
    cupy = pytest.importorskip("cupy")
    ref, dist = textured(H, W, 5), textured(H, W, 6)
    want = mad.score(ref, dist, backend="cuda")
    assert same(mad.score(cupy.asarray(ref), cupy.asarray(dist)), want)
    assert same(mad.score(cupy.asarray(ref)[::-1], cupy.asarray(dist)[::-1]),
                mad.score(ref[::-1], dist[::-1], backend="cuda"))
    stream = cupy.cuda.Stream(non_blocking=True)
    with stream:
        r, d = cupy.asarray(ref).astype(cupy.float32), cupy.asarray(dist).astype(cupy.float32)
        got = mad.score(r, d)
    assert same(got, mad.score(ref.astype(np.float32), dist.astype(np.float32), backend="cuda"))


def test_video_of_cuda_clips_matches_host_clips(torch):
    """mad.video.score on T x H x W CUDA tensors (copied to the host a frame at a time) gives the
    numpy clip's rows and pooled figures bit for bit, ST-MAD included."""
    rng = np.random.default_rng(40)
    ref = rng.integers(0, 256, (36, 48, 64)).astype(np.uint8)
    dist = np.clip(ref.astype(np.int64) + rng.integers(-25, 26, ref.shape), 0, 255).astype(np.uint8)
    want = mad.video.score(ref, dist, stmad=True, backend="cuda")
    got = mad.video.score(torch.from_numpy(ref).cuda(), torch.from_numpy(dist).cuda(), stmad=True,
                          backend="cuda")
    for key in ("mad", "hi", "lo"):
        assert np.array_equal(getattr(got, key), getattr(want, key)), key
    assert (got.smad, got.tmad, got.stmad) == (want.smad, want.tmad, want.stmad)
