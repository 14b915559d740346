"""MAD (Most Apparent Distortion, Larson & Chandler 2010) image quality, on the CPU or a CUDA GPU.

    import mad
    r = mad.score("ref.png", "dist.png")            # paths, numpy arrays or GPU arrays
    r.mad, r.hi, r.lo, r.sig, r.backend

    scores = mad.score_batch(refs, dists)           # numpy structured array, one row per pair
    s = mad.Scorer(backend="cuda", precision="float")  # keeps per-shape GPU plans warm

Images are file paths (PNG, JPEG, TIFF, BMP, PGM/PPM), numpy arrays HxW, HxWx3 or HxWx4 of
uint8, uint16, float32 or float64, or CUDA arrays (anything with ``__cuda_array_interface__``
or ``__dlpack__``: torch CUDA tensors, CuPy arrays) scored on their own device without a host
copy. The rules are the command line's: uint8 data has MAD's uint8 semantics (input_class
"auto" -> "uint8"), uint16 is scaled by 255/65535, floats are values on the 0..255 scale (as
MATLAB's double(imread(...))); colour becomes gray by MATLAB's rgb2gray, the alpha channel is
ignored. Bad input raises ValueError (mad.InputError), GPU failures RuntimeError (mad.GpuError).
See mad.torch for pyiqa-style NCHW tensors in [0, 1].
"""

import os
import threading

import numpy as np

from . import _inputs
from ._mad import Error, GpuError, InputError, InvalidArgument, Result, _Scorer
from ._mad import gpu_transfer_counters, supported_formats
from ._mad import load_gray as _load_gray

__all__ = ["score", "score_batch", "Scorer", "Result", "InputError", "InvalidArgument",
           "GpuError", "Error", "BATCH_DTYPE", "gpu_transfer_counters", "load_gray",
           "supported_formats"]
__version__ = "0.1.0"

#: The row type of score_batch's result.
BATCH_DTYPE = np.dtype([("mad", "f8"), ("hi", "f8"), ("lo", "f8"), ("sig", "f8"),
                        ("width", "i4"), ("height", "i4"), ("ok", "?"), ("error", "O")])


def _batch_items(images):
    """A batch as a list of images: a list/tuple as is, an N x H x W (x C) array split along
    its first axis (views, no copies; GPU arrays stay on the GPU)."""
    if isinstance(images, (list, tuple)):
        return list(images)
    if isinstance(images, np.ndarray) or hasattr(images, "__cuda_array_interface__") or \
            hasattr(images, "__dlpack__"):
        return [images[i] for i in range(len(images))]
    return list(images)


class Scorer:
    """Scores pairs with fixed options, keeping plans warm between calls (per image shape:
    FFT plans, filter banks and device buffers on the GPU).

    backend: "auto" (CUDA when built and a device is present, else CPU), "cpu" or "cuda".
    mad_version: 2011 (the published scores; d_detect x 200) or 2010.
    input_class: "auto" (uint8 for 8-bit data, double otherwise), "uint8" or "double".
    precision: "double" or "float" (GPU only; the CPU path is always double).
    maps: also return map.HI and map.LO (Result.hi_map, Result.lo_map).

    Raises ValueError for unknown option values. Not meant for concurrent use from several
    threads: calls on one Scorer are serialised.
    """

    def __init__(self, *, backend="auto", mad_version=2011, input_class="auto",
                 precision="double", maps=False):
        self._impl = _Scorer(backend, int(mad_version), input_class, precision, bool(maps))
        self._maps = bool(maps)
        self._lock = threading.Lock()

    @property
    def backend(self):
        """The backend "auto" resolves to on this machine: "cpu" or "cuda"."""
        return self._impl.backend

    def score(self, ref, dist):
        """Scores one pair -> mad.Result. The GIL is released while scoring."""
        keep = []
        r, d = _inputs.to_input(ref, keep), _inputs.to_input(dist, keep)
        with self._lock:
            return self._impl.score(r, d)

    def score_batch(self, refs, dists, *, errors="raise"):
        """Scores pairs refs[i], dists[i] (lists, or N x H x W (x C) arrays) through the batch
        engine (on the GPU, one pair's upload overlaps another's compute, and a reference
        shared by consecutive pairs is prepared once). Returns a numpy structured array of
        BATCH_DTYPE, one row per pair, in order.

        errors: "raise" (default) raises ValueError naming the first pair MAD refused (after
        scoring the others); "record" leaves such rows with ok=False, NaN scores and the
        message in `error`. Ctrl-C stops between pairs (KeyboardInterrupt).
        """
        if errors not in ("raise", "record"):
            raise ValueError("errors must be 'raise' or 'record' (got %r)" % (errors,))
        if self._maps:
            raise ValueError("score_batch returns no maps: use Scorer.score with maps=True")
        keep = []
        refs = [_inputs.to_input(x, keep) for x in _batch_items(refs)]
        dists = [_inputs.to_input(x, keep) for x in _batch_items(dists)]
        with self._lock:
            results = self._impl.score_many(refs, dists)
        out = np.zeros(len(results), dtype=BATCH_DTYPE)
        for i, r in enumerate(results):
            if isinstance(r, str):
                if errors == "raise":
                    raise InputError("pair %d: %s" % (i, r))
                out[i] = (np.nan, np.nan, np.nan, np.nan, 0, 0, False, r)
            else:
                out[i] = (r.mad, r.hi, r.lo, r.sig, r.width, r.height, True, None)
        return out


def load_gray(path):
    """The gray plane MAD scores for an image file (path or PathLike): uint8 HxW for 8-bit
    files (colour by MATLAB's rgb2gray), float64 on the 0..255 scale for 16-bit ones."""
    return _load_gray(os.fspath(path))


_scorers = {}
_scorers_lock = threading.Lock()


def _shared_scorer(**options):
    key = tuple(sorted(options.items()))
    with _scorers_lock:
        if key not in _scorers:
            if len(_scorers) >= 8:
                _scorers.pop(next(iter(_scorers)))
            _scorers[key] = Scorer(**options)
        return _scorers[key]


def score(ref, dist, *, backend="auto", mad_version=2011, input_class="auto", precision="double",
          maps=False):
    """MAD of one (reference, distorted) pair -> mad.Result (mad, hi, lo, sig, width, height,
    backend, precision, mad_version, input_class; hi_map/lo_map as numpy arrays when maps=True).

    ref, dist: paths, numpy arrays (HxW, HxWx3, HxWx4; uint8, uint16, float32, float64; any
    strides) or CUDA arrays (torch, CuPy: scored on their device, ordered after their stream's
    pending work, no host copy). Options as in mad.Scorer; the scorer behind this function is
    kept (per set of options), so repeated calls reuse its plans.
    """
    return _shared_scorer(backend=backend, mad_version=mad_version, input_class=input_class,
                          precision=precision, maps=maps).score(ref, dist)


def score_batch(refs, dists, *, backend="auto", mad_version=2011, input_class="auto",
                precision="double", errors="raise"):
    """MAD of many pairs -> numpy structured array (BATCH_DTYPE: mad, hi, lo, sig, width,
    height, ok, error). See Scorer.score_batch."""
    return _shared_scorer(backend=backend, mad_version=mad_version, input_class=input_class,
                          precision=precision, maps=False).score_batch(refs, dists, errors=errors)
