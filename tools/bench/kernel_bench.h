// Timing of one registered kernel variant on the device, for `mad bench` (issue 5). CUDA-free
// header: plain structs in and out.
//
// Method (STYLE rule 14): the input is uploaded once into several device copies (and as many
// output buffers), so that consecutive launches rotate through more memory than the L2 holds
// and the cache does not flatter the numbers; `warmup` untimed launches, then `repeats` timed
// launches, each bracketed by its own pair of CUDA events on one stream. Only kernel time is
// measured (no transfers). The launches are timed back to back by the one GPU timer
// (gpu_timer_cuda.h). Synchronous; throws GpuError without a device or backend.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/image.h"
#include "kernels/gray.h"
#include "kernels/nick.h"
#include "kernels/smooth.h"
#include "tools/bench/measurement.h"

namespace mad::bench {

struct KernelBenchOptions {
  int warmup = 3;                // untimed launches before the timed ones
  int repeats = 20;              // timed launches (at least 1)
  std::size_t rotate_bytes = 0;  // rotate input copies until they span this many bytes;
                                 // 0 = twice the device's L2 size
  int max_copies = 64;           // upper bound on the number of copies
};

struct KernelTiming {
  std::string kernel;   // "gray", "darken", "gray+histogram", "histogram", "smooth", "nick"
  std::string variant;  // the registered name that ran (the default when none was given)
  int width = 0, height = 0, channels = 0;
  int copies = 0;    // input/output copies rotated through
  Measurement time;  // one sample per timed launch, in launch order
  // Compulsory traffic of one launch: every input byte read once, every output byte written
  // once (scratch traffic such as integral images or a padded copy is not counted).
  std::uint64_t bytes_read = 0;
  std::uint64_t bytes_written = 0;
};

KernelTiming bench_gray(const kernels::RgbView8& rgb, kernels::GrayWeighting weighting,
                        const std::string& variant, const KernelBenchOptions& options = {});
// The fused gray+histogram of seed 000 (kernels/gray_histogram.h): RGB in, gray plane and bins
// out; kernel "gray+histogram" or "darken+histogram".
KernelTiming bench_gray_histogram(const kernels::RgbView8& rgb, kernels::GrayWeighting weighting,
                                  const std::string& variant,
                                  const KernelBenchOptions& options = {});
KernelTiming bench_histogram(ImageView<const std::uint8_t> gray, const std::string& variant,
                             const KernelBenchOptions& options = {});
// `border` picks the registry the variant is looked up in (smooth_variants(border)).
KernelTiming bench_smooth(ImageView<const std::uint8_t> samples, int channels,
                          const std::string& variant, const KernelBenchOptions& options = {},
                          kernels::SmoothBorder border = kernels::SmoothBorder::Clip);
KernelTiming bench_nick(ImageView<const std::uint8_t> gray, const kernels::NickParams& params,
                        const std::string& variant, const KernelBenchOptions& options = {});

}  // namespace mad::bench
