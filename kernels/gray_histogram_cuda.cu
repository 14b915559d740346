// CUDA variants of the fused gray+histogram (kernels/gray_histogram.h), registered in
// kernels/variant_tables.cpp: the privatized-histogram kernel of
// kernels/histogram_device.cuh whose pixel source converts the RGB pixel (gray_device.cuh),
// stores it in the gray plane and hands its value to the shared histogram, so the image is
// read once (seed 000 §7: 3 reads and 1 write a pixel, plus 256 atomics a block).
#include "common/cuda_check.h"
#include "kernels/device_image_cuda.h"
#include "kernels/gray_cuda.h"
#include "kernels/gray_device.cuh"
#include "kernels/gray_histogram.h"
#include "kernels/histogram_device.cuh"

namespace mad::kernels {
namespace {

constexpr int kThreads = 256;

template <int kChannels>
struct FusedPixels {
  RgbView8 src;
  GrayWeighting weighting;
  ImageView<std::uint8_t> gray;
  __device__ unsigned operator()(int y, int x) const {
    const std::uint8_t g = gray_device::gray_at<kChannels>(src, weighting, y, x);
    *gray_device::out_at(gray, y, x) = g;
    return g;
  }
};

void check_shapes(const RgbView8& src, ImageView<std::uint8_t> gray, const std::uint32_t* bins) {
  validate_rgb(src);  // field checks only; never dereferences device memory
  validate_histogram_input(ImageView<const std::uint8_t>(gray));
  if (gray.width != src.width || gray.height != src.height || gray.pitch < gray.width)
    throw InvalidArgument("gray+histogram: device gray plane must be a " +
                          std::to_string(src.width) + "x" + std::to_string(src.height) + " image");
  if (bins == nullptr) throw InvalidArgument("gray+histogram: bins pointer is null");
}

}  // namespace

namespace gray_histogram_detail {

// 256-thread blocks over flat pixels: kPixels per thread from a dynamic grid, or (kPixels 0)
// the seed's fixed 60x45 grid.
template <bool kPerWarp, int kPixels>
void launch_fused(const RgbView8& src, GrayWeighting w, ImageView<std::uint8_t> gray,
                  std::uint32_t* bins, cudaStream_t s) {
  check_shapes(src, gray, bins);
  const dim3 grid = histogram_device::flat_grid(src.width, src.height, kPixels, kThreads);
  gray_device::with_layout(src, [&](auto ch) {
    histogram_device::launch_privatized<kThreads, kPerWarp, true>(
        grid, dim3(kThreads), src.width, src.height, FusedPixels<decltype(ch)::value>{src, w, gray},
        bins, s);
  });
}

#define INSTANTIATE(W, P)                                                                   \
  template void launch_fused<W, P>(const RgbView8&, GrayWeighting, ImageView<std::uint8_t>, \
                                   std::uint32_t*, cudaStream_t);
INSTANTIATE(false, 1)
INSTANTIATE(true, 1)
INSTANTIATE(false, 10)
INSTANTIATE(true, 10)
INSTANTIATE(false, 30)
INSTANTIATE(true, 30)
INSTANTIATE(false, 0)
INSTANTIATE(true, 0)
#undef INSTANTIATE

}  // namespace gray_histogram_detail

Histogram gray_histogram_cuda(const RgbView8& rgb, GrayWeighting weighting,
                              ImageView<std::uint8_t> gray, const CudaRunOptions& options) {
  validate_rgb(rgb);
  if (gray.width != rgb.width || gray.height != rgb.height)
    throw InvalidArgument("gray+histogram: gray size differs from the input size");
  const auto& row = gray_histogram_variants().find(options.variant);
  require_device("gray+histogram");
  cuda::DeviceBuffer<std::uint32_t> bins(kHistogramBins);
  Histogram h{};
  run_gray_kernel(rgb, gray, options.poison,
                  [&](const RgbView8& src, ImageView<std::uint8_t> dst, cudaStream_t s) {
                    MAD_CUDA_CHECK(cudaMemsetAsync(bins.get(), options.poison, bins.bytes(), s));
                    row.launch(src, weighting, dst, bins.get(), s);
                    MAD_CUDA_CHECK(cudaMemcpyAsync(h.data(), bins.get(), bins.bytes(),
                                                   cudaMemcpyDeviceToHost, s));
                  });
  return h;
}

}  // namespace mad::kernels
