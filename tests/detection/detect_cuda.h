// detect_cuda: one synchronous pass of the CUDA detection stage over a host image pair (upload,
// run, read back), the GPU counterpart of detect_cpu, for the tests that hold the stage to it.
// Pipelines keep a DetectionStageCuda per shape instead (mad/backends/pair_slot_cuda.cu), so this
// lives with the tests. Host code of a CUDA build; header-only, included by *_cuda_test.cpp alone.
#pragma once

#include <cstring>
#include <string>

#include "common/compute_target.h"
#include "common/cuda_check.h"
#include "common/cuda_resources.h"
#include "common/error.h"
#include "detection/detection.h"
#include "detection/detection_stage_cuda.h"

namespace mad::detection {
namespace detect_cuda_detail {

// Packs a (possibly padded) view into pinned staging as Real, row by row.
template <class Real>
inline void stage_pixels(ImageView<const double> view, cuda::PinnedBuffer<Real>& staging) {
  for (int y = 0; y < view.height; ++y) {
    const double* src = view.row(y);
    Real* dst = staging.get() + static_cast<std::size_t>(y) * view.width;
    for (int x = 0; x < view.width; ++x) dst[x] = static_cast<Real>(src[x]);
  }
}

template <class Real>
inline DetectionResult detect_with(ImageView<const double> ref, ImageView<const double> dst,
                            bool uint8_luminance, bool want_map, const BlockStatsRow& stats) {
  const int w = ref.width, h = ref.height;
  if (dst.width != w || dst.height != h)
    throw InvalidArgument("detect_cuda: reference " + std::to_string(w) + "x" + std::to_string(h) +
                          " and distorted " + std::to_string(dst.width) + "x" +
                          std::to_string(dst.height) + " differ in size");
  const std::size_t n = static_cast<std::size_t>(w) * h;
  cuda::Stream stream;
  DetectionStageCuda<Real> stage(w, h, stream.get(), stats);  // checks the minimum size

  cuda::PinnedBuffer<Real> host_ref(n), host_dst(n), host_map(want_map ? n : 0);
  cuda::PinnedBuffer<double> host_sum(1);
  stage_pixels(ref, host_ref);
  stage_pixels(dst, host_dst);
  cuda::DeviceBuffer<Real> d_ref(n), d_dst(n), d_map(want_map ? n : 0);
  cuda::DeviceBuffer<double> d_sum(1);
  MAD_CUDA_CHECK(cudaMemcpyAsync(d_ref.get(), host_ref.get(), n * sizeof(Real),
                                 cudaMemcpyHostToDevice, stream.get()));
  MAD_CUDA_CHECK(cudaMemcpyAsync(d_dst.get(), host_dst.get(), n * sizeof(Real),
                                 cudaMemcpyHostToDevice, stream.get()));
  stage.run(d_ref.get(), d_dst.get(), uint8_luminance, d_sum.get(),
            want_map ? d_map.get() : nullptr, stream.get());
  MAD_CUDA_CHECK(cudaMemcpyAsync(host_sum.get(), d_sum.get(), sizeof(double),
                                 cudaMemcpyDeviceToHost, stream.get()));
  if (want_map)
    MAD_CUDA_CHECK(cudaMemcpyAsync(host_map.get(), d_map.get(), n * sizeof(Real),
                                   cudaMemcpyDeviceToHost, stream.get()));
  stream.synchronize();  // the final read-back

  DetectionResult result;
  result.d_detect = d_detect_from_sum_sq(host_sum.get()[0], w, h);
  if (want_map) {
    result.map = Image<double>(w, h);
    for (std::size_t i = 0; i < n; ++i)
      result.map.data()[i] = static_cast<double>(host_map.get()[i]);
  }
  return result;
}

}  // namespace detect_cuda_detail

// ref, dst and the flags as detect_cpu's; `stats`: the block-statistics row the stage runs.
// Throws InvalidArgument for mismatched or too small images, GpuError for CUDA failures.
inline DetectionResult detect_cuda(ImageView<const double> ref, ImageView<const double> dst,
                                   bool uint8_luminance, bool want_map, Precision precision,
                                   const BlockStatsRow& stats) {
  using detect_cuda_detail::detect_with;
  if (precision == Precision::Float)
    return detect_with<float>(ref, dst, uint8_luminance, want_map, stats);
  return detect_with<double>(ref, dst, uint8_luminance, want_map, stats);
}
// The same for a --det-variant name ("" = default), which becomes its row here, the test's
// front door (an unknown name throws InvalidArgument).
inline DetectionResult detect_cuda(ImageView<const double> ref, ImageView<const double> dst,
                                   bool uint8_luminance, bool want_map,
                                   Precision precision = Precision::Double,
                                   const std::string& stats_variant = "") {
  return detect_cuda(ref, dst, uint8_luminance, want_map, precision,
                     detection_stats_variants().find(stats_variant));
}

}  // namespace mad::detection
