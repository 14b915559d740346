// Memory budgets and the up-front checks built on mad/memory_estimate.h: `--gpu-memory-limit`
// values, the free memory of the device and of the host, and the decisions that refuse a pair
// too large for them with a message stating its need, before anything is allocated.
//
// No CUDA types: CPU-only builds and tools include this header.
#pragma once

#include <cstddef>
#include <string>

#include "mad/options.h"

namespace mad {

// Device memory left unclaimed when a slot is sized against the free memory: cuFFT plan
// descriptors, kernel modules and the context grow after the check.
constexpr std::size_t kGpuMemoryReserve = std::size_t{256} << 20;
// Pairs whose CPU-path need reaches this get a statement of it before scoring.
constexpr std::size_t kCpuMemoryStatementThreshold = std::size_t{1} << 30;

// "--gpu-memory-limit" values: a byte count ("1073741824") or a number with a binary unit
// ("512MiB", "1.5 GiB", "80G"; units B, K/KiB, M/MiB, G/GiB, T/TiB, case-insensitive; K, M, G
// and T mean the binary units). Throws InvalidArgument for anything else, for 0 and for
// values beyond 2^63.
std::size_t parse_memory_size(const std::string& text);
// "512 B", "3.5 MiB", "63.1 GiB".
std::string format_bytes(std::size_t bytes);

// Host memory available to a new allocation without swapping: MemAvailable of /proc/meminfo,
// else the free physical pages. 0 when neither can be read (callers then skip the check).
std::size_t host_available_memory_bytes();
// Free memory of the current CUDA device (cudaMemGetInfo); 0 in a build without CUDA or
// without a device.
std::size_t gpu_free_memory_bytes();

// How many pair slots (1..max_slots, one stream each; mad/pair_slot_cuda.h) CudaScorer gives
// a width x height shape it has not seen before. `limit` is --gpu-memory-limit in bytes for all
// slots of the shape together (0: none); `free_bytes` is gpu_free_memory_bytes() now (0:
// unknown, not checked). k slots need estimate.device_total(k) and must leave
// kGpuMemoryReserve free. With fewer slots than max_slots the shape's pairs overlap less (one
// slot: one at a time) but give the same results. When not even one slot fits, throws
// GpuError stating the need, the budget, and whether --precision float would fit.
int gpu_slots_for_shape(int width, int height, Precision precision, int max_slots,
                        std::size_t limit, std::size_t free_bytes);

// The CPU path's check: throws InputError stating the need of a width x height pair with
// `threads` threads when it exceeds `available` bytes (0: unknown, not checked), and the
// largest thread count that would fit, if any.
void require_cpu_memory(int width, int height, int threads, bool want_maps, std::size_t available);
// "a 16000x16000 pair needs about 63.0 GiB of memory on the CPU path (2 threads)" for pairs
// at or above kCpuMemoryStatementThreshold, "" below it: the CLI prints it before scoring.
std::string cpu_memory_statement(int width, int height, int threads, bool want_maps);

}  // namespace mad
