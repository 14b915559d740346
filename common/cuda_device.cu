#include "common/cuda_resources.h"

namespace mad::cuda {

bool device_available() {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no device" error so later checks stay clean
    return false;
  }
  return count > 0;
}

}  // namespace mad::cuda
