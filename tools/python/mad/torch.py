"""pyiqa-style entry point: ``mad.torch.mad(dist, ref)`` on NCHW tensors in [0, 1].

    import mad.torch
    scores = mad.torch.mad(dist, ref)   # was: pyiqa.create_metric('mad')(dist, ref)

Differences from pyiqa's MAD: the scores are the original's (the 2011 release, bit for bit
with the C++ and command-line results, not pyiqa's approximation); colour becomes gray by
MATLAB's rgb2gray on the 8-bit values; the images are quantised to 8 bits first (they are
taken to come from 8-bit files, as ToTensor() gives), so MAD's uint8 rules apply. CUDA tensors
are scored on their device and current stream with no host copy of the images. No gradient.
MAD is not symmetric: the order is pyiqa's (dist, ref), and ref= and dist= name them.
"""

import numpy as np
import torch

from . import _shared_scorer


def _quantize(x):
    """[0, 1] floats -> uint8 on the tensor's own device (round(255 x), clamped)."""
    return (x * 255.0).round_().clamp_(0, 255).to(torch.uint8)


def _images(x, quantize, name):
    if x.dim() != 4:
        raise ValueError("%s: expected an NCHW tensor (got %d dimensions)" % (name, x.dim()))
    channels = x.shape[1]
    if channels not in (1, 3, 4):
        raise ValueError("%s: expected 1, 3 or 4 channels (got %d)" % (name, channels))
    if quantize:
        x = _quantize(x)
    elif x.is_floating_point():
        x = x.to(torch.float64) * 255.0
    # H x W (x C) views: channel-last strides, no copy.
    views = [x[i, 0] if channels == 1 else x[i].permute(1, 2, 0) for i in range(x.shape[0])]
    if not x.is_cuda:
        views = [np.asarray(v.numpy()) for v in views]
    return views


def mad(dist, ref, *, quantize=True, backend="auto", precision="double", mad_version=2011):
    """MAD of each pair (dist[i], ref[i]) -> float64 tensor of N scores on dist's device.

    dist, ref: NCHW tensors with values in [0, 1] (C = 1, 3 or 4; alpha ignored), on the CPU
    or one CUDA device; positional in pyiqa's order, or by name: mad(ref=r, dist=d).
    quantize=False scores the values 255 x as they are (MAD's "double" input class); on the
    GPU that needs gray (C = 1) input. precision: "double" or "float", the GPU's arithmetic
    ("float" is refused where the CPU backend scores, as the command line refuses it).
    backend, mad_version: as in mad.Scorer. Raises ValueError for bad shapes or options.
    """
    if dist.shape != ref.shape:
        raise ValueError("dist is %s but ref is %s; MAD needs images of the same size"
                         % (tuple(dist.shape), tuple(ref.shape)))
    if dist.device != ref.device:
        raise ValueError("dist and ref are on different devices (%s, %s)" % (dist.device, ref.device))
    with torch.no_grad():
        dist_images = _images(dist.detach(), quantize, "dist")
        ref_images = _images(ref.detach(), quantize, "ref")
        scorer = _shared_scorer(backend=backend, mad_version=mad_version, input_class="auto",
                                precision=precision, maps=False)
        # The images are on MAD's 0..255 scale now, whatever their maximum.
        rows = scorer.score_batch(ref_images, dist_images, data_range=255)
    return torch.from_numpy(rows["mad"].copy()).to(dist.device)
