#include "mad/gpu_select.h"

#include <string>

#include "common/error.h"

#ifdef MAD_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace mad {

#ifdef MAD_HAVE_CUDA

int gpu_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();  // "no device" is sticky until read; later CUDA checks must not see it
    return 0;
  }
  return count;
}

void select_gpu(int index) {
  const int count = gpu_count();
  if (index < 0 || index >= count)
    throw GpuError("GPU " + std::to_string(index) + " requested but " + std::to_string(count) +
                   " CUDA device(s) are visible");
  const cudaError_t err = cudaSetDevice(index);
  if (err != cudaSuccess) {
    cudaGetLastError();
    throw GpuError("cudaSetDevice(" + std::to_string(index) + "): " + cudaGetErrorString(err));
  }
}

#else

int gpu_count() {
  return 0;
}

void select_gpu(int index) {
  throw GpuError("GPU " + std::to_string(index) +
                 " requested but this build has no CUDA backend (CUDA toolkit not found at "
                 "configure time)");
}

#endif

}  // namespace mad
