// gpu_free_memory_bytes() of mad/backends/memory_check.h in a CUDA build (memory_check.cpp supplies the
// CPU-only version). Never throws: a missing driver or device reads as "unknown" (0).
#include <cuda_runtime.h>

#include "mad/backends/memory_check.h"

namespace mad {

std::size_t gpu_free_memory_bytes() {
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    cudaGetLastError();  // clear it: no device is not an error of a later CUDA call
    return 0;
  }
  return free_bytes;
}

}  // namespace mad
