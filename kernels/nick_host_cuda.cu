// The Nick variant table and host entry point (kernels/nick.h, kernels/nick_cuda.h).
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

const VariantTable<NickLaunch>& nick_variant_table() {
  using namespace nick_detail;
  static const VariantTable<NickLaunch> table(
      "nick",
      {
          {"method1_16x16", launch_global_16, "method 1: window from global memory, 16x16 blocks"},
          {"method1_32x32", launch_global_32, "method 1: window from global memory, 32x32 blocks"},
          {"method2_16x16", launch_tile_16, "method 2: block tile in shared memory, 16x16 blocks"},
          {"method2_32x32", launch_tile_32, "method 2: block tile in shared memory, 32x32 blocks"},
          {"method3_16x16", launch_tile3x3_16,
           "method 3: tile and its 8 neighbours in shared memory, 16x16"},
          {"method3_32x32", launch_tile3x3_32,
           "method 3: tile and its 8 neighbours in shared memory, 32x32"},
          {"integral", launch_integral,
           "O(1) per pixel from exact uint64 integral images of p and p^2"},
      },
      "integral");
  return table;
}

std::vector<VariantInfo> nick_variants() {
  return nick_variant_table().infos();
}

void nick_cuda(ImageView<const std::uint8_t> gray, const NickParams& params,
               ImageView<std::uint8_t> mask, const CudaRunOptions& options) {
  validate_nick_input(gray, params);
  if (mask.width != gray.width || mask.height != gray.height)
    throw InvalidArgument("nick: mask size differs from the image size");
  const auto& row = nick_variant_table().find(options.variant);
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
