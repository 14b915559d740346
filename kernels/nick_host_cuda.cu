// The Nick host entry point (kernels/nick.h); the variants are registered in
// kernels/variant_tables.cpp.
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
  run_registered_kernel(nick_variants(), "nick", "nick: mask size differs from the image size",
                        gray, params, mask, options, nick_scratch_bytes(gray.width, gray.height));
}

Image<std::uint8_t> nick_cuda(ImageView<const std::uint8_t> gray, const NickParams& params,
                              const CudaRunOptions& options) {
  validate_nick_input(gray, params);
  return image_filled_by(
      gray, [&](ImageView<std::uint8_t> mask) { nick_cuda(gray, params, mask, options); });
}

}  // namespace mad::kernels
