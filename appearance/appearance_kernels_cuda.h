// Launchers of the appearance stage's element-wise and reduction kernels (filter multiply,
// difference accumulation, crop pooling, tile expansion), implemented in
// appearance_kernels_cuda.cu. Internal to AppearanceStageCuda; each enqueues one kernel on
// `stream` and checks the launch.
//
// CUDA-only header (needs cuda_runtime.h, carries no nvcc syntax).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "appearance/a5_variants_cuda.h"
#include "appearance/log_gabor_cuda.h"
#include "common/block_grid.h"

namespace mad::appearance::detail {

// The 4 filtered spectra of one scale: subbands[o][k] = F(k) * (G_s(k) * A_o(k)) for every
// bin k of the full M x N spectrum, o = 0..3 (planes of M*N, unshifted). F is read from the
// R2C half spectrum (M x half_width) through F(k) = conj(F(-k)) for the missing columns.
template <class Real>
void launch_filter_scale(const DeviceComplex<Real>* half_spectrum, int half_width,
                         const LogGaborBankCuda<Real>& bank, int scale,
                         DeviceComplex<Real>* subbands, cudaStream_t stream);

// eta[b] (= 0 first when `first`) += w_s * (|dstd| + 2 |dskew| + |dkurt|) for the 4
// orientations of `scale` in order (spec §4.5). ref_stats: the stage's 60-plane layout
// (std 0..19, skew 0..19, kurt 0..19); dst_stats: 12 planes (std o, skew o, kurt o of this
// scale); planes of `blocks` values.
template <class Real>
void launch_accumulate_scale(const Real* ref_stats, const Real* dst_stats, std::size_t blocks,
                             int scale, bool first, Real* eta, cudaStream_t stream);

// *sum_sq = sum over the crop rows/cols 16..n-18 of eta_lo^2 (spec §4.6), each block's value
// counted once per crop pixel of its tile. One CTA, fixed-order tree: deterministic.
template <class Real>
void launch_pool_crop(const Real* eta, const BlockGrid& grid, double* sum_sq, cudaStream_t stream);

// map (M x N, row-major, tightly packed) = each block's eta on its 4x4 tile, 0 elsewhere.
template <class Real>
void launch_expand_tiles(const Real* eta, const BlockGrid& grid, Real* map, cudaStream_t stream);

}  // namespace mad::appearance::detail
