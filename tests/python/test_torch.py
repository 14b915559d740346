"""mad.torch.mad, pyiqa's drop-in (issue 28 §1, issue 26 item 3): argument order and names,
precision= passed through or refused as the command line refuses it. Runs on CPU tensors;
skipped without torch."""

import numpy as np
import pytest

import mad
from conftest import gpu_available, textured

torch = pytest.importorskip("torch")
import mad.torch  # noqa: E402  (needs torch)


@pytest.fixture(scope="module")
def tensors():
    ref = torch.from_numpy(np.stack([textured(40, 48, s, 3) for s in (1, 2)]))
    ref = ref.permute(0, 3, 1, 2).float() / 255
    g = torch.Generator().manual_seed(5)
    dist = (ref + 0.12 * torch.randn(ref.shape, generator=g)).clamp(0, 1)
    return dist, ref


def test_order_is_pyiqas_and_keywords_name_the_images(tensors):
    dist, ref = tensors
    scores = mad.torch.mad(dist, ref)
    assert scores.shape == (2,) and scores.dtype == torch.float64 and (scores > 1).all()
    assert torch.equal(mad.torch.mad(ref=ref, dist=dist), scores)
    assert torch.equal(mad.torch.mad(dist, ref=ref), scores)
    assert not torch.equal(mad.torch.mad(ref, dist), scores)  # MAD is not symmetric
    u8 = lambda t: (t * 255).round().clamp(0, 255).to(torch.uint8).permute(0, 2, 3, 1).numpy()
    host = mad.score_batch(list(u8(ref)), list(u8(dist)))
    assert (scores.numpy() == host["mad"]).all()


def test_float_precision_is_refused_on_the_cpu_backend(tensors):
    with pytest.raises(ValueError, match='precision="float" needs the CUDA backend'):
        mad.torch.mad(*tensors, backend="cpu", precision="float")
    if not gpu_available():
        with pytest.raises(ValueError, match='precision="float" needs the CUDA backend'):
            mad.torch.mad(*tensors, precision="float")


def test_unquantized_dark_images_are_scored(tensors):
    dist, ref = (t[:, :1] * 0.003 for t in tensors)  # maxima below 1/255: dark, not [0, 1] data
    scores = mad.torch.mad(dist, ref, quantize=False, backend="cpu")
    want = mad.score(ref[0, 0].double().numpy() * 255.0, dist[0, 0].double().numpy() * 255.0,
                     backend="cpu", data_range=255)
    assert scores[0].item() == want.mad


def test_uint8_tensors_are_on_0_255(tensors):
    # torchvision.io.read_image's tensors: multiplied by 255 they scored 198.17 for 75.39.
    dist, ref = tensors
    u8 = lambda t: (t * 255).round().clamp(0, 255).to(torch.uint8)  # noqa: E731
    assert torch.equal(mad.torch.mad(u8(dist), u8(ref)), mad.torch.mad(dist, ref))


def test_floats_above_one_are_refused_unless_data_range_names_white(tensors):
    dist, ref = tensors
    with pytest.raises(ValueError, match="above 1.*data_range=255"):
        mad.torch.mad(dist * 255, ref * 255)
    on_255 = mad.torch.mad(dist * 255, ref * 255, data_range=255)
    assert torch.equal(on_255, mad.torch.mad(dist, ref))
    assert torch.equal(mad.torch.mad(dist, ref, data_range=1), mad.torch.mad(dist, ref))
    with pytest.raises(ValueError, match="data_range must be a positive number"):
        mad.torch.mad(dist, ref, data_range=0)
    with pytest.raises(ValueError, match="int16 tensor.*data_range"):
        mad.torch.mad((dist * 255).to(torch.int16), (ref * 255).to(torch.int16))
