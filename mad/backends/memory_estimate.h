// How much memory one MAD pair needs, before anything is allocated: the device memory of a GPU
// pair slot (mad/backends/pair_slot_cuda.h) and the host memory of the CPU path, as functions of the
// image shape alone. Callers check them against a budget up front, so a pair too large for the
// machine is refused with a message that states its need instead of failing part-way through
// (an allocation failure deep in cuFFT, or the kernel's OOM killer on the CPU).
//
// Both models count every buffer the code allocates for the shape, with the sizes the code
// uses (W x H pixels, H x (W/2+1) half spectra, the block grid). Unit tests hold them to the
// implementation: tests/mad/memory_estimate_test.cpp measures the CPU path's peak heap and
// tests/mad/memory_estimate_cuda_test.cpp a slot's device memory on a GPU. A change to either
// path's buffers must update the model here.
//
// No CUDA types: CPU-only builds and tools include this header.
#pragma once

#include <cstddef>
#include <string>

#include "mad/options.h"

namespace mad {

// Device bytes of one GPU pair slot for a width x height pair (both stages, the upload buffers
// and the map read-back), by purpose. Every buffer is rounded up to the CUDA allocator's 2 MiB
// granularity, so the figures are upper bounds of what cudaMemGetInfo sees.
struct GpuPairMemory {
  std::size_t bank = 0;         // log-Gabor factors (5 radial quadrants, 4 angular planes): shared
                                // by the slots of a shape
  std::size_t detection = 0;    // DetectionStageCuda's own: luminance table, C_s, reference side
  std::size_t appearance = 0;   // AppearanceStageCuda's own: the reference's statistics
  std::size_t scratch = 0;      // the transient region both stages borrow (the larger one's)
  std::size_t cufft_work = 0;   // the one work area of all four cuFFT plans of the slot
  std::size_t staging = 0;      // PairSlot: uint8/double/colour uploads, widened pair, sums, maps
  std::size_t host_pinned = 0;  // page-locked host staging of one slot (host memory, not device)

  // Device bytes of one slot, the shared bank excluded.
  std::size_t slot() const { return detection + appearance + scratch + cufft_work + staging; }
  // Device bytes of `slots` slots of this shape sharing one bank.
  std::size_t device_total(int slots) const {
    return bank + static_cast<std::size_t>(slots) * slot();
  }
};

// The model of mad/backends/pair_slot_cuda.h's PairSlot<Real> (Real = double for Precision::Double,
// float for Precision::Float). The cuFFT work area is modelled as one buffer of the largest
// transform's data (appearance's batch of 4 complex planes), with an axis whose length has a
// prime factor above 127 padded to the power of two >= 2n-1 that cuFFT's Bluestein path works
// on. Throws InvalidArgument for a shape below 1x1.
GpuPairMemory estimate_gpu_pair_memory(int width, int height, Precision precision);

// Host bytes of one pair on the CPU path (mad::score with Backend::Cpu), by purpose.
struct CpuPairMemory {
  std::size_t images = 0;    // the two gray planes being scored (double)
  std::size_t caches = 0;    // per-shape state kept between pairs: C_s and the log-Gabor bank
  std::size_t working = 0;   // the two stages' workspaces: both, as the CPU backend keeps
                             // them, or the larger one for a pair too large to keep them
  bool kept = false;         // the workspaces stay for the next pair (keep_workspace)
  std::size_t overhead = 0;  // FFTW plans, thread stacks, code: a fixed allowance
  std::size_t total() const { return images + caches + working + overhead; }
};

// The model of detection/detection_cpu.cpp and appearance/appearance_cpu.cpp for `threads`
// worker threads (mad::thread_count(); the appearance stage runs one subband worker per thread,
// each with its own scratch, so the need grows with the thread count), for the workspaces kept
// across pairs up to common/workspace_cpu.h's size and freed after each stage above it.
// want_maps changes nothing while they are kept (the maps are workspace planes the result
// takes); above it, map.HI adds a plane while the appearance stage runs. Throws
// InvalidArgument for a shape below 1x1 or threads < 1.
CpuPairMemory estimate_cpu_pair_memory(int width, int height, int threads, bool want_maps);

}  // namespace mad
