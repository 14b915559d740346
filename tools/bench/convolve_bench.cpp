// bench_convolve (tools/bench/convolve_bench.h) in a build without the CUDA backend: a GpuError
// (the studies note it and go on). With the backend it is in convolve_bench_cuda.cu.
#ifndef MAD_HAVE_CUDA

#include "common/error.h"
#include "tools/bench/convolve_bench.h"

namespace mad::bench {

KernelTiming bench_convolve(ImageView<const float>, const kernels::ConvolveFilter&,
                            const std::string&, kernels::BlockShape, const KernelBenchOptions&) {
  throw GpuError("bench convolve: this build has no CUDA backend (use --backend cpu)");
}

KernelTiming bench_convolve(ImageView<const std::uint8_t>, const kernels::ConvolveFilter&,
                            const std::string&, kernels::BlockShape, const KernelBenchOptions&) {
  throw GpuError("bench convolve: this build has no CUDA backend (use --backend cpu)");
}

}  // namespace mad::bench

#endif  // MAD_HAVE_CUDA
