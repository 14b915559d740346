#include "mad/devices.h"

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

int current_gpu() {
  int device = 0;
  const cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess) {
    cudaGetLastError();
    throw GpuError(std::string("cudaGetDevice: ") + cudaGetErrorString(err));
  }
  return device;
}

int gpu_of_pointer(const void* pointer) {
  cudaPointerAttributes attributes{};
  const cudaError_t err = cudaPointerGetAttributes(&attributes, pointer);
  if (err != cudaSuccess) {
    cudaGetLastError();
    throw InputError(std::string("not a CUDA device pointer: ") + cudaGetErrorString(err));
  }
  if (attributes.type != cudaMemoryTypeDevice && attributes.type != cudaMemoryTypeManaged)
    throw InputError("array memory is not on a CUDA device");
  return attributes.device;
}

#else

int current_gpu() {
  return 0;
}

int gpu_of_pointer(const void*) {
  throw GpuError("GPU arrays need the CUDA backend (this build has none)");
}

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
