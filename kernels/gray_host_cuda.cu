// Host entry points of gray/darken: upload, poison, run one variant, download (kernels/gray.h).
#include "common/cuda_check.h"
#include "kernels/device_image_cuda.h"
#include "kernels/gray_cuda.h"

namespace mad::kernels {

DeviceRgb8 upload_rgb8(const RgbView8& host, cudaStream_t stream) {
  validate_rgb(host);
  DeviceRgb8 dev;
  dev.buffer = cuda::DeviceBuffer<std::uint8_t>(host.extent_bytes());
  dev.view = host;
  dev.view.data = dev.buffer.get();
  if (host.layout == RgbLayout::Interleaved) {
    MAD_CUDA_CHECK(cudaMemcpy2DAsync(dev.buffer.get(), host.pitch, host.data, host.pitch,
                                     static_cast<std::size_t>(host.width) * host.channels,
                                     host.height, cudaMemcpyHostToDevice, stream));
  } else {
    for (int c = 0; c < 3; ++c)
      MAD_CUDA_CHECK(cudaMemcpy2DAsync(dev.buffer.get() + c * host.plane_stride, host.pitch,
                                       host.data + c * host.plane_stride, host.pitch, host.width,
                                       host.height, cudaMemcpyHostToDevice, stream));
  }
  return dev;
}

void gray_cuda(const RgbView8& rgb, GrayWeighting weighting, ImageView<std::uint8_t> out,
               const CudaRunOptions& options) {
  validate_rgb(rgb);
  if (out.width != rgb.width || out.height != rgb.height)
    throw InvalidArgument("gray: output size differs from the input size");
  const auto& row = gray_variants().find(options.variant);
  require_device("gray");
  run_gray_kernel(rgb, out, options.poison,
                  [&](const RgbView8& src, ImageView<std::uint8_t> dst, cudaStream_t s) {
                    row.launch(src, weighting, dst, s);
                  });
}

Image<std::uint8_t> gray_cuda(const RgbView8& rgb, GrayWeighting weighting,
                              const CudaRunOptions& options) {
  validate_rgb(rgb);
  Image<std::uint8_t> out(rgb.width, rgb.height);
  gray_cuda(rgb, weighting, out.view(), options);
  return out;
}

}  // namespace mad::kernels
