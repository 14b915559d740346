// CUDA-event timing of the A5 variants (tools/bench/a5_bench.h) for `mad bench`: all subbands
// in one launch per run, timed by the one GPU timer (gpu_timer_cuda.h).
#include <algorithm>
#include <vector>

#include "tools/bench/a5_bench.h"
#include "appearance/a5_variants_cuda.h"
#include "appearance/log_gabor.h"
#include "appearance/subband_magnitude.h"
#include "common/cuda_resources.h"
#include "common/error.h"
#include "common/fft_cpu.h"
#include "tools/bench/gpu_timer_cuda.h"

namespace mad::bench {
namespace {

using appearance::A5Input;
using appearance::A5Launches;
using appearance::A5Output;
using appearance::a5_output_planes;

std::vector<const VariantRow<A5Launches>*> selected_variants(const A5BenchOptions& options) {
  std::vector<const VariantRow<A5Launches>*> out;
  if (options.variants.empty()) {
    for (const VariantRow<A5Launches>& v : appearance::a5_variants().rows()) out.push_back(&v);
  } else {
    for (const std::string& name : options.variants)
      out.push_back(&appearance::a5_variants().find(name));
  }
  return out;
}

template <class Real>
std::vector<A5BenchResult> bench(const std::vector<ImageView<const double>>& subbands,
                                 const A5BenchOptions& options) {
  const auto variants = selected_variants(options);  // validates names first
  const int width = subbands.front().width, height = subbands.front().height;
  const BlockGrid grid(width, height);
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  const std::size_t count = subbands.size();
  const std::size_t blocks = grid.count();

  std::vector<Real> host(count * plane);
  for (std::size_t i = 0; i < count; ++i)
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        host[i * plane + static_cast<std::size_t>(y) * width + x] =
            static_cast<Real>(subbands[i](y, x));

  cuda::Stream stream;
  cuda::DeviceBuffer<Real> input(host.size());
  cuda::DeviceBuffer<Real> output(3 * count * blocks);
  MAD_CUDA_CHECK(cudaMemcpyAsync(input.get(), host.data(), host.size() * sizeof(Real),
                                 cudaMemcpyHostToDevice, stream.get()));

  A5Input<Real> in;
  in.data = input.get();
  in.pitch = width;
  in.subband_stride = static_cast<std::ptrdiff_t>(plane);
  in.count = static_cast<int>(count);
  const A5Output<Real> out = a5_output_planes(output.get(), count * blocks, grid.cols, blocks);

  GpuTimerOptions timer;
  timer.warmup = options.warmup_runs;
  timer.runs = options.timed_runs;
  std::vector<A5BenchResult> results;
  for (const VariantRow<A5Launches>* v : variants) {
    A5BenchResult res;
    res.time = time_gpu(stream.get(), timer,
                        [&](int) { v->launch.get<Real>()(in, out, grid, stream.get()); });
    res.variant = v->name;
    res.precision = sizeof(Real) == sizeof(double) ? "double" : "float";
    res.width = width;
    res.height = height;
    res.subbands = static_cast<int>(count);
    res.blocks = blocks;
    res.input_bytes = static_cast<double>(count * plane * sizeof(Real));
    res.sample_visits = 2.0 * kBlockSize * kBlockSize * static_cast<double>(blocks) * count;
    res.gvisits_per_s = res.sample_visits / (res.time.median_ms * 1e-3) * 1e-9;
    results.push_back(res);
  }
  stream.synchronize();
  return results;
}

}  // namespace

std::vector<A5BenchResult> a5_bench(const std::vector<ImageView<const double>>& subbands,
                                    const A5BenchOptions& options) {
  if (subbands.empty()) throw InvalidArgument("a5_bench: no subbands");
  if (options.timed_runs < 1 || options.warmup_runs < 0)
    throw InvalidArgument("a5_bench: timed_runs must be >= 1 and warmup_runs >= 0");
  for (const auto& s : subbands)
    if (s.width != subbands.front().width || s.height != subbands.front().height || !s.data)
      throw InvalidArgument("a5_bench: subbands must be non-empty and of one shape");
  return options.single_precision ? bench<float>(subbands, options)
                                  : bench<double>(subbands, options);
}

std::vector<A5BenchResult> a5_bench_pair(ImageView<const double> ref, ImageView<const double> dst,
                                         const A5BenchOptions& options) {
  if (ref.width != dst.width || ref.height != dst.height)
    throw InvalidArgument("a5_bench_pair: images differ in size");
  const int w = ref.width, h = ref.height;
  const CpuFft2d fft(w, h);
  const appearance::LogGaborBankCpu bank(w, h);
  appearance::SubbandScratch scratch(static_cast<std::size_t>(w) * h);
  std::vector<Complex> spectrum(static_cast<std::size_t>(w) * h);
  std::vector<Image<double>> magnitudes;
  for (ImageView<const double> image : {ref, dst}) {
    fft.forward_real(image, spectrum.data());
    for (int s = 0; s < appearance::kScales; ++s)
      for (int o = 0; o < appearance::kOrientations; ++o) {
        magnitudes.emplace_back(w, h);
        appearance::subband_magnitude_cpu(fft, bank, s, o, spectrum.data(), scratch,
                                          magnitudes.back().view());
      }
  }
  std::vector<ImageView<const double>> views;
  for (const Image<double>& m : magnitudes) views.push_back(m.cview());
  return a5_bench(views, options);
}

}  // namespace mad::bench
