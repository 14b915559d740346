// The CUDA devices this process sees, and which one a thread works on: the many-pair engine
// binds each worker thread to its device before it builds its scorer (the current device is
// per thread), and the Python module finds the device an array lives on. Implemented in
// mad/engine/gpu_select.cpp. CPU-only code can call these; without the CUDA backend there are
// no devices.
#pragma once

namespace mad {

// Number of CUDA devices visible to this process (0 without the CUDA backend or a driver).
int gpu_count();

// Makes device `index` (0-based) current for the calling thread. Throws GpuError when the
// index is out of range or the runtime refuses, and always without the CUDA backend.
void select_gpu(int index);

// The calling thread's current device (0 without the CUDA backend). Throws GpuError when the
// runtime refuses.
int current_gpu();

// The device whose memory `pointer` points into. Throws InputError when it is not device
// memory (host or unregistered), GpuError without the CUDA backend.
int gpu_of_pointer(const void* pointer);

}  // namespace mad
