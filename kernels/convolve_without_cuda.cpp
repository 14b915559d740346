// The convolution's CUDA entry points in a build without the CUDA backend: a GpuError naming
// the backend (kernels_without_cuda.cpp does the same for the other kernels).
#ifndef MAD_HAVE_CUDA

#include "common/error.h"
#include "kernels/convolve.h"

namespace mad::kernels {

void convolve_cuda(ImageView<const float>, const ConvolveFilter&, ImageView<float>,
                   const CudaRunOptions&, BlockShape) {
  throw GpuError("convolve: this build has no CUDA backend (use --backend cpu)");
}
void convolve_cuda(ImageView<const std::uint8_t>, const ConvolveFilter&, ImageView<std::uint8_t>,
                   const CudaRunOptions&, BlockShape) {
  throw GpuError("convolve: this build has no CUDA backend (use --backend cpu)");
}

}  // namespace mad::kernels

#endif  // MAD_HAVE_CUDA
