"""MAD of every frame of a clip against its reference, and ST-MAD (issue 40; docs/video.md).

    import mad.video
    r = mad.video.score("ref.y4m", "dist.y4m", stmad=True)
    r.mad                   # numpy array: each frame's MAD (r.hi, r.lo, r.frame alike)
    r.pooled["mad"]["mean"], r.pooled["mad"]["p95"]
    r.smad, r.tmad, r.stmad  # NaN without stmad=True (TMAD, STMAD: also below 34 frames)

The clips are:
  * paths: Y4M files, or raw planar files with width=, height= and pixel_format= ("yuv420p",
    "yuv420p10le", "gray", ... as ffmpeg and vmaf name them), as ``mad video`` reads them;
  * T x H x W arrays of luma (numpy uint8, or uint16 with pixel_format="gray10le" etc. for
    the bit depth, "gray16le" by default). CUDA arrays (anything with
    ``__cuda_array_interface__`` or ``__dlpack__``: torch, CuPy) are copied to the host one
    frame at a time: the scorer reads frames from the host;
  * iterables (generators) of H x W frames, one per clip, or ``ref`` an iterable of (ref, dist)
    frame pairs and ``dist`` None. Frames are pulled as they are scored and let go: a
    generator's clip is never held whole.

Only luma is scored, on MAD's 0..255 scale (deeper samples scaled by 255 / (2^bits - 1)), in
the double input class: each frame's row equals ``mad.score(ref_frame, dist_frame,
input_class="double")``. Keywords are ``mad video``'s options (backend, mad_version,
precision, input_class, stmad, subsample, first_frame, frame_count, width, height,
pixel_format); any other raises TypeError.
"""

import math
import os
from dataclasses import dataclass, field

import numpy as np

from ._mad import InvalidArgument
from ._mad import _video_score_frames, _video_score_paths

__all__ = ["score", "VideoResult"]


@dataclass
class VideoResult:
    """One clip pair's scores. frame, mad, hi, lo: numpy arrays, one entry per frame scored
    (frame: its number in the clip). pooled: {"mad"|"hi"|"lo": {min, max, mean, harmonic_mean
    (vmaf's), p1, p5, p50, p95 (numpy's linear rule), count}}. smad, tmad, stmad: floats (NaN
    where not defined); stmad_details: the model's figures (weights, slices' LO, notes) or
    None without stmad=True."""

    frame: np.ndarray
    mad: np.ndarray
    hi: np.ndarray
    lo: np.ndarray
    pooled: dict
    smad: float
    tmad: float
    stmad: float
    stmad_details: dict
    frames_scored: int
    ref_frames: int
    dist_frames: int
    width: int
    height: int
    pixel_format: str
    fps: float
    backend: str
    backend_reason: str
    precision: str
    input_class: str
    seconds: float
    frames_per_second: float
    frames_per_second_after_first_frame: float
    seconds_to_first_frame: float
    warnings: list = field(default_factory=list)
    settings: list = field(default_factory=list)

    def rows(self):
        """The per-frame rows as vmaf's JSON log holds them: [{"frameNum", "metrics": {mad,
        mad_hi, mad_lo}}]."""
        return [{"frameNum": int(f), "metrics": {"mad": float(m), "mad_hi": float(h),
                                                 "mad_lo": float(l)}}
                for f, m, h, l in zip(self.frame, self.mad, self.hi, self.lo)]


def _result(d):
    st = d.pop("stmad")
    nan = math.nan
    return VideoResult(smad=st["smad"] if st else nan, tmad=st["tmad"] if st else nan,
                       stmad=st["stmad"] if st else nan, stmad_details=st, **d)


def _is_path(x):
    return isinstance(x, (str, bytes, os.PathLike))


def _host_frame(frame):
    """A frame as a numpy array: CUDA arrays (torch, CuPy) copied to the host."""
    if isinstance(frame, np.ndarray):
        return frame
    module = type(frame).__module__.split(".")[0]
    if module == "torch":
        return frame.detach().cpu().numpy()
    if module == "cupy":
        return frame.get()
    if hasattr(frame, "__cuda_array_interface__") or hasattr(frame, "__dlpack__"):
        raise InvalidArgument("a CUDA frame of %s: mad.video copies torch tensors and CuPy arrays "
                              "to the host; convert this one to numpy" % type(frame).__name__)
    return frame


def _frames(clip):
    """An iterator of a clip's frames on the host: the first axis of a T x H x W array, or the
    items of an iterable."""
    if isinstance(clip, np.ndarray) or hasattr(clip, "__cuda_array_interface__") or \
            hasattr(clip, "__dlpack__"):
        if len(getattr(clip, "shape", ())) != 3:
            raise InvalidArgument("a clip array is T x H x W (luma), not of shape %s"
                                  % (tuple(clip.shape),))
    return (_host_frame(f) for f in clip)


def _first(iterator, what):
    """The iterator's first item and an iterator that yields it again first."""
    try:
        item = next(iterator)
    except StopIteration:
        raise InvalidArgument("%s has no frames" % what) from None

    def again():
        yield item
        yield from iterator

    return item, again()


def _format_of(frame, pixel_format, what):
    frame = np.asarray(frame)
    if frame.ndim != 2:
        raise InvalidArgument("%s: a frame is H x W (luma), not of shape %s"
                              % (what, frame.shape))
    if frame.dtype == np.uint8:
        return frame.shape, pixel_format or "gray"
    if frame.dtype == np.uint16:
        return frame.shape, pixel_format or "gray16le"
    raise InvalidArgument("%s: frames are uint8 or uint16 luma samples, not %s"
                          % (what, frame.dtype))


def score(ref, dist=None, **options):
    """MAD of every frame of ``dist`` against ``ref`` -> VideoResult. See the module's help for
    the clips it takes and the keywords (``mad video``'s options)."""
    if _is_path(ref) or _is_path(dist):
        if not (_is_path(ref) and _is_path(dist)):
            raise InvalidArgument("give both clips as paths, or neither")
        return _result(_video_score_paths(os.fsdecode(ref), os.fsdecode(dist), options))
    pixel_format = options.pop("pixel_format", None)
    if dist is None:  # one iterable of (ref, dist) frame pairs
        pairs = ((_host_frame(r), _host_frame(d)) for r, d in ref)
        (first, _), pairs = _first(pairs, "the iterable of frame pairs")
        (height, width), pixel_format = _format_of(first, pixel_format, "ref")
        return _result(_video_score_frames(pairs, None, width, height, pixel_format, options))
    first, refs = _first(_frames(ref), "ref")
    (height, width), pixel_format = _format_of(first, pixel_format, "ref")
    return _result(_video_score_frames(refs, _frames(dist), width, height, pixel_format,
                                       options))
