// Google Benchmark of the CPU appearance stage at 512x512 (spec §4, cost model §11):
// the block statistics of one subband (the hot spot), one subband magnitude (filter multiply,
// inverse FFT, modulus), the per-shape set-up, and the whole appear_cpu on a pair.
//
//   bench_appearance_cpu [--benchmark_filter=...] [--threads=N]
//
// Inputs are generated (a seeded textured image and a noisy copy), so the program needs no
// data files. Thread count: mad::parallel_for's default (all cores) unless --threads is given.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "appearance/appearance.h"
#include "appearance/appearance_cpu.h"
#include "appearance/block_stats.h"
#include "appearance/subband_magnitude.h"
#include "common/parallel.h"

namespace {

using mad::Image;
using namespace mad::appearance;

constexpr int kSide = 512;

// A textured 0..255 image: two gratings plus uniform noise, rounded like an 8-bit file.
Image<double> textured_image(std::uint32_t seed, double noise) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-noise, noise);
  Image<double> img(kSide, kSide);
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x) {
      const double v = 120 + 60 * std::sin(x / 9.0) * std::cos(y / 23.0) +
                       30 * std::sin((x + 2 * y) / 41.0) + u(rng);
      img(y, x) = std::round(std::min(255.0, std::max(0.0, v)));
    }
  return img;
}

const Image<double>& reference() {
  static const Image<double> img = textured_image(1, 2.0);
  return img;
}
const Image<double>& distorted() {
  static const Image<double> img = [] {
    Image<double> d = copy_image(reference().cview());
    std::mt19937 rng(2);
    std::normal_distribution<double> n(0.0, 10.0);
    for (int y = 0; y < kSide; ++y)
      for (int x = 0; x < kSide; ++x)
        d(y, x) = std::round(std::min(255.0, std::max(0.0, d(y, x) + n(rng))));
    return d;
  }();
  return img;
}

// One subband magnitude of the reference (scale 1, orientation 0) as block-stats input.
const Image<double>& magnitude_image() {
  static const Image<double> img = [] {
    const auto stage = appearance_cpu_for_shape(kSide, kSide);
    std::vector<mad::Complex> spectrum(stage->bank().size());
    stage->fft().forward_real(reference().cview(), spectrum.data());
    SubbandScratch scratch(stage->bank().size());
    Image<double> a(kSide, kSide);
    subband_magnitude_cpu(stage->fft(), stage->bank(), 0, 0, spectrum.data(), scratch, a.view());
    return a;
  }();
  return img;
}

void BM_SubbandBlockStats(benchmark::State& state) {
  const Image<double>& a = magnitude_image();
  const mad::BlockGrid grid(kSide, kSide);
  std::vector<double> sd(grid.count()), sk(grid.count()), ku(grid.count());
  for (auto _ : state) {
    subband_block_stats_cpu(a.cview(), grid, sd.data(), sk.data(), ku.data());
    benchmark::DoNotOptimize(sd.data());
    benchmark::ClobberMemory();
  }
  // Two passes over 256 samples per block (§11's sample-visit count).
  state.counters["blocks"] = static_cast<double>(grid.count());
  state.counters["sample_visits/s"] =
      benchmark::Counter(2.0 * 256.0 * grid.count(), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_SubbandBlockStats)->Unit(benchmark::kMillisecond);

void BM_SubbandMagnitude(benchmark::State& state) {
  const auto stage = appearance_cpu_for_shape(kSide, kSide);
  std::vector<mad::Complex> spectrum(stage->bank().size());
  stage->fft().forward_real(reference().cview(), spectrum.data());
  SubbandScratch scratch(stage->bank().size());
  Image<double> a(kSide, kSide);
  for (auto _ : state) {
    subband_magnitude_cpu(stage->fft(), stage->bank(), 1, 2, spectrum.data(), scratch, a.view());
    benchmark::ClobberMemory();
  }
}
BENCHMARK(BM_SubbandMagnitude)->Unit(benchmark::kMillisecond);

// Per-shape set-up (FFT plans + the log-Gabor bank), paid once per image size.
void BM_StageSetup(benchmark::State& state) {
  for (auto _ : state) {
    AppearanceCpu stage(kSide, kSide);
    benchmark::DoNotOptimize(stage.bank().radial(0));
  }
}
BENCHMARK(BM_StageSetup)->Unit(benchmark::kMillisecond)->UseRealTime();

// The entry point on a warm per-shape cache: 2 forward + 40 inverse FFTs, 40 block-stat
// passes, the difference map and pooling.
void BM_AppearCpu(benchmark::State& state) {
  const bool want_map = state.range(0) != 0;
  appear_cpu(reference().cview(), distorted().cview(), false);  // build the cached stage
  for (auto _ : state) {
    const AppearanceResult r = appear_cpu(reference().cview(), distorted().cview(), want_map);
    benchmark::DoNotOptimize(r.d_appear);
  }
  state.counters["threads"] = mad::thread_count();
}
BENCHMARK(BM_AppearCpu)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  // --threads=N (ours) is taken out before Google Benchmark parses the rest.
  std::vector<char*> args;
  for (int i = 0; i < argc; ++i) {
    if (std::strncmp(argv[i], "--threads=", 10) == 0) {
      // A count, never reinterpreted: atoi read "abc" and "0" as 0, i.e. every core.
      const char* text = argv[i] + 10;
      int threads = 0;
      const auto [end, ec] = std::from_chars(text, text + std::strlen(text), threads);
      if (ec != std::errc() || *end != '\0' || threads < 1) {
        std::fprintf(stderr, "--threads=%s: expected a whole number >= 1\n", text);
        return 2;
      }
      mad::set_thread_count(threads);
    } else {
      args.push_back(argv[i]);
    }
  }
  int n = static_cast<int>(args.size());
  benchmark::Initialize(&n, args.data());
  if (benchmark::ReportUnrecognizedArguments(n, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
