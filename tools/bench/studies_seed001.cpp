// Seed 001 §2 (GTX480 on DAS4): the histogram's G (global atomics) against S (a shared histogram
// per block) over image sizes (Appendix Table 1, random images) and over five image kinds at
// 3741x3741 (Table 2). "In both versions, each thread visits a single input image matrix cell"
// (line 25): G is our global_atomic (a thread per pixel), S our shared_block_p1 (a per-block
// shared histogram, a thread per flat pixel; kernels/variant_tables.cpp), not shared_block, whose
// capped grid strides 4 pixels per thread per step. "memory" is the image's upload plus the bins' download, timed by tools/bench's TransferTimer
// from pageable memory (the seed does not say it pinned its buffers).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

#include "common/image.h"
#include "kernels/histogram.h"
#include "kernels/histogram_patterns.h"
#include "tools/bench/kernel_bench.h"
#include "tools/bench/model.h"
#include "tools/bench/runners.h"
#include "tools/bench/study.h"

namespace mad::bench {
namespace {

struct SeedRow {
  const char* name;  // the seed's row label
  int side;          // square images
  double seq_s, g_kernel_s, g_memory_s, s_kernel_s, s_memory_s;
};

// Appendix Table 1 (lines 229-235): random images of four sizes, seconds.
const SeedRow kSizes[] = {
    {"95x95", 95, 1.148668e-05, 3.126400e-05, 3.137280e-05, 9.811200e-06, 2.571520e-05},
    {"300x300", 300, 0.0001150424, 0.0000637376, 0.0000732864, 0.0000128832, 0.0000557376},
    {"949x949", 949, 0.0011848660, 0.0004896640, 0.0004394752, 0.0000942976, 0.0003553984},
    {"3000x3000", 3000, 0.0115728200, 0.0048270960, 0.0024033160, 0.0008997632, 0.0020611720},
};

// Appendix Table 2 (lines 237-244): five kinds at 3741x3741, seconds.
const SeedRow kKinds[] = {
    {"random", 3741, 0.018154520, 0.007505976, 0.003623570, 0.001395772, 0.003391280},
    {"h_gradient", 3741, 0.020663300, 0.008753978, 0.003617928, 0.003047582, 0.003391198},
    {"v_gradient", 3741, 0.039198860, 0.158923600, 0.003629298, 0.021736940, 0.003410366},
    {"256-striped", 3741, 0.018013400, 0.001667102, 0.003652166, 0.001210470, 0.003434394},
    {"20-striped", 3741, 0.018139200, 0.010527040, 0.003611604, 0.001825100, 0.003377088},
};

// The seed's kinds (§2, items 1-5). Four are our adversarial patterns; our Stripes20 is 8-pixel
// stripes of 20 values, the seed's "20-striped" is x mod 20 (1-pixel stripes), made here.
Image<std::uint8_t> seed_image(const std::string& kind, int side) {
  using kernels::HistogramPattern;
  if (kind == "20-striped") {
    Image<std::uint8_t> img(side, side);
    for (int y = 0; y < side; ++y)
      for (int x = 0; x < side; ++x) img(y, x) = static_cast<std::uint8_t>(x % 20);
    return img;
  }
  const HistogramPattern p = kind == "h_gradient"    ? HistogramPattern::GradientHorizontal
                             : kind == "v_gradient"  ? HistogramPattern::GradientVertical
                             : kind == "256-striped" ? HistogramPattern::Stripes256
                                                     : HistogramPattern::UniformRandom;
  return kernels::make_histogram_pattern(p, side, side, 7);
}

// The seed's S, one pixel per thread (line 25).
constexpr const char* kShared = "shared_block_p1";

struct Ours {
  double seq = kNoValue, g = kNoValue, s = kNoValue, memory = kNoValue;
  std::optional<Measurement> g_time, s_time;  // whole: the rows carry the kernels' resources
};

// Measures one seed row's image and adds its five rows.
Ours measure_row(StudyRun& run, TransferTimer& transfers, const SeedRow& seed,
                 const std::string& kind, const std::string& where, double x) {
  const int side = run.scaled(seed.side, 12);
  const std::string label = std::string(seed.name) +
                            (run.config().quick ? " (run at " + format_size(side, side) + ")" : "");
  run.say(label + " " + kind);
  const Image<std::uint8_t> img = seed_image(kind, side);
  KernelBenchOptions options;
  options.repeats = run.gpu_runs();
  Ours o;
  o.seq = median_ms(run.cpu_one_thread([&] { (void)kernels::histogram_cpu(img.cview()); }));
  o.g_time = run.gpu("histogram global_atomic " + label,
                     [&] { return bench_histogram(img.cview(), "global_atomic", options); });
  o.s_time = run.gpu("histogram " + std::string(kShared) + " " + label,
                     [&] { return bench_histogram(img.cview(), kShared, options); });
  o.g = median_ms(o.g_time), o.s = median_ms(o.s_time);
  if (run.config().gpu) {
    BenchRow row;
    row.bytes_in = static_cast<double>(side) * side;
    row.bytes_out = kernels::kHistogramBins * 4.0;
    transfers.fill(row);
    o.memory = row.h2d_pageable_ms + row.d2h_pageable_ms;
  }
  const auto fig = [&](double s) { return SeedFigure{s, "s", where, ""}; };
  const std::string series = where == "Table 1" ? "" : " (" + kind + ")";
  run.add(label + " sequential", "sequential" + series, x, fig(seed.seq_s), "cpu-1t",
          as_measurement(o.seq));
  run.add(label + " G.kernel", "G.kernel" + series, x, fig(seed.g_kernel_s), "cuda global_atomic",
          o.g_time);
  run.add(label + " G.memory", "G.memory" + series, x, fig(seed.g_memory_s), "h2d + d2h pageable",
          as_measurement(o.memory));
  run.add(label + " S.kernel", "S.kernel" + series, x, fig(seed.s_kernel_s),
          "cuda " + std::string(kShared), o.s_time);
  run.add(label + " S.memory", "S.memory" + series, x, fig(seed.s_memory_s), "h2d + d2h pageable",
          as_measurement(o.memory));
  return o;
}

}  // namespace

void run_seed001_histogram_images(StudyRun& run) {
  StudyResult& r = run.result();
  run.plot("Histogram of random images: time against the pixels (Table 1)", "pixels", true);
  run.note(
      "the seed's 20-striped image (x mod 20, 1-pixel stripes) is generated here as the "
      "seed defines it; mad's own Stripes20 pattern (kernels/histogram_patterns.h) uses "
      "8-pixel stripes and is not used by this study");
  run.note(
      "G.memory and S.memory are the same transfer in ours (the image up, 256 bins down, "
      "pageable memory): one measurement shown on both rows");
  TransferTimer transfers(run.config().quick ? 2 : 5);
  std::map<std::string, Ours> by_size, by_kind;
  for (const SeedRow& s : kSizes) {
    const int side = run.scaled(s.side, 12);
    by_size[s.name] =
        measure_row(run, transfers, s, "random", "Table 1", static_cast<double>(side) * side);
  }
  for (const SeedRow& s : kKinds)
    by_kind[s.name] = measure_row(run, transfers, s, s.name, "Table 2", kNoValue);

  for (const SeedRow& s : kSizes)
    run.compare_times(std::string("random ") + s.name + ": S.kernel vs G.kernel", "S", s.s_kernel_s,
                      "G", s.g_kernel_s, "Table 1", kShared, by_size[s.name].s,
                      "global_atomic", by_size[s.name].g);
  for (const SeedRow& s : kKinds)
    run.compare_times(std::string(s.name) + " 3741x3741: S.kernel vs G.kernel", "S", s.s_kernel_s,
                      "G", s.g_kernel_s, "Table 2", kShared, by_kind[s.name].s,
                      "global_atomic", by_kind[s.name].g);
  run.compare_times("random 3000x3000: S.kernel vs sequential", "S.kernel", 0.0008997632,
                    "sequential", 0.0115728200, "Table 1", kShared, by_size["3000x3000"].s,
                    "cpu-1t", by_size["3000x3000"].seq);
  run.compare_growth("S.kernel from 949x949 to 3000x3000 random (9.99x the pixels)",
                     "0.0000942976 s to 0.0008997632 s: 9.54x (Table 1)",
                     0.0008997632 / 0.0000942976, by_size["3000x3000"].s / by_size["949x949"].s);
  // The slowest kind for G: v_gradient in the seed (every warp on one bin; line 79).
  StudyComparison c;
  c.subject = "slowest image kind for G (global atomics) at 3741x3741";
  // The factor from Table 2's own figures (v_gradient's G.kernel over h_gradient's): 18.15x.
  char factor[32];
  std::snprintf(factor, sizeof factor, "%.2fx", kKinds[2].g_kernel_s / kKinds[1].g_kernel_s);
  c.seed = std::string("seed: v_gradient (0.158923600 s, ") + factor + " h_gradient's; Table 2)";
  std::string slowest;
  double worst = -1;
  for (const auto& [kind, o] : by_kind)
    if (present(o.g) && o.g > worst) worst = o.g, slowest = kind;
  if (slowest.empty()) {
    c.ours = "ours: not measured";
    c.verdict = "same ordering: n/a (no CUDA device)";
  } else {
    c.ours = "ours: " + slowest + " (" + format_ms(worst) + ")";
    c.verdict = std::string("same ordering: ") + (slowest == "v_gradient" ? "yes" : "no");
  }
  r.comparisons.push_back(c);
}

}  // namespace mad::bench
