// The kernel timing entries (tools/bench/kernel_bench.h) in a build without the CUDA backend:
// asking to time a variant is a GpuError with a clear message (the CLI maps it to exit code 4).
// With the backend they are defined in kernel_bench_cuda.cu instead.
#ifndef MAD_HAVE_CUDA

#include <string>

#include "common/error.h"
#include "tools/bench/kernel_bench.h"

namespace mad::bench {
KernelTiming bench_gray(const kernels::RgbView8&, kernels::GrayWeighting, const std::string&,
                        const KernelBenchOptions&) {
  throw_no_cuda_backend("bench gray");
}
KernelTiming bench_gray_histogram(const kernels::RgbView8&, kernels::GrayWeighting,
                                  const std::string&, const KernelBenchOptions&) {
  throw_no_cuda_backend("bench gray+histogram");
}
KernelTiming bench_histogram(ImageView<const std::uint8_t>, const std::string&,
                             const KernelBenchOptions&) {
  throw_no_cuda_backend("bench histogram");
}
KernelTiming bench_smooth(ImageView<const std::uint8_t>, int, const std::string&,
                          const KernelBenchOptions&, kernels::SmoothBorder) {
  throw_no_cuda_backend("bench smooth");
}
KernelTiming bench_nick(ImageView<const std::uint8_t>, const kernels::NickParams&,
                        const std::string&, const KernelBenchOptions&) {
  throw_no_cuda_backend("bench nick");
}

}  // namespace mad::bench

#endif  // MAD_HAVE_CUDA
