// The one kernel launch of the tree (device code: include from .cu files only).
//
// launch_kernel(kernel, grid, block, dynamic_smem_bytes, stream, args...) is
// kernel<<<grid, block, dynamic_smem_bytes, stream>>>(args...), after appending the launch to
// the calling thread's launch log when one is active (common/launch_log.h: `mad bench` reads
// each kernel's registers, shared memory and occupancy from it). It checks nothing: the call
// site's MAD_CUDA_CHECK_LAUNCH() follows it as it followed the <<<>>>.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "common/launch_log.h"

namespace mad::cuda {

template <class... Params, class... Args>
void launch_kernel(void (*kernel)(Params...), dim3 grid, dim3 block,
                   std::size_t dynamic_smem_bytes, cudaStream_t stream, Args&&... args) {
  if (std::vector<LaunchRecord>* log = active_launch_log())
    log->push_back({reinterpret_cast<const void*>(kernel),
                    {grid.x, grid.y, grid.z},
                    {block.x, block.y, block.z},
                    dynamic_smem_bytes});
  kernel<<<grid, block, dynamic_smem_bytes, stream>>>(std::forward<Args>(args)...);
}

}  // namespace mad::cuda
