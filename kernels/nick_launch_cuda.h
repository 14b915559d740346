// What the Nick variants' launch functions (nick_window_cuda.cu, nick_integral_cuda.cu,
// registered in kernels/variant_tables.cpp) share. Internal, CUDA-only.
#pragma once

#include "kernels/nick_cuda.h"

namespace mad::kernels::nick_detail {

// Shape and parameter checks shared by every launch.
void check_launch(ImageView<const std::uint8_t> src, const NickParams& params,
                  ImageView<std::uint8_t> mask);

}  // namespace mad::kernels::nick_detail
