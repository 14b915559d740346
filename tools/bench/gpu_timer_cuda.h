// The one GPU timer of `mad bench` (STYLE rule 14; CUDA builds only). Every device measurement
// of tools/bench goes through time_gpu: kernel variants, block statistics, the stages, cuFFT
// and host<->device copies.
//
// Method: `warmup` untimed runs, then `runs` timed runs, each bracketed by its own pair of CUDA
// events on the caller's stream. Before every run, `prepare` (untimed: restoring an input the
// run overwrites) and, with flush_l2, a write of twice the L2's size, so the run finds none of
// its data in the cache. A caller whose inputs are larger than the L2 can instead rotate input
// copies: launch(i) gets the run's index i = 0 .. warmup + runs - 1.
//
// By default every timed run is synchronized before the next is enqueued, so its events
// bracket exactly one run. back_to_back enqueues all timed runs and synchronizes once: for
// kernels of a few microseconds, where the host's launch latency would otherwise be timed.
// Synchronous (it is a benchmark); the statistics follow measurement.h's one rule.
//
// The kernels the first call launches through mad::cuda::launch_kernel on the calling thread
// are recorded (common/launch_log.h) and returned in Measurement::kernels with their registers,
// shared memory and theoretical occupancy on the current device.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <functional>

#include "tools/bench/measurement.h"

namespace mad::bench {

struct GpuTimerOptions {
  int warmup = 3;             // untimed runs first (clocks, caches, module loading)
  int runs = 21;              // timed runs (>= 1)
  bool flush_l2 = false;      // write 2 x L2 bytes before every timed run
  bool back_to_back = false;  // enqueue every timed run, then synchronize once
};

Measurement time_gpu(cudaStream_t stream, const GpuTimerOptions& options,
                     const std::function<void(int)>& launch,
                     const std::function<void()>& prepare = {});

// The current device's L2 size in bytes.
std::size_t l2_cache_bytes();

}  // namespace mad::bench
