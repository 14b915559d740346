"""mad.Scorer: fixed options and warm plans over the C++ scorer, batches as numpy rows."""

import operator
import threading

import numpy as np

from . import _inputs
from ._mad import InputError, InvalidArgument, _Scorer

#: The row type of score_batch's result.
BATCH_DTYPE = np.dtype([("mad", "f8"), ("hi", "f8"), ("lo", "f8"), ("sig", "f8"),
                        ("width", "i4"), ("height", "i4"), ("ok", "?"), ("error", "O")])


def _batch_items(images):
    """A batch as an iterable of images: an N x H x W (x C) array split along its first axis
    (views, no copies; GPU arrays stay on the GPU), anything else as it is (lists, tuples,
    generators: a generator is consumed one pair at a time)."""
    if isinstance(images, (str, bytes)) or hasattr(images, "__fspath__"):
        raise InvalidArgument("refs and dists are sequences of images (got one path, %r)"
                              % (images,))
    if isinstance(images, np.ndarray) or _inputs.is_gpu(images):
        return [images[i] for i in range(len(images))]
    return images


def _zip_exact(refs, dists):
    if hasattr(refs, "__len__") and hasattr(dists, "__len__") and len(refs) != len(dists):
        raise InvalidArgument("refs and dists differ in length (%d and %d)"
                              % (len(refs), len(dists)))
    refs, dists, end, n = iter(refs), iter(dists), object(), 0
    while True:
        ref, dist = next(refs, end), next(dists, end)
        if ref is end and dist is end:
            return
        if ref is end or dist is end:
            raise InvalidArgument("refs and dists differ in length (%s ran out after %d pairs)"
                                  % ("refs" if ref is end else "dists", n))
        n += 1
        yield ref, dist


def _split_pairs(pairs):
    """One iterable of (ref, dist) pairs (zip(refs, dists), a DataLoader of batch_size=None)
    as the pairs it holds; an item that is not a pair of two is refused by its number."""
    if isinstance(pairs, (str, bytes)) or hasattr(pairs, "__fspath__"):
        raise InvalidArgument("score_batch(pairs) takes an iterable of (ref, dist) pairs "
                              "(got one path, %r)" % (pairs,))
    if isinstance(pairs, np.ndarray) or _inputs.is_gpu(pairs):
        raise InvalidArgument("score_batch with one argument takes (ref, dist) pairs, not an "
                              "array of images: pass score_batch(refs, dists)")
    for n, item in enumerate(pairs):
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise InvalidArgument("score_batch(pairs): item %d is not a (ref, dist) pair (got %s)"
                                  % (n, type(item).__name__ if not isinstance(item, (tuple, list))
                                     else "%d items" % len(item)))
        yield item[0], item[1]


def _pairs(refs, dists, data_range):
    """What _Scorer.score_many takes: (ref, dist, keep) per pair, where `keep` holds the GPU
    arrays' producers until the pair is collected, or the message of a pair refused here.
    dists None: refs is one iterable of (ref, dist) pairs."""
    for ref, dist in _split_pairs(refs) if dists is None else _zip_exact(refs, dists):
        keep = []
        try:
            pair = (_inputs.to_input(ref, keep, data_range, "reference"),
                    _inputs.to_input(dist, keep, data_range, "distorted"), keep)
        except InputError as e:
            pair = str(e)
        yield pair


def _rows(results):
    out = np.zeros(len(results), dtype=BATCH_DTYPE)
    for i, r in enumerate(results):
        if isinstance(r, str):
            out[i] = (np.nan, np.nan, np.nan, np.nan, 0, 0, False, r)
        else:
            out[i] = (r.mad, r.hi, r.lo, r.sig, r.width, r.height, True, None)
    return out


def _threads(threads):
    if threads is None:
        return 0
    value = operator.index(threads)
    if isinstance(threads, bool) or not 1 <= value <= 65536:
        raise InvalidArgument("threads must be between 1 and 65536 (got %r); leave it out to use "
                              "every core" % (threads,))
    return value


class Scorer:
    """Scores pairs with fixed options, keeping plans warm between calls (per image shape:
    FFT plans, filter banks and device buffers on the GPU).

    The scoring keywords are the command line's scoring options that have a Python spelling
    (the table in mad/scoring_options.cpp; docs/cli.md lists them):

    backend: "auto" (CUDA when built and a device is present, else CPU), "cpu" or "cuda";
        resolved once, here (Scorer.backend, Scorer.backend_reason).
    mad_version: 2011 (the published scores; d_detect x 200), 2010 or "stmad" (x 10, the
        scale of ST-MAD's per-frame HI).
    input_class: "auto" (uint8 for 8-bit data, double otherwise), "uint8" or "double".
    precision: "double" or "float" (float needs the CUDA backend: refused on the CPU).

    and the scorer's own:

    maps: also return map.HI and map.LO (Result.hi_map, Result.lo_map).
    threads: the CPU backend's worker threads for this scorer's work (default: every core);
        other scorers, on other threads, keep their own. Refused on CUDA.

    Raises TypeError for an unknown keyword or a value of the wrong type, ValueError
    (mad.InvalidArgument) for unknown option values and for options that would do nothing on
    the backend. Not meant for concurrent use from several threads: calls
    on one Scorer are serialised.
    """

    def __init__(self, *, maps=False, threads=None, **options):
        # The C++ side checks each keyword and value against the table (TypeError, ValueError).
        self._impl = _Scorer(options, bool(maps), _threads(threads))
        self._maps = bool(maps)
        self._lock = threading.Lock()

    @property
    def backend(self):
        """The backend this scorer uses: "cpu" or "cuda"."""
        return self._impl.backend

    @property
    def backend_reason(self):
        """Why (the command line's backend_reason): "requested", "auto: CUDA device found
        (...)", "auto: no CUDA device" or "auto: built without CUDA"."""
        return self._impl.backend_reason

    def score(self, ref, dist, *, data_range=None):
        """Scores one pair -> mad.Result. The GIL is released while scoring.

        data_range: the value of white in the arrays (scikit-image's name). Default: MAD's 255,
        and a float image whose maximum is at most 1 raises ValueError (it would score as
        almost black). data_range=1 scores [0, 1] floats exactly as the same array x 255.
        """
        data_range = _inputs.check_data_range(data_range)
        keep = []
        r = _inputs.to_input(ref, keep, data_range, "reference")
        d = _inputs.to_input(dist, keep, data_range, "distorted")
        with self._lock:
            return self._impl.score(r, d)

    def score_batch(self, refs, dists=None, *, errors="raise", data_range=None):
        """Scores pairs refs[i], dists[i] through the batch engine (on the GPU, one pair's
        upload overlaps another's compute, and a reference shared by consecutive pairs is
        prepared once). refs, dists: lists, N x H x W (x C) arrays, or iterables such as
        generators (consumed one pair at a time; each GPU array is held until its pair is
        scored). Or one iterable of (ref, dist) pairs, dists left out: zip(refs, dists), a
        list of tuples, a torch DataLoader with batch_size=None. Returns a numpy structured
        array of BATCH_DTYPE, one row per pair, in order.

        errors: "raise" (default) raises ValueError naming the first pair MAD refused (after
        scoring the others), with every row on its `rows` attribute (the refused ones ok=False),
        so nothing scored is lost; "record" returns those rows instead, with ok=False, NaN
        scores and the message in `error`. data_range: as in Scorer.score.

        Ctrl-C stops between pairs and raises KeyboardInterrupt once the pairs taken are
        finished; so does any exception raised while the batch runs (by a generator, or a
        data_range refusal). Its `rows` attribute holds the rows of the pairs before it, in
        order (BATCH_DTYPE, refused pairs recorded): resume with refs[len(e.rows):].
        """
        if errors not in ("raise", "record"):
            raise ValueError("errors must be 'raise' or 'record' (got %r)" % (errors,))
        if self._maps:
            raise ValueError("score_batch returns no maps: use Scorer.score with maps=True")
        data_range = _inputs.check_data_range(data_range)
        if dists is not None:
            refs, dists = _batch_items(refs), _batch_items(dists)
        return self._score_pairs(_pairs(refs, dists, data_range), errors)

    def _score_pairs(self, pairs, errors):
        """score_batch on pairs already described for the C++ scorer (as _pairs yields them:
        (ref, dist, keep) or a refusal's message); mad.torch builds them itself."""
        with self._lock:
            results, stopped = self._impl.score_many(pairs)
        rows = _rows(results)
        if stopped is not None:
            stopped.rows = rows
            raise stopped
        if errors == "raise":
            for i, r in enumerate(results):
                if isinstance(r, str):
                    refused = InputError("pair %d: %s" % (i, r))
                    refused.rows = rows  # the other pairs' scores, kept as Ctrl-C keeps them
                    raise refused
        return rows
