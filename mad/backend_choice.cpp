#include "mad/backend_choice.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <string>

#include "common/error.h"
#include "common/gpu_info.h"

namespace mad {

ResolvedBackend::ResolvedBackend(Backend named) : kind_(named) {
  if (named == Backend::Auto)
    throw InvalidArgument(
        "the backend must be resolved (choose_backend) before it reaches a scorer; auto is "
        "chosen once, where the run starts");
}

namespace {
std::atomic<std::size_t> backend_choices{0};
}  // namespace

std::size_t backend_choices_made() {
  return backend_choices.load();
}

BackendChoice choose_backend(Backend requested) {
  ++backend_choices;
  const bool compiled = gpu_backend_compiled();
  const bool named = requested != Backend::Auto;
  if (requested == Backend::Cpu) return {ResolvedBackend(Backend::Cpu), true, compiled, "requested"};
  const bool gpu = compiled && gpu_device_available();
  if (requested == Backend::Cuda && !gpu)
    throw GpuError(compiled
                       ? "--backend cuda: no CUDA device is available"
                       : "--backend cuda: this build has no CUDA backend (CUDA toolkit not found "
                         "at configure time)");
  BackendChoice c{ResolvedBackend(gpu ? Backend::Cuda : Backend::Cpu), named, compiled, ""};
  if (named)
    c.reason = "requested";
  else if (gpu)
    c.reason = "auto: CUDA device found (" + gpu_device_description() + ")";
  else
    c.reason = compiled ? "auto: no CUDA device" : "auto: built without CUDA";
  return c;
}

double estimated_cpu_seconds(int width, int height, int threads) {
  constexpr double kSecondsPerPixel = 1.2e-6;  // one thread (H100 host: 309 ms for 512x512)
  constexpr double kGainPerThread = 0.29;      // 16 threads: 57 ms, a 5.4x speed-up
  const double speedup = 1.0 + kGainPerThread * (std::max(threads, 1) - 1);
  return static_cast<double>(width) * height * kSecondsPerPixel / speedup;
}

std::optional<BackendChoice> cpu_for_lone_pair(int width, int height, int threads) {
  if (!gpu_backend_compiled()) return std::nullopt;
  const double seconds = estimated_cpu_seconds(width, height, threads);
  if (seconds >= kLonePairCpuSeconds) return std::nullopt;
  char estimate[32];
  std::snprintf(estimate, sizeof estimate, "%.2g", seconds);
  return BackendChoice{ResolvedBackend(Backend::Cpu), false, true,
                       "auto: one " + std::to_string(width) + "x" + std::to_string(height) +
                           " pair, which the CPU (" + std::to_string(threads) +
                           " threads, about " + estimate +
                           " s) finishes before CUDA would start; --backend cuda uses the GPU"};
}

}  // namespace mad
