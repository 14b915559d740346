"""A numpy transcription of ST-MAD's temporal parts (shared/stmad-spec.md §3.3-6), written from
the spec as a second check on mad/video/stmad.h.

The per-frame and per-slice indices come from the Python module (mad.score on arrays,
input_class="double": ST-MAD reads 8-bit frames as doubles), with mad_version=2010 so that HI is
the unscaled d_detect; the x10 of ST-MAD is applied here. Everything else is numpy: the
gradients by shifted arrays, the window sums by reshaping, the least squares by numpy's own
pseudo-inverse (an SVD, as the original's pinv; the C++ code uses a closed form instead).
"""

import math

import numpy as np

import mad

STMAD_DETECT_SCALE = 10.0  # §3.1
ALPHA_T = 3.0 / 7.0        # §5.3
WINDOW = 8                 # §4


def indices(ref, dist):
    """(d_detect x 10, d_appear) of one pair of 2-D arrays, through the module's CPU path."""
    r = mad.score(ref, dist, backend="cpu", input_class="double", mad_version=2010)
    return STMAD_DETECT_SCALE * r.hi, r.lo


def spatial(hi, lo):
    """§3.3: SMAD = MadHi^(σ/4) + MadLo^(1-σ)."""
    mad_hi, mad_lo = float(np.mean(hi)), float(np.mean(lo))
    beta1 = math.exp(-2.55 / 3.35)
    beta2 = 1.0 / (math.log(10.0) * 3.35)
    sigma = 1.0 / (1.0 + beta1 * mad_hi ** beta2)
    return {"mad_hi": mad_hi, "mad_lo": mad_lo, "sigma": sigma,
            "smad": mad_hi ** (sigma / 4.0) + mad_lo ** (1.0 - sigma)}


def _zero_extended(z):
    """Z with a row of zeros above and a column of zeros to the left (§4.2)."""
    return np.pad(z, ((1, 0), (1, 0)))


def gradients(current, previous):
    """f_x, f_y, f_t of §4.2 on cropped frames (each a 2x2 cell ending at the pixel)."""
    def parts(z):
        e = _zero_extended(z)
        z11, z10, z01, z00 = e[1:, 1:], e[1:, :-1], e[:-1, 1:], e[:-1, :-1]
        return (z10 - z11) + (z00 - z01), (z01 - z11) + (z00 - z10), z11 + z10 + z01 + z00
    dxc, dyc, sc = parts(current)
    dxp, dyp, sp = parts(previous)
    return 0.25 * dxc + 0.25 * dxp, 0.25 * dyc + 0.25 * dyp, 0.25 * sc - 0.25 * sp


def window_speeds(current, previous):
    """V = u^2 + v^2 of every 8x8 window, (u, v) = pinv(G) q (§4.3)."""
    fx, fy, ft = gradients(current, previous)
    g = -ft
    r0, c0 = fx.shape[0] // WINDOW, fx.shape[1] // WINDOW

    def wsum(a):
        return a.reshape(r0, WINDOW, c0, WINDOW).sum(axis=(1, 3))
    sxx, sxy, syy = wsum(fx * fx), wsum(fx * fy), wsum(fy * fy)
    q = np.stack([wsum(fx * g), wsum(fy * g)], axis=-1)[..., None]
    G = np.stack([np.stack([sxx, sxy], -1), np.stack([sxy, syy], -1)], -2)
    # Octave's pinv tolerance: max(size) * eps * the largest singular value.
    uv = np.linalg.pinv(G, rcond=2 * np.finfo(float).eps) @ q
    speed = uv[..., 0, 0] ** 2 + uv[..., 1, 0] ** 2
    return np.nan_to_num(speed, nan=0.0)


def gausswin(length, alpha=1.2):
    if length == 1:
        return np.ones(1)
    n = np.arange(length) - (length - 1) / 2.0
    return np.exp(-0.5 * (alpha * n / ((length - 1) / 2.0)) ** 2)


def motion_weights(ref):
    """§4.4 from the reference clip (T x H x W): m_ver, m_hor, w_row, w_col, m_row, m_col,
    and whether the reference is static (uniform weights then, as the original intends)."""
    T, H, W = ref.shape
    r0, c0 = H // WINDOW, W // WINDOW
    crop = ref[:, :WINDOW * r0, :WINDOW * c0].astype(np.float64)
    total = np.zeros((r0, c0))
    for t in range(1, T):
        total += window_speeds(crop[t], crop[t - 1])
    mean = total / (T - 1)
    m_ver, m_hor = mean.mean(axis=1), mean.mean(axis=0)
    g_r, g_c = gausswin(r0), gausswin(c0)
    w_row = m_ver ** 2 * g_r / g_r.sum()
    w_col = m_hor ** 2 * g_c / g_c.sum()
    out = {"m_ver": m_ver, "m_hor": m_hor, "w_row": w_row, "w_col": w_col,
           "m_row": float(w_row.sum()), "m_col": float(w_col.sum()), "static": False}
    if out["m_row"] == 0.0 and out["m_col"] == 0.0:
        out.update(w_row=np.full(r0, 1.0 / r0), w_col=np.full(c0, 1.0 / c0), m_row=1.0,
                   m_col=1.0, static=True)
    return out


def slice_indices(ref, dist):
    """d_appear of every column slice (H x T) and row slice (T x W) pair at 8k+4 (§5.1-5.2)."""
    T, H, W = ref.shape
    lo_col = [indices(np.ascontiguousarray(ref[:, :, 8 * k + 4].T),
                      np.ascontiguousarray(dist[:, :, 8 * k + 4].T))[1] for k in range(W // 8)]
    lo_row = [indices(np.ascontiguousarray(ref[:, 8 * k + 4, :]),
                      np.ascontiguousarray(dist[:, 8 * k + 4, :]))[1] for k in range(H // 8)]
    return np.array(lo_row), np.array(lo_col)


def stmad(ref, dist):
    """Every figure of ST-MAD for two uint8 clips of shape T x H x W (T >= 34)."""
    per_frame = [indices(ref[t], dist[t]) for t in range(ref.shape[0])]
    out = spatial([h for h, _ in per_frame], [l for _, l in per_frame])
    out["hi"] = [h for h, _ in per_frame]
    out["lo"] = [l for _, l in per_frame]
    out.update(motion_weights(ref))
    lo_row, lo_col = slice_indices(ref, dist)
    out["lo_row"], out["lo_col"] = lo_row, lo_col
    m_row, m_col = out["m_row"], out["m_col"]
    out["sts_row"] = math.log10(1000.0 * ALPHA_T + m_row) * float(np.dot(out["w_row"], lo_row)) / m_row
    out["sts_col"] = math.log10(1000.0 * ALPHA_T + m_col) * float(np.dot(out["w_col"], lo_col)) / m_col
    out["tmad"] = out["sts_row"] ** ALPHA_T + out["sts_col"] ** (1.0 - ALPHA_T)
    out["mov_index"] = m_row / (m_row + m_col)
    out["beta"] = math.log10(1.0 + out["mov_index"])
    out["stmad"] = 2.5 * math.log10(out["beta"] * out["smad"]) + out["tmad"]
    return out
