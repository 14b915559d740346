"""pyiqa-style entry point: ``mad.torch.mad(dist, ref)`` on NCHW tensors: floats in [0, 1],
uint8 on 0..255, or another range named by data_range.

    import mad.torch
    scores = mad.torch.mad(dist, ref)   # was: pyiqa.create_metric('mad')(dist, ref)

Differences from pyiqa's MAD: the scores are the original's (the 2011 release, bit for bit
with the C++ and command-line results, not pyiqa's approximation); colour becomes gray by
MATLAB's rgb2gray on the 8-bit values; float images are quantised to 8 bits first (they are
taken to come from 8-bit files, as ToTensor() gives), so MAD's uint8 rules apply; a float
tensor above 1 is refused with advice rather than clipped (mad._tensor_scale). CUDA tensors
are scored on their device and current stream with no host copy of the images. No gradient.
MAD is not symmetric: the order is pyiqa's (dist, ref), and ref= and dist= name them.
"""

import numpy as np
import torch

from . import _shared_scorer
from ._inputs import check_data_range
from ._tensor_scale import factor_to_255


def _prepared(x, quantize, data_range, name):
    """The NCHW tensor on MAD's 0..255 scale (mad._tensor_scale's rules): quantised to uint8
    (round, clamped), or float64."""
    if x.dim() != 4:
        raise ValueError("%s: expected an NCHW tensor (got %d dimensions)" % (name, x.dim()))
    channels = x.shape[1]
    if channels not in (1, 3, 4):
        raise ValueError("%s: expected 1, 3 or 4 channels (got %d)" % (name, channels))
    kind = ("uint8" if x.dtype == torch.uint8 else "float" if x.is_floating_point()
            else "integer")
    factor = factor_to_255(kind, lambda: float(x.max()) if x.numel() else 0.0, data_range, name,
                           str(x.dtype))
    if factor is None:  # uint8: 0..255 already
        return x
    if quantize:
        return (x * factor).round_().clamp_(0, 255).to(torch.uint8)
    return x.to(torch.float64) * factor


def _views(x):
    """H x W (x C) views with channel-last strides, no copy (numpy arrays for CPU tensors)."""
    views = [x[i, 0] if x.shape[1] == 1 else x[i].permute(1, 2, 0) for i in range(x.shape[0])]
    return views if x.is_cuda else [np.asarray(v.numpy()) for v in views]


_TYPESTR = {torch.uint8: "|u1", torch.float32: "<f4", torch.float64: "<f8"}


def _described(x):
    """Each image of a CUDA NCHW tensor as the C++ scorer's GPU input: an H x W (x C) view with
    channel-last strides, in the form mad._inputs makes of a view's __cuda_array_interface__,
    built once for the whole batch. Through the views, that property (evaluated several times
    per image) and a stream query per image took host time enough that 64 RGB 512x384 pairs
    scored at 2101-2534 pairs/s in either precision, where the C++ batch does 3531 (double) and
    6087 (float); described here, 2613-2648 and 2970-3220 (one H200, two runs; issue 26). The
    rest of the gap was the device pairs' eager launches (mad/backends/pair_slot_cuda.cu now replays
    graphs for them): 3253 and 5569-5641 against 3509-3511 and 6047-6073."""
    item = x.element_size()
    n, channels, height, width = x.shape
    s_image, s_channel, s_row, s_col = (s * item for s in x.stride())
    shape = (height, width) if channels == 1 else (height, width, channels)
    strides = (s_row, s_col) if channels == 1 else (s_row, s_col, s_channel)
    stream = int(torch.cuda.current_stream(x.device).cuda_stream)
    base, device, typestr = x.data_ptr(), x.device.index, _TYPESTR[x.dtype]
    return [{"data": base + i * s_image, "typestr": typestr, "shape": shape,
             "strides": strides, "device": device, "stream": stream} for i in range(n)]


def mad(dist, ref, *, quantize=True, backend="auto", precision="double", mad_version=2011,
        data_range=None):
    """MAD of each pair (dist[i], ref[i]) -> float64 tensor of N scores on dist's device.

    dist, ref: NCHW tensors (C = 1, 3 or 4; alpha ignored), on the CPU or one CUDA device;
    positional in pyiqa's order, or by name: mad(ref=r, dist=d). uint8 tensors are on 0..255
    (torchvision.io.read_image); float tensors on [0, 1] (ToTensor()), and one whose maximum is
    above 1 is refused unless data_range is given. data_range: the value of white, as in
    mad.score (255 for floats on 0..255; needed for integer dtypes other than uint8).
    quantize=False scores the values on 0..255 as they are (MAD's "double" input class); on
    the GPU that needs gray (C = 1) input. precision: "double" or "float", the GPU's arithmetic
    ("float" is refused where the CPU backend scores, as the command line refuses it).
    backend, mad_version: as in mad.Scorer. Raises ValueError for bad shapes or options.
    """
    if dist.shape != ref.shape:
        raise ValueError("dist is %s but ref is %s; MAD needs images of the same size"
                         % (tuple(dist.shape), tuple(ref.shape)))
    if dist.device != ref.device:
        raise ValueError("dist and ref are on different devices (%s, %s)" % (dist.device, ref.device))
    data_range = check_data_range(data_range)
    with torch.no_grad():
        dist_t = _prepared(dist.detach(), quantize, data_range, "dist")
        ref_t = _prepared(ref.detach(), quantize, data_range, "ref")
        scorer = _shared_scorer(backend=backend, mad_version=mad_version, input_class="auto",
                                precision=precision, maps=False)
        # The images are on MAD's 0..255 scale now, whatever their maximum.
        if dist_t.is_cuda and dist_t.dtype in _TYPESTR and ref_t.dtype in _TYPESTR:
            # Described here at once; each pair keeps both tensors (the quantised copies, or
            # the caller's own) alive until it is collected.
            keep = [dist_t, ref_t]
            pairs = ((r, d, keep) for r, d in zip(_described(ref_t), _described(dist_t)))
            rows = scorer._score_pairs(pairs, "raise")
        else:  # CPU tensors, and CUDA dtypes mad._inputs accepts or refuses by its own rules
            rows = scorer.score_batch(_views(ref_t), _views(dist_t), data_range=255)
    return torch.from_numpy(rows["mad"].copy()).to(dist.device)
