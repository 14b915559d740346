// resources_of (launch_resources_cuda.h): function attributes and the occupancy calculator.
#include "common/launch_resources_cuda.h"

#include "common/cuda_check.h"

namespace mad::cuda {

KernelResources resources_of(const LaunchRecord& launch) {
  KernelResources r;
  r.kernel = launch.kernel;
  r.block = launch.block;
  r.block_threads = static_cast<int>(launch.block.count());
  r.dynamic_smem_bytes = launch.dynamic_smem_bytes;
  r.launches = 1;
  r.threads_launched = launch.grid.count() * launch.block.count();
  cudaFuncAttributes attributes{};
  MAD_CUDA_CHECK(cudaFuncGetAttributes(&attributes, launch.kernel));
  r.registers = attributes.numRegs;
  r.static_smem_bytes = attributes.sharedSizeBytes;
  MAD_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
      &r.active_blocks_per_sm, launch.kernel, r.block_threads, launch.dynamic_smem_bytes));
  int device = 0, max_threads_per_sm = 0, warp = 0;
  MAD_CUDA_CHECK(cudaGetDevice(&device));
  MAD_CUDA_CHECK(cudaDeviceGetAttribute(&max_threads_per_sm,
                                        cudaDevAttrMaxThreadsPerMultiProcessor, device));
  MAD_CUDA_CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, device));
  // Warps are allocated whole: a 48-thread block holds two warps of an SM's slots.
  const int warps_per_block = (r.block_threads + warp - 1) / warp;
  r.occupancy_pct = max_threads_per_sm > 0 ? 100.0 * r.active_blocks_per_sm * warps_per_block *
                                                 warp / max_threads_per_sm
                                           : 0.0;
  return r;
}

std::vector<KernelResources> resources_of(const std::vector<LaunchRecord>& launches) {
  std::vector<KernelResources> out;
  for (const LaunchRecord& l : launches) {
    bool merged = false;
    for (KernelResources& k : out) {
      if (k.kernel != l.kernel || k.block.x != l.block.x || k.block.y != l.block.y ||
          k.block.z != l.block.z || k.dynamic_smem_bytes != l.dynamic_smem_bytes)
        continue;
      ++k.launches;
      k.threads_launched += l.grid.count() * l.block.count();
      merged = true;
      break;
    }
    if (!merged) out.push_back(resources_of(l));
  }
  return out;
}

}  // namespace mad::cuda
