// GPU availability as seen from CPU-only code (no CUDA headers). In a build without the CUDA
// backend every function reports "no GPU".
#pragma once

#include <cstddef>
#include <string>

namespace mad {

// True when the CUDA backend was compiled into this build.
bool gpu_backend_compiled();
// True when the backend was compiled and a CUDA device is usable.
bool gpu_device_available();
// Name, driver and runtime versions of the current device ("" without one).
std::string gpu_device_description();
// Device memory in use on the current device (total - free), 0 without a device.
std::size_t gpu_memory_used_bytes();
// Free memory of the current device (cudaMemGetInfo), 0 without a driver or device. It does
// not ask gpu_device_available first: a scorer sizing its slots has a device already.
std::size_t gpu_free_memory_bytes();
// Returns and clears a pending CUDA error ("" when none or without CUDA).
std::string take_pending_gpu_error();

}  // namespace mad
