// The Nick host entry point (kernels/nick.h); the variants are registered in
// kernels/nick_variants.cpp.
#include "common/cuda_check.h"
#include "kernels/device_image_cuda.h"
#include "kernels/nick_launch_cuda.h"

namespace mad::kernels {

namespace nick_detail {
void check_launch(ImageView<const std::uint8_t> src, const NickParams& params,
                  ImageView<std::uint8_t> mask) {
  validate_nick_input(src, params);  // field checks only; never dereferences device memory
  if (mask.data == nullptr || mask.width != src.width || mask.height != src.height)
    throw InvalidArgument("nick: device mask must have the image's size");
}
}  // namespace nick_detail

void nick_cuda(ImageView<const std::uint8_t> gray, const NickParams& params,
               ImageView<std::uint8_t> mask, const CudaRunOptions& options) {
  validate_nick_input(gray, params);
  if (mask.width != gray.width || mask.height != gray.height)
    throw InvalidArgument("nick: mask size differs from the image size");
  const auto& row = nick_variants().find(options.variant);
  require_device("nick");
  run_image_kernel(
      gray, mask, options.poison, nick_scratch_bytes(gray.width, gray.height),
      [&](ImageView<const std::uint8_t> in, ImageView<std::uint8_t> out, DeviceScratch scratch,
          cudaStream_t stream) { row.launch(in, params, out, scratch, stream); });
}

Image<std::uint8_t> nick_cuda(ImageView<const std::uint8_t> gray, const NickParams& params,
                              const CudaRunOptions& options) {
  validate_nick_input(gray, params);
  Image<std::uint8_t> out(gray.width, gray.height);
  nick_cuda(gray, params, out.view(), options);
  return out;
}

}  // namespace mad::kernels
