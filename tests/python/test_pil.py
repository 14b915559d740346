"""PIL images are scored as their file is read, not by their raw array (issue 39): a palette
image by its colours, 16-bit gray by the 16-bit rule, 1-bit as 0/255; modes whose range MAD
cannot know are refused with the advice."""

import numpy as np
import pytest

import mad
from conftest import textured

Image = pytest.importorskip("PIL.Image")


def _pair(tmp_path, mode_of, save_as="png"):
    """A textured pair made into PIL images by ``mode_of`` and written to files, which the C++
    readers score as the oracle."""
    paths = []
    for name, seed, noise in (("ref", 1, 0), ("dist", 1, 30)):
        rgb = textured(48, 56, seed, 3).astype(np.int16)
        rgb = np.clip(rgb + np.random.default_rng(9).normal(0, noise, rgb.shape), 0, 255)
        image = mode_of(Image.fromarray(rgb.astype(np.uint8), "RGB"))
        path = tmp_path / ("%s.%s" % (name, save_as))
        image.save(path)
        paths.append(path)
    return paths


def _by_pil_and_by_path(paths):
    with Image.open(paths[0]) as ref, Image.open(paths[1]) as dist:
        by_pil = mad.score(ref, dist).mad
    return by_pil, mad.score(str(paths[0]), str(paths[1])).mad


def test_a_palette_image_scores_as_its_file(tmp_path):
    paths = _pair(tmp_path, lambda im: im.quantize(64))
    with Image.open(paths[0]) as ref:
        assert ref.mode == "P"
    by_pil, by_path = _by_pil_and_by_path(paths)
    assert by_pil == by_path
    with Image.open(paths[0]) as ref, Image.open(paths[1]) as dist:  # the indices differ
        assert mad.score(np.asarray(ref), np.asarray(dist)).mad != by_path


def test_gray_alpha_one_bit_and_palette_alpha_score_as_their_files(tmp_path):
    for mode_of in (lambda im: im.convert("LA"), lambda im: im.convert("1")):
        paths = _pair(tmp_path, mode_of)
        by_pil, by_path = _by_pil_and_by_path(paths)
        assert by_pil == by_path
    paths = _pair(tmp_path, lambda im: im.quantize(32))  # PNG writes no "PA": made in memory
    with Image.open(paths[0]) as ref, Image.open(paths[1]) as dist:
        with_alpha = [im.convert("PA") for im in (ref, dist)]
    assert with_alpha[0].mode == "PA"
    assert mad.score(*with_alpha).mad == mad.score(str(paths[0]), str(paths[1])).mad


def test_sixteen_bit_gray_scores_as_its_file(tmp_path):
    def sixteen(im):
        return Image.fromarray(np.asarray(im.convert("L")).astype(np.uint16) * 257)
    paths = _pair(tmp_path, sixteen)
    with Image.open(paths[0]) as ref:
        assert ref.mode in ("I", "I;16")  # Pillow's form of a 16-bit PNG depends on its version
    by_pil, by_path = _by_pil_and_by_path(paths)
    assert by_pil == by_path
    with Image.open(paths[0]) as ref, Image.open(paths[1]) as dist:
        for im in (ref, dist):
            im.load()
        as_16 = [Image.frombytes("I;16", im.size, np.asarray(im).astype("<u2").tobytes())
                 for im in (ref, dist)]
    assert mad.score(*as_16).mad == by_path


def test_modes_without_a_known_range_are_refused_with_advice():
    gray = Image.fromarray(textured(40, 40, 3))
    with pytest.raises(mad.InvalidArgument, match="mode 'F'.*data_range"):
        mad.score(gray.convert("F"), gray.convert("F"))
    with pytest.raises(mad.InvalidArgument, match="mode 'I'.*carries no bit depth"):
        mad.score(gray.convert("I"), gray.convert("I"))
    with pytest.raises(mad.InvalidArgument, match="mode 'CMYK'.*convert\\('RGB'\\)"):
        mad.score(gray.convert("CMYK"), gray.convert("CMYK"))
