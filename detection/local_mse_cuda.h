// The local-MSE, map and pooling kernels of the CUDA detection stage (spec §3.7-3.8).
//
// The 16x16 box of the local MSE is split across two passes, each fused with a neighbour:
//  1. launch_dst_load: per pixel of the distorted image, its luminance (the FFT's input) and
//     the HORIZONTAL box sum of the squared raw differences, Σ_{j=-7..8} Δ²(y, x+j);
//  2. launch_map_reduce: the VERTICAL box sum over those row sums gives D_loc, η = ξ·D_loc is
//     written to map.HI (optional) and Σ η² over the crop is reduced per CUDA block;
//  3. launch_sum_partials: one CUDA block adds the per-block partials in a fixed order.
// Box sums, η and the pooled sum are double in both precisions (spec §7: float box sums lose
// too much). Every reduction has a fixed order: the same input gives the same bits, with or
// without the map.
//
// All launches are asynchronous on `stream` and allocate nothing. No CUDA syntax here.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace mad::detection::gpu {

// d_lum_dst = luminance of d_dst_raw (launch_luminance's rule) and d_row_sums(y,x) =
// Σ_{j=-7..8} (ref - dst)²(y, mirror(x+j)) of the raw values, all images width x height.
template <class Real>
void launch_dst_load(const Real* d_ref_raw, const Real* d_dst_raw, int width, int height,
                     bool uint8_luminance, const Real* d_table, Real* d_lum_dst, double* d_row_sums,
                     cudaStream_t stream);

// Number of partial sums launch_map_reduce writes for this shape.
std::size_t map_reduce_partial_count(int width, int height);

// D_loc = (Σ_{i=-7..8} d_row_sums(mirror(y+i), x)) / 256; η = ξ(tile of (y,x))·D_loc with ξ from
// d_mask (BlockGrid rows x cols) and 0 outside the tiles; d_map_or_null(y,x) = η when non-null
// (every pixel is written); d_partials[k] = Σ η² over the crop pixels of CUDA block k.
template <class Real>
void launch_map_reduce(const double* d_row_sums, const Real* d_mask, int width, int height,
                       Real* d_map_or_null, double* d_partials, cudaStream_t stream);

// *d_sum = Σ d_partials[0..count) in a fixed order, on one CUDA block.
void launch_sum_partials(const double* d_partials, std::size_t count, double* d_sum,
                         cudaStream_t stream);

}  // namespace mad::detection::gpu
