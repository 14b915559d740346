// The CUDA entry points of kernels/ in a build without the CUDA backend: the variants are
// registered (their names validate) but asking to run one is a GpuError with a clear message
// (the CLI maps it to exit code 4). With the backend these are defined in the *_cuda.cu files
// instead.
#ifndef MAD_HAVE_CUDA

#include "common/error.h"
#include "kernels/gray.h"
#include "kernels/gray_histogram.h"
#include "kernels/histogram.h"
#include "kernels/kernel_chain.h"
#include "kernels/nick.h"
#include "kernels/smooth.h"

namespace mad::kernels {
void gray_cuda(const RgbView8&, GrayWeighting, ImageView<std::uint8_t>, const CudaRunOptions&) {
  throw_no_cuda_backend("gray");
}
Image<std::uint8_t> gray_cuda(const RgbView8&, GrayWeighting, const CudaRunOptions&) {
  throw_no_cuda_backend("gray");
}
Histogram gray_histogram_cuda(const RgbView8&, GrayWeighting, ImageView<std::uint8_t>,
                              const CudaRunOptions&) {
  throw_no_cuda_backend("gray+histogram");
}
Histogram histogram_cuda(ImageView<const std::uint8_t>, const CudaRunOptions&) {
  throw_no_cuda_backend("histogram");
}
void smooth_cuda(ImageView<const std::uint8_t>, int, ImageView<std::uint8_t>, const CudaRunOptions&,
                 SmoothBorder) {
  throw_no_cuda_backend("smooth");
}
Image<std::uint8_t> smooth_cuda(ImageView<const std::uint8_t>, int, const CudaRunOptions&,
                                SmoothBorder) {
  throw_no_cuda_backend("smooth");
}
void nick_cuda(ImageView<const std::uint8_t>, const NickParams&, ImageView<std::uint8_t>,
               const CudaRunOptions&) {
  throw_no_cuda_backend("nick");
}
Image<std::uint8_t> nick_cuda(ImageView<const std::uint8_t>, const NickParams&,
                              const CudaRunOptions&) {
  throw_no_cuda_backend("nick");
}
ChainOutput run_chain_cuda(const std::vector<KernelKind>&, const RawImage8&, const ChainParams&,
                           ChainTransfers) {
  throw_no_cuda_backend("kernel chain");
}

}  // namespace mad::kernels

#endif  // MAD_HAVE_CUDA
