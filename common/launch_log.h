// The launch log: which kernels one thread launched, with their launch shapes, so `mad bench`
// can report each kernel's resources (registers, shared memory, theoretical occupancy) beside
// its time. CUDA-free header: the records are plain data.
//
// Every kernel launch of kernels/, detection/, appearance/ and mad/ goes through
// mad::cuda::launch_kernel (common/kernel_launch.cuh), which appends a LaunchRecord to the
// calling thread's active log, if any, before launching. A LaunchLogScope makes its own log the
// active one for its lifetime and restores the previous one (usually none) when it ends, so a
// nested scope collects only what is launched while it is the innermost one, and nothing is
// recorded once every scope has ended. Recording is off by default and costs one thread-local
// read per launch. Launches made by libraries (cuFFT, CUB) are not recorded.
#pragma once

#include <cstddef>
#include <vector>

namespace mad {

struct LaunchDims {
  unsigned x = 1, y = 1, z = 1;
  unsigned long long count() const { return 1ull * x * y * z; }
};

// One kernel launch: the __global__ function (its host-side address, as cudaFuncGetAttributes
// takes it), the grid and block, and the dynamic shared memory asked for.
struct LaunchRecord {
  const void* kernel = nullptr;
  LaunchDims grid, block;
  std::size_t dynamic_smem_bytes = 0;
};

// The resources of one distinct launch configuration (kernel, block, dynamic shared memory),
// from the CUDA runtime's function attributes and occupancy calculator
// (common/launch_resources_cuda.h). `launches` and `threads_launched` count the records merged
// into it.
struct KernelResources {
  const void* kernel = nullptr;
  LaunchDims block;
  int block_threads = 0;
  int registers = 0;                  // per thread (cudaFuncAttributes::numRegs)
  std::size_t static_smem_bytes = 0;  // per block (cudaFuncAttributes::sharedSizeBytes)
  std::size_t dynamic_smem_bytes = 0;
  int active_blocks_per_sm = 0;  // cudaOccupancyMaxActiveBlocksPerMultiprocessor
  double occupancy_pct = 0;      // active blocks x warps per block x 32 / max threads per SM x 100
  int launches = 0;
  unsigned long long threads_launched = 0;  // grid x block, summed over the launches
};

namespace launch_log_detail {
// The active log of each thread. Defined here, inline, so that the check every launch makes is
// the one thread-local read promised above, not a call into another translation unit.
inline thread_local std::vector<LaunchRecord>* t_active_log = nullptr;
}  // namespace launch_log_detail

// The calling thread's active log: nullptr when no LaunchLogScope is open on this thread.
inline std::vector<LaunchRecord>* active_launch_log() {
  return launch_log_detail::t_active_log;
}

// Turns recording on for the calling thread for its lifetime (see above). Not copyable; use on
// the thread that launches.
class LaunchLogScope {
 public:
  LaunchLogScope();
  ~LaunchLogScope();
  LaunchLogScope(const LaunchLogScope&) = delete;
  LaunchLogScope& operator=(const LaunchLogScope&) = delete;

  const std::vector<LaunchRecord>& records() const { return records_; }

 private:
  std::vector<LaunchRecord> records_;
  std::vector<LaunchRecord>* previous_;
};

}  // namespace mad
