// Launch functions of the Nick variants, defined in nick_window_cuda.cu and
// nick_integral_cuda.cu and registered in nick_host_cuda.cu. Internal, CUDA-only.
#pragma once

#include "kernels/nick_cuda.h"

namespace mad::kernels::nick_detail {

// Method 1: window read from global memory.
void launch_global_16(ImageView<const std::uint8_t>, const NickParams&, ImageView<std::uint8_t>,
                      DeviceScratch, cudaStream_t);
void launch_global_32(ImageView<const std::uint8_t>, const NickParams&, ImageView<std::uint8_t>,
                      DeviceScratch, cudaStream_t);
// Method 2: the block's own tile in shared memory.
void launch_tile_16(ImageView<const std::uint8_t>, const NickParams&, ImageView<std::uint8_t>,
                    DeviceScratch, cudaStream_t);
void launch_tile_32(ImageView<const std::uint8_t>, const NickParams&, ImageView<std::uint8_t>,
                    DeviceScratch, cudaStream_t);
// Method 3: the tile and its 8 neighbours in shared memory.
void launch_tile3x3_16(ImageView<const std::uint8_t>, const NickParams&, ImageView<std::uint8_t>,
                       DeviceScratch, cudaStream_t);
void launch_tile3x3_32(ImageView<const std::uint8_t>, const NickParams&, ImageView<std::uint8_t>,
                       DeviceScratch, cudaStream_t);
// O(1) per pixel from uint64 integral images of p and p^2.
void launch_integral(ImageView<const std::uint8_t>, const NickParams&, ImageView<std::uint8_t>,
                     DeviceScratch, cudaStream_t);

// Shape and parameter checks shared by every launch.
void check_launch(ImageView<const std::uint8_t> src, const NickParams& params,
                  ImageView<std::uint8_t> mask);

}  // namespace mad::kernels::nick_detail
