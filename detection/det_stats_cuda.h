// Block statistics of the CUDA detection stage (spec §3.5, the original's `ical_std`) as
// interchangeable kernel variants (STYLE rule 5): each row of the registry is
// {name, reference launch, error launch, note}; tests and benchmarks iterate the same table.
//
// The statistics are split the way the dataset trick needs them (spec §11): the REFERENCE side
// (μ and σ_mod of L'_ref) is computed once per reference image, the ERROR side (σ_err of
// E = L'_dst - L'_ref, and from it the mask ξ of §3.6) once per distorted image.
//
// Layout: every per-block array is grid.rows x grid.cols, row-major, tightly packed
// (BlockGrid(width, height)); images are width x height, row-major, tightly packed, on the
// device. Launches are asynchronous on `stream`; nothing is allocated and nothing synchronizes.
// Images narrower or shorter than 16 have no blocks, and a launch does nothing.
//
// No CUDA syntax here: host C++ (tests, benchmarks) may include it in CUDA-enabled builds.
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <vector>

namespace mad::detection::gpu {

// μ(b) = mean of L'_ref over block b (÷256) and σ_mod(b) = min of the available unbiased 8x8
// stds at offsets {0,4}x{0,4} (edge rule of spec §3.5).
template <class Real>
using RefStatsLaunch = void (*)(const Real* d_csf_ref, int width, int height, Real* d_mean_ref,
                                Real* d_std_min_ref, cudaStream_t stream);

// σ_err(b) = unbiased std (÷255) of E = d_csf_dst - d_csf_ref over block b, E formed on the fly
// exactly as error_image_cpu does. Outputs are optional: d_std_err may be null; when d_mask is
// non-null the block's ξ (spec §3.6) is written there, which needs d_mean_ref and d_std_min_ref
// from the reference launch.
template <class Real>
using ErrStatsLaunch = void (*)(const Real* d_csf_dst, const Real* d_csf_ref, int width, int height,
                                const Real* d_mean_ref, const Real* d_std_min_ref, Real* d_std_err,
                                Real* d_mask, cudaStream_t stream);

template <class Real>
struct DetStatsVariant {
  const char* name;
  RefStatsLaunch<Real> reference;
  ErrStatsLaunch<Real> error;
  const char* note;
};

// The registry for one precision (double: the faithful mode; float: the fast mode). The two
// tables list the same names in the same order.
template <class Real>
const std::vector<DetStatsVariant<Real>>& det_stats_variants();

// The variant named `name`; the default when `name` is empty. Throws InvalidArgument for an
// unknown name (the message lists the known ones).
template <class Real>
const DetStatsVariant<Real>& find_det_stats_variant(const std::string& name);

// Launch functions of each variant (det_stats_<name>_cuda.cu), registered in
// det_stats_registry_cuda.cu.
template <class Real>
void det_original_reference(const Real*, int, int, Real*, Real*, cudaStream_t);
template <class Real>
void det_original_error(const Real*, const Real*, int, int, const Real*, const Real*, Real*, Real*,
                        cudaStream_t);
template <class Real>
void det_shared_reference(const Real*, int, int, Real*, Real*, cudaStream_t);
template <class Real>
void det_shared_error(const Real*, const Real*, int, int, const Real*, const Real*, Real*, Real*,
                      cudaStream_t);
// det-fast, templated on the group of GX x GY grid blocks per CUDA block (registered: 16x8
// and 8x8).
template <class Real, int GX, int GY>
void det_fast_reference(const Real*, int, int, Real*, Real*, cudaStream_t);
template <class Real, int GX, int GY>
void det_fast_error(const Real*, const Real*, int, int, const Real*, const Real*, Real*, Real*,
                    cudaStream_t);

}  // namespace mad::detection::gpu
