#include "common/gpu_info.h"

#ifdef MAD_HAVE_CUDA
#include <cuda_runtime.h>

#include "common/cuda_resources.h"
#endif

namespace mad {

#ifdef MAD_HAVE_CUDA
bool gpu_backend_compiled() {
  return true;
}

bool gpu_device_available() {
  static const bool available = cuda::device_available();
  return available;
}

std::string gpu_device_description() {
  if (!gpu_device_available()) return "";
  int device = 0, driver = 0, runtime = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();
    return "";
  }
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  auto version = [](int v) {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
  };
  return std::string(prop.name) + " (sm_" + std::to_string(prop.major) +
         std::to_string(prop.minor) + ", " + std::to_string(prop.multiProcessorCount) + " SMs, " +
         std::to_string(prop.totalGlobalMem >> 20) + " MiB, driver CUDA " + version(driver) +
         ", runtime " + version(runtime) + ")";
}

std::size_t gpu_memory_used_bytes() {
  if (!gpu_device_available()) return 0;
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return total_b - free_b;
}

std::string take_pending_gpu_error() {
  if (!gpu_device_available()) return "";
  const cudaError_t err = cudaGetLastError();
  return err == cudaSuccess ? ""
                            : std::string(cudaGetErrorName(err)) + ": " + cudaGetErrorString(err);
}
#else
bool gpu_backend_compiled() {
  return false;
}
bool gpu_device_available() {
  return false;
}
std::string gpu_device_description() {
  return "";
}
std::string take_pending_gpu_error() {
  return "";
}
std::size_t gpu_memory_used_bytes() {
  return 0;
}
#endif

}  // namespace mad
