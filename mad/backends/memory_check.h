// Memory budgets and the up-front checks built on mad/backends/memory_estimate.h: `--gpu-memory-limit`
// values, the free memory of the host (the device's: gpu_free_memory_bytes, common/gpu_info.h), and the decisions that refuse a pair
// too large for them with a message stating its need, before anything is allocated.
//
// No CUDA types: CPU-only builds and tools include this header.
#pragma once

#include <cstddef>
#include <string>

#include "mad/memory_limits.h"
#include "mad/options.h"

namespace mad {

// Device memory left unclaimed when a slot is sized against the free memory: cuFFT plan
// descriptors, kernel modules and the context grow after the check.
constexpr std::size_t kGpuMemoryReserve = std::size_t{256} << 20;
// Pairs whose CPU-path need reaches this get a statement of it before scoring.
constexpr std::size_t kCpuMemoryStatementThreshold = std::size_t{1} << 30;

// Host memory available to a new allocation without swapping: MemAvailable of /proc/meminfo,
// else the free physical pages, at most the process's cgroup memory.max (common/allotment.h).
// 0 when none can be read (callers then skip the check).
std::size_t host_available_memory_bytes();

// The device bytes one scorer's GPU pair slots may take together, over every shape
// (mad/backends/slot_scheduler.h): --gpu-memory-limit when given (`limit`, 0: none), else the device's
// free memory less kGpuMemoryReserve, divided evenly among the `shares` scorers on that GPU
// (the engine's workers per GPU), so that the process as a whole keeps within it.
struct GpuMemoryBudget {
  std::size_t bytes = 0;       // each scorer's share (SIZE_MAX: free memory unknown, no limit)
  std::size_t limit = 0;       // --gpu-memory-limit (0: none)
  std::size_t free_bytes = 0;  // the device's free memory when planned (0: unknown)
  int shares = 1;
};
GpuMemoryBudget gpu_memory_budget(std::size_t limit, std::size_t free_bytes, int shares);
// Why a width x height pair cannot be scored within `budget` (its first slot alone needs more):
// the need, the budget and where it comes from, and whether --precision float would fit.
std::string gpu_shape_too_large(int width, int height, Precision precision,
                                const GpuMemoryBudget& budget);

// The CPU path's check: throws InputError stating the need of a width x height pair with
// `threads` threads when it exceeds `available` bytes (0: unknown, not checked), and the
// largest thread count that would fit, if any.
void require_cpu_memory(int width, int height, int threads, bool want_maps, std::size_t available);

}  // namespace mad
