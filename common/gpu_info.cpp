#include "common/gpu_info.h"

#include <utility>

#ifdef MAD_HAVE_CUDA
#include <cuda_runtime.h>

#include "common/cuda_resources.h"
#endif

// The device queries of a CUDA build in one file, C++ behind the build switch (no kernels):
// cuda::device_available (common/cuda_resources.h) too, which the device code's own checks use.
namespace mad {

#ifdef MAD_HAVE_CUDA
namespace cuda {
bool device_available() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error so later checks stay clean
    return false;
  }
  return count > 0;
}
}  // namespace cuda

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

namespace {
// cudaMemGetInfo of the current device; {0, 0} without a driver or device, the error cleared
// (no device is not an error of a later CUDA call).
std::pair<std::size_t, std::size_t> device_memory_info() {
  std::size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) {
    cudaGetLastError();
    return {0, 0};
  }
  return {free_b, total_b};
}
}  // namespace

std::size_t gpu_memory_used_bytes() {
  if (!gpu_device_available()) return 0;
  const auto [free_b, total_b] = device_memory_info();
  return total_b - free_b;
}

std::size_t gpu_free_memory_bytes() {
  return device_memory_info().first;
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
std::size_t gpu_free_memory_bytes() {
  return 0;
}
#endif

}  // namespace mad
