"""MAD (Most Apparent Distortion, Larson & Chandler 2010) image quality, on the CPU or a CUDA GPU.

    import mad
    r = mad.score("ref.png", "dist.png")            # paths, numpy arrays or GPU arrays
    r.mad, r.hi, r.lo, r.sig, r.backend, r.to_dict()

    scores = mad.score_batch(refs, dists)           # numpy structured array, one row per pair
    s = mad.Scorer(backend="cuda", precision="float")  # keeps per-shape GPU plans warm

Images are file paths (PNG, JPEG, TIFF, BMP, PGM/PPM), numpy arrays HxW, HxWx3 or HxWx4 of
uint8, uint16, float32 or float64, or CUDA arrays (anything with ``__cuda_array_interface__``
or ``__dlpack__``: torch CUDA tensors, CuPy arrays) scored on their own device without a host
copy. The rules are the command line's: uint8 data has MAD's uint8 semantics (input_class
"auto" -> "uint8"), uint16 is scaled by 255/65535, floats are values on the 0..255 scale (as
MATLAB's double(imread(...))): pass data_range=1 for floats in [0, 1]. Colour becomes gray by
MATLAB's rgb2gray, the alpha channel is ignored. Bad input raises ValueError (mad.InputError,
mad.InvalidArgument), GPU failures RuntimeError (mad.GpuError). See mad.torch for pyiqa-style
NCHW tensors in [0, 1], and docs/python.md.
"""

import os as _os
import threading as _threading

from ._mad import Error, GpuError, InputError, InvalidArgument, Result
from ._mad import gpu_transfer_counters, supported_formats
from ._mad import load_gray as _load_gray
from ._scorer import BATCH_DTYPE, Scorer
from . import video  # mad.video.score: clips (docs/video.md)

__all__ = ["score", "score_batch", "Scorer", "Result", "InputError", "InvalidArgument",
           "GpuError", "Error", "BATCH_DTYPE", "gpu_transfer_counters", "load_gray",
           "supported_formats", "video"]
__version__ = "0.1.0"


def load_gray(path):
    """The gray plane MAD scores for an image file (path or PathLike): uint8 HxW for 8-bit
    files (colour by MATLAB's rgb2gray), float64 on the 0..255 scale for 16-bit ones."""
    return _load_gray(_os.fspath(path))


_scorers = {}
_scorers_lock = _threading.Lock()


def _shared_scorer(**options):
    key = tuple(sorted(options.items()))
    with _scorers_lock:
        if key not in _scorers:
            if len(_scorers) >= 8:
                _scorers.pop(next(iter(_scorers)))
            _scorers[key] = Scorer(**options)
        return _scorers[key]


def score(ref, dist, *, maps=False, threads=None, data_range=None, **options):
    """MAD of one (reference, distorted) pair -> mad.Result (mad, hi, lo, sig, width, height,
    backend, backend_reason, precision, mad_version, input_class; hi_map/lo_map as numpy
    arrays when maps=True; to_dict() for the command line's JSON fields).

    ref, dist: paths, numpy arrays (HxW, HxWx3, HxWx4; uint8, uint16, float32, float64; any
    strides) or CUDA arrays (torch, CuPy: scored on their device, ordered after their stream's
    pending work, no host copy). data_range: the value of white (default 255, MAD's scale; a
    float image with maximum <= 1 raises ValueError unless it is given). Other options as in
    mad.Scorer (backend, mad_version, input_class, precision: the scoring keywords); the scorer
    behind this function is kept (per set of options), so repeated calls reuse its plans.
    """
    return _shared_scorer(maps=maps, threads=threads, **options).score(
        ref, dist, data_range=data_range)


def score_batch(refs, dists=None, *, threads=None, errors="raise", data_range=None, **options):
    """MAD of many pairs -> numpy structured array (BATCH_DTYPE: mad, hi, lo, sig, width,
    height, ok, error). refs and dists, or one iterable of (ref, dist) pairs. See
    Scorer.score_batch (generators, errors=, Ctrl-C and e.rows)."""
    return _shared_scorer(maps=False, threads=threads, **options).score_batch(
        refs, dists, errors=errors, data_range=data_range)
