// Device helpers for kernels that number their threads linearly across the whole grid and
// walk the image as one flat array of pixels (the seed 000 mapping, its Listing 2: thread
// ((blockIdx.y * gridDim.x + blockIdx.x) * threads per block) + thread in block, then a step
// of the grid's thread count). Works for any 1-D or 2-D grid of 1-D or 2-D blocks.
#pragma once

namespace mad::kernels {

// This thread's number in the grid, consecutive within a block (row-major in 2-D blocks) and
// from block to block in row-major grid order.
__device__ __forceinline__ long long flat_thread_index() {
  const long long block = static_cast<long long>(blockIdx.y) * gridDim.x + blockIdx.x;
  return block * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x + threadIdx.x;
}

// Threads in the grid: the step of a grid-stride loop.
__device__ __forceinline__ long long grid_thread_count() {
  return static_cast<long long>(gridDim.x) * gridDim.y * blockDim.x * blockDim.y;
}

// Position (y, x) of flat pixel index i = y * width + x, advanced by a fixed stride with no
// division in the loop. Only positions with i < width * height are meaningful.
struct PixelWalk {
  int width, y, x, dy, dx;
  __device__ PixelWalk(long long i, long long stride, int w)
      : width(w),
        y(static_cast<int>(i / w)),
        x(static_cast<int>(i % w)),
        dy(static_cast<int>(stride / w)),
        dx(static_cast<int>(stride % w)) {}
  __device__ void advance() {
    x += dx;
    y += dy;
    if (x >= width) {
      x -= width;
      ++y;
    }
  }
};

}  // namespace mad::kernels
