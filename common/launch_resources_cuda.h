// The resources of the kernels a launch log recorded (common/launch_log.h), from the CUDA
// runtime: cudaFuncGetAttributes (registers per thread, static shared memory per block) and
// cudaOccupancyMaxActiveBlocksPerMultiprocessor for the launch's block and dynamic shared
// memory, on the current device. CUDA-only header (no nvcc syntax).
#pragma once

#include <vector>

#include "common/launch_log.h"

namespace mad::cuda {

// One launch's resources (launches = 1, threads_launched = grid x block).
KernelResources resources_of(const LaunchRecord& launch);

// The distinct launch configurations (kernel, block, dynamic shared memory) of `launches`, in
// order of first launch, each with its launch count and threads summed. Throws GpuError when
// the runtime refuses a query.
std::vector<KernelResources> resources_of(const std::vector<LaunchRecord>& launches);

}  // namespace mad::cuda
