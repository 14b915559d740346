// Device code shared by the convolution kernels that stage their input in shared memory
// (convolve_cuda.cu's tile variants, convolve_regblock_cuda.cu).
#pragma once

#include <cstddef>

#include "common/image.h"

namespace mad::kernels::detail {

// Stages the tile_w x tile_h input samples whose top-left corner is image position
// (y0 - r, x0 - r) into `tile` (row-major, tile_w a row), zeros outside the image. Thread `tid`
// of a CTA of `threads` threads loads samples tid, tid + threads, ...: consecutive threads load
// consecutive columns (coalesced). The caller synchronizes before reading the tile.
template <class T>
__device__ __forceinline__ void stage_zero_padded_tile(ImageView<const T> src, int y0, int x0,
                                                       int r, int tile_w, int tile_h, int tid,
                                                       int threads, T* tile) {
  for (int i = tid; i < tile_w * tile_h; i += threads) {
    const int ty = i / tile_w, tx = i - ty * tile_w;
    const int gy = y0 + ty - r, gx = x0 + tx - r;
    const bool inside = gy >= 0 && gy < src.height && gx >= 0 && gx < src.width;
    tile[i] = inside ? src.data[static_cast<std::ptrdiff_t>(gy) * src.pitch + gx] : T(0);
  }
}

}  // namespace mad::kernels::detail
