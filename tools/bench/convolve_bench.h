// Timing of one registered convolution variant (kernels/convolve.h) on the device, for the seed
// 001 studies (tools/bench/studies_seed001_convolution.cpp) and `mad bench`'s convolve group
// (tools/bench/group_convolve.cpp). CUDA-free header.
//
// Method as kernel_bench.h's: the input (float or 8-bit) is uploaded once into several device
// copies that consecutive launches rotate through (together about twice the L2, at most
// options.max_copies), the filter is uploaded once before the launches (to global and constant
// memory), then `warmup` untimed and `repeats` timed launches, back to back, by the one GPU timer.
// Kernel time only. Synchronous; throws GpuError without a device or backend, InvalidArgument for a
// bad filter or block shape.
#pragma once

#include <string>

#include "common/image.h"
#include "kernels/convolve.h"
#include "tools/bench/kernel_bench.h"

namespace mad::bench {

KernelTiming bench_convolve(ImageView<const float> src, const kernels::ConvolveFilter& filter,
                            const std::string& variant, kernels::BlockShape block,
                            const KernelBenchOptions& options = {});
// The 8-bit form: the filter must be an 8-bit one (non-negative integer weights).
KernelTiming bench_convolve(ImageView<const std::uint8_t> src,
                            const kernels::ConvolveFilter& filter, const std::string& variant,
                            kernels::BlockShape block, const KernelBenchOptions& options = {});

}  // namespace mad::bench
