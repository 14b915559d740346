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

// The rows of `registry` that options.variants names (all when empty); unknown names throw.
template <class Launches>
std::vector<const VariantRow<Launches>*> selected_variants(
    const VariantRegistry<Launches>& registry, const A5BenchOptions& options) {
  std::vector<const VariantRow<Launches>*> out;
  if (options.variants.empty()) {
    for (const VariantRow<Launches>& v : registry.rows()) out.push_back(&v);
  } else {
    for (const std::string& name : options.variants) out.push_back(&registry.find(name));
  }
  return out;
}

// The subbands (equal shapes) in Real, one after another without padding.
template <class Real>
std::vector<Real> pack(const std::vector<ImageView<const double>>& subbands) {
  const int width = subbands.front().width, height = subbands.front().height;
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  std::vector<Real> host(subbands.size() * plane);
  for (std::size_t i = 0; i < subbands.size(); ++i)
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x)
        host[i * plane + static_cast<std::size_t>(y) * width + x] =
            static_cast<Real>(subbands[i](y, x));
  return host;
}


// Times each row's launch on (in, out) with CUDA events and returns one Result a row, with
// its variant, precision, shape, blocks and time filled. Does not synchronize at the end.
template <class Result, class Real, class Launches, class Output>
std::vector<Result> time_variants(const std::vector<const VariantRow<Launches>*>& variants,
                                  const A5Input<Real>& in, const Output& out,
                                  const BlockGrid& grid, cudaStream_t stream,
                                  const A5BenchOptions& options) {
  GpuTimerOptions timer;
  timer.warmup = options.warmup_runs;
  timer.runs = options.timed_runs;
  std::vector<Result> results;
  for (const VariantRow<Launches>* v : variants) {
    Result res;
    res.time = time_gpu(stream, timer,
                        [&](int) { v->launch.template get<Real>()(in, out, grid, stream); });
    res.variant = v->name;
    res.precision = sizeof(Real) == sizeof(double) ? "double" : "float";
    res.width = grid.image_width;
    res.height = grid.image_height;
    res.blocks = grid.count();
    results.push_back(res);
  }
  return results;
}

template <class Real>
std::vector<A5BenchResult> bench(const std::vector<ImageView<const double>>& subbands,
                                 const A5BenchOptions& options) {
  const auto variants = selected_variants(appearance::a5_variants(), options);  // names first
  const int width = subbands.front().width, height = subbands.front().height;
  const BlockGrid grid(width, height);
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  const std::size_t count = subbands.size();
  const std::size_t blocks = grid.count();

  cuda::Stream stream;
  const std::vector<Real> host = pack<Real>(subbands);
  cuda::DeviceBuffer<Real> input = cuda::upload(host, stream.get());
  cuda::DeviceBuffer<Real> output(3 * count * blocks);

  A5Input<Real> in;
  in.data = input.get();
  in.pitch = width;
  in.subband_stride = static_cast<std::ptrdiff_t>(plane);
  in.count = static_cast<int>(count);
  const A5Output<Real> out = a5_output_planes(output.get(), count * blocks, grid.cols, blocks);

  std::vector<A5BenchResult> results =
      time_variants<A5BenchResult>(variants, in, out, grid, stream.get(), options);
  for (A5BenchResult& res : results) {
    res.subbands = static_cast<int>(count);
    res.input_bytes = static_cast<double>(count * plane * sizeof(Real));
    res.sample_visits = 2.0 * kBlockSize * kBlockSize * static_cast<double>(blocks) * count;
    res.gvisits_per_s = res.sample_visits / (res.time.median_ms * 1e-3) * 1e-9;
  }
  stream.synchronize();
  return results;
}

template <class Real>
std::vector<A5MeanBenchResult> mean_bench(ImageView<const double> subband,
                                          const A5BenchOptions& options) {
  const auto variants = selected_variants(appearance::a5_mean_variants(), options);
  const int width = subband.width, height = subband.height;
  const BlockGrid grid(width, height);
  cuda::Stream stream;
  const std::vector<Real> host = pack<Real>({subband});
  cuda::DeviceBuffer<Real> input = cuda::upload(host, stream.get());
  cuda::DeviceBuffer<Real> output(std::max<std::size_t>(grid.count(), 1));
  A5Input<Real> in;
  in.data = input.get();
  in.pitch = width;
  in.subband_stride = static_cast<std::ptrdiff_t>(host.size());
  in.count = 1;
  appearance::A5MeanOutput<Real> out;
  out.mean = output.get();
  out.pitch = grid.cols;
  out.subband_stride = static_cast<std::ptrdiff_t>(grid.count());

  const std::vector<A5MeanBenchResult> results =
      time_variants<A5MeanBenchResult>(variants, in, out, grid, stream.get(), options);
  stream.synchronize();
  return results;
}

}  // namespace

std::vector<A5MeanBenchResult> a5_mean_bench(ImageView<const double> subband,
                                             const A5BenchOptions& options) {
  if (!subband.data || subband.width <= 0 || subband.height <= 0)
    throw InvalidArgument("a5_mean_bench: empty subband");
  if (options.timed_runs < 1 || options.warmup_runs < 0)
    throw InvalidArgument("a5_mean_bench: timed_runs must be >= 1 and warmup_runs >= 0");
  return options.single_precision ? mean_bench<float>(subband, options)
                                  : mean_bench<double>(subband, options);
}

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
