// Timing of one registered convolution variant (kernels/convolve.h) on the device, for the seed
// 001 studies (tools/bench/studies_seed001_convolution.cpp). CUDA-free header.
//
// Method as kernel_bench.h's: the float input is uploaded once into several device copies that
// consecutive launches rotate through (together about twice the L2, at most options.max_copies),
// the filter is uploaded once before the launches (to global and constant memory), then
// `warmup` untimed and `repeats` timed launches, back to back, by the one GPU timer. Kernel time
// only. Synchronous; throws GpuError without a device or backend, InvalidArgument for a bad
// filter or block shape.
#pragma once

#include <string>

#include "common/image.h"
#include "kernels/convolve.h"
#include "tools/bench/kernel_bench.h"

namespace mad::bench {

KernelTiming bench_convolve(ImageView<const float> src, const kernels::ConvolveFilter& filter,
                            const std::string& variant, kernels::BlockShape block,
                            const KernelBenchOptions& options = {});

}  // namespace mad::bench
