"""Shared fixtures for the Python module's tests (run by ctest as python.pytest)."""

import os
import pathlib

import numpy as np
import pytest

import mad

DATA = pathlib.Path(os.environ.get("MAD_TEST_DATA_DIR",
                                   pathlib.Path(__file__).resolve().parents[1] / "data"))
REFERENCE = DATA / "reference" / "images"


@pytest.fixture(scope="session")
def cli():
    """The `mad` executable of the same build (the C++ API behind a command line)."""
    path = os.environ.get("MAD_BINARY")
    if not path or not os.path.exists(path):
        pytest.skip("MAD_BINARY not set (run through ctest)")
    return path


def textured(height, width, seed, channels=None, dtype=np.uint8, top=255):
    """A seeded image with structure (a ramp plus noise), as `dtype` in 0..top."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width]
    base = (x * 3 + y * 2) % 200 + 20.0
    shape = (height, width) if channels is None else (height, width, channels)
    if channels is not None:
        base = base[..., None]
    values = np.clip(base + rng.normal(0, 20, shape), 0, 255) * (top / 255.0)
    return np.rint(values).astype(dtype) if np.dtype(dtype).kind == "u" else values.astype(dtype)


def write_pnm(path, image, maxval):
    """Binary PGM/PPM (8- or 16-bit big-endian) so the C++ file loader can be the oracle."""
    magic = b"P6" if image.ndim == 3 else b"P5"
    h, w = image.shape[:2]
    data = image.astype(">u2" if maxval > 255 else "u1").tobytes()
    pathlib.Path(path).write_bytes(b"%s\n%d %d\n%d\n" % (magic, w, h, maxval) + data)


def needs_pnm():
    return pytest.mark.skipif("pnm" not in mad.supported_formats(),
                              reason="this build reads no PGM/PPM (no stb)")


def gpu_available():
    try:
        return mad.Scorer(backend="auto").backend == "cuda"
    except Exception:
        return False
