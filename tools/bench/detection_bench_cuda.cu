// bench_detection_cuda (tools/bench/detection_bench.h): CUDA-event timings of the detection
// variants and of the whole stage.
#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "common/cuda_check.h"
#include "common/cuda_resources.h"
#include "common/error.h"
#include "detection/detection_stage_cuda.h"
#include "tools/bench/detection_bench.h"
#include "tools/bench/gpu_timer_cuda.h"

namespace mad::bench {
namespace {

DetectionBenchTiming time_launches(const std::string& name, const std::function<void()>& launch,
                                   cudaStream_t stream, int warmup, int repetitions) {
  GpuTimerOptions o;
  o.warmup = warmup;
  o.runs = repetitions;
  return {name, time_gpu(stream, o, [&](int) { launch(); })};
}

template <class Real>
std::vector<DetectionBenchTiming> bench_with(const DetectionBenchOptions& o) {
  const int w = o.width, h = o.height;
  const std::size_t n = static_cast<std::size_t>(w) * h;
  cuda::Stream stream;
  const cudaStream_t s = stream.get();

  // A seeded pair: uniform reference, distorted = reference + bounded noise, clipped.
  cuda::PinnedBuffer<Real> host(2 * n);
  std::mt19937 rng(o.seed);
  std::uniform_int_distribution<int> pixel(0, 255), noise(-20, 20);
  for (std::size_t i = 0; i < n; ++i) {
    const int r = pixel(rng);
    host.get()[i] = static_cast<Real>(r);
    host.get()[n + i] = static_cast<Real>(std::clamp(r + noise(rng), 0, 255));
  }
  cuda::DeviceBuffer<Real> raw(2 * n), map(n);
  cuda::DeviceBuffer<double> sum(1);
  MAD_CUDA_CHECK(
      cudaMemcpyAsync(raw.get(), host.get(), 2 * n * sizeof(Real), cudaMemcpyHostToDevice, s));
  const Real* ref = raw.get();
  const Real* dst = raw.get() + n;

  std::vector<DetectionBenchTiming> out;
  detection::DetectionStageCuda<Real> stage(w, h, s);
  // The stage leaves L'_ref, L'_dst, μ and σ_mod behind: realistic inputs for the variants.
  stage.run(ref, dst, true, sum.get(), nullptr, s);
  const std::size_t blocks = stage.grid().count();
  cuda::DeviceBuffer<Real> mean(blocks), std_min(blocks), std_err(blocks), mask(blocks);
  for (const auto& v : detection::detection_stats_variants().rows()) {
    const detection::gpu::BlockStatsLaunch<Real>& launch = v.launch.get<Real>();
    out.push_back(time_launches(
        std::string(v.name) + "/reference",
        [&] { launch.reference(stage.csf_ref(), w, h, mean.get(), std_min.get(), s); }, s, o.warmup,
        o.repetitions));
    out.push_back(time_launches(
        std::string(v.name) + "/error",
        [&] {
          launch.error(stage.csf_dst(), stage.csf_ref(), w, h, stage.mean_ref(),
                       stage.std_min_ref(), std_err.get(), mask.get(), s);
        },
        s, o.warmup, o.repetitions));
  }
  out.push_back(time_launches(
      "stage/prepare_reference", [&] { stage.prepare_reference(ref, true, s); }, s, o.warmup,
      o.repetitions));
  out.push_back(time_launches(
      "stage/run_distorted", [&] { stage.run_distorted(ref, dst, true, sum.get(), nullptr, s); }, s,
      o.warmup, o.repetitions));
  out.push_back(time_launches(
      "stage/run_distorted+map",
      [&] { stage.run_distorted(ref, dst, true, sum.get(), map.get(), s); }, s, o.warmup,
      o.repetitions));
  return out;
}

}  // namespace

std::vector<DetectionBenchTiming> bench_detection_cuda(const DetectionBenchOptions& options) {
  if (options.repetitions < 1 || options.warmup < 0)
    throw InvalidArgument("bench_detection_cuda: repetitions must be >= 1 and warmup >= 0");
  if (options.precision == Precision::Float) return bench_with<float>(options);
  return bench_with<double>(options);
}

}  // namespace mad::bench
