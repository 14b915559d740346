// Seed 000 (GTX480 assignment): darkening with P pixels per thread (seed000-pixels-per-thread)
// and on the grid configurations M1-M4 (seed000-gray-grids), the histogram's global/shared/
// per-warp atomics, block shapes, pixels per thread and fused gray+histogram kernel
// (seed000-histogram), and 5x5 smoothing from global memory or a shared tile, on two block
// shapes and with several pixels per thread (seed000-smoothing), on the seed's seven images.
//
// The seed never states its images' sizes. Two of its tables give them away: Table 5's achieved
// bandwidth at 4 bytes a pixel times Table 2's P = 10 times, and Table 16's at 78 bytes a pixel
// times Table 13's "15px" times, agree to four digits on the pixel counts below; the shapes are
// ours where the count is not a familiar one (img03, img05: the seed says img05 alone is not a
// multiple of 128 pixels, and 7000x4734 is not either).
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "common/image.h"
#include "kernels/gray.h"
#include "kernels/gray_histogram.h"
#include "kernels/histogram.h"
#include "kernels/histogram_patterns.h"
#include "kernels/smooth.h"
#include "tools/bench/bench_images.h"
#include "tools/bench/kernel_bench.h"
#include "tools/bench/model.h"
#include "tools/bench/runners.h"
#include "tools/bench/study.h"

namespace mad::bench {
namespace {

struct SeedImage {
  const char* name;
  int width, height;     // pixels: ours, from the inferred count
  double darken_seq_s;   // Table 2 "Sequential" (darken)
  double darken_m2_s;    // Table 2 "M2"
  double darken_p10_s;   // Table 2 "10 pixels per thread"
  double hist_seq_s;     // Table 7 "Sequential" (gray + histogram)
  double hist_30px_s;    // Table 7 "30px" (fused gray + histogram, 30 px per thread)
  double hist_60x45_s;   // Table 7 "60x45" (fused, fixed 60x45 grid)
  double smooth_seq_s;   // Table 13 "Sequential"
  double smooth_15px_s;  // Table 13 "15px (height)"
  double smooth_4px_s;   // Table 13 "4px"
};

// Tables 2, 7 and 13 of seed 000 (lines 121-128, 233-241, 321-329), seconds on the GTX480's
// host (sequential) and the GTX480 (the other columns).
const SeedImage kImages[] = {
    {"img00", 512, 512, 0.002416, 0.000076, 0.000076, 0.003208, 0.000080, 0.000127, 0.067991,
     0.000797, 0.000868},
    {"img01", 2048, 1280, 0.036925, 0.000202, 0.000193, 0.032379, 0.001264, 0.001062, 0.672104,
     0.006553, 0.006552},
    {"img02", 2560, 1440, 0.033726, 0.000279, 0.000255, 0.043784, 0.001778, 0.001553, 0.947251,
     0.009093, 0.009114},
    {"img03", 5800, 4352, 0.340821, 0.001537, 0.001299, 0.200681, 0.004724, 0.004698, 6.496388,
     0.061039, 0.060738},
    {"img04", 4096, 4096, 0.151429, 0.001091, 0.000907, 0.197973, 0.012325, 0.011871, 4.695295,
     0.042040, 0.042152},
    {"img05", 7000, 4734, 0.445976, 0.002090, 0.001692, 0.267590, 0.004278, 0.004260, 8.563947,
     0.079630, 0.079795},
    {"img06", 8192, 8000, 0.588814, 0.003880, 0.003239, 0.616924, 0.010026, 0.009756, 18.571981,
     0.157342, 0.157640},
};

SeedFigure seconds(double v, const std::string& where) {
  return SeedFigure{v, "s", where, ""};
}

// The image's size for this run: the seed's, or a sixteenth of each side with --quick.
Size size_of(const StudyRun& run, const SeedImage& img) {
  return {run.scaled(img.width, 16), run.scaled(img.height, 16)};
}

void note_sizes(StudyRun& run) {
  run.note(
      "image sizes inferred from the seed's bandwidth tables (pixel counts 0.262, 2.62, "
      "3.69, 25.24, 16.78, 33.14, 65.54 MP); contents are seeded stand-ins, not the seed's "
      "photographs");
}

KernelBenchOptions options_for(const StudyRun& run) {
  KernelBenchOptions o;
  o.repeats = run.gpu_runs();
  return o;
}

// Three planes of seeded bytes: the seed's planar RGB (Listing 3 reads R, G and B planes).
Image<std::uint8_t> rgb_planes(Size s) {
  return kernels::make_histogram_pattern(kernels::HistogramPattern::UniformRandom, s.width,
                                         3 * s.height, 3);
}

kernels::RgbView8 planar_view(const Image<std::uint8_t>& planes, Size s) {
  return kernels::planar_rgb(planes.data(), s.width, s.height, planes.pitch(),
                             planes.pitch() * s.height);
}

// The smaller of two medians (NaN when neither was measured) and the name that goes with it.
void keep_faster(double ms, const std::string& name, double& best, std::string& best_name) {
  if (present(ms) && (!present(best) || ms < best)) best = ms, best_name = name;
}

// Times darken variants by name on one image.
using DarkenBench = std::function<std::optional<Measurement>(const std::string& variant)>;

// The darken studies' loop over the seed's images: the planar input, its "sequential" row
// (Table 2), then body(image, pixels, bench).
void for_each_darken_image(
    StudyRun& run, const std::function<void(const SeedImage&, double, const DarkenBench&)>& body) {
  for (const SeedImage& img : kImages) {
    const Size s = size_of(run, img);
    const double px = static_cast<double>(s.width) * s.height;
    const std::string name = img.name;
    const Image<std::uint8_t> planes = rgb_planes(s);
    const kernels::RgbView8 rgb = planar_view(planes, s);
    Image<std::uint8_t> out(s.width, s.height);
    run.say(name + " " + format_size(s.width, s.height));
    const auto cpu = run.cpu_one_thread(
        [&] { kernels::gray_cpu(rgb, kernels::GrayWeighting::Darken, out.view()); });
    run.add(name + " sequential", "cpu-1t", px, seconds(img.darken_seq_s, "Table 2"), "cpu-1t",
            cpu);
    body(img, px, [&](const std::string& v) {
      return run.gpu("darken " + v + " " + name, [&] {
        return bench_gray(rgb, kernels::GrayWeighting::Darken, v, options_for(run));
      });
    });
  }
}

}  // namespace

void run_seed000_gray_grids(StudyRun& run) {
  run.plot("Darken on the grid configurations M1-M4: time against the image's pixels", "pixels",
           true);
  note_sizes(run);
  run.note(
      "the seed's grids (line 52) as registered: M1 = m1 (256x1 blocks in a ceil(W/256) x H "
      "grid, idle threads at each row's end); M2 = pixel_1d (the same blocks over "
      "consecutive pixels, idle threads only in the last block; our grid is 1-D, the "
      "seed's ceil(W/256) x H); M3 = pixel_2d_32x8 (blocks 32 wide and 8 tall, the seed's "
      "'8x32', in a ceil(W/32) x ceil(H/8) grid, idle threads at the right and bottom); "
      "M4 = m4 (M3's grid over consecutive pixels)");
  run.note("Figure 7 gives no numbers: only M2 carries a seed figure (Table 2)");
  const std::pair<std::string, std::string> grids[] = {
      {"M1", "m1"}, {"M2", "pixel_1d"}, {"M3", "pixel_2d_32x8"}, {"M4", "m4"}};
  for_each_darken_image(run, [&](const SeedImage& img, double px, const DarkenBench& bench) {
    const std::string name = img.name;
    double best_1d = kNoValue, best_2d = kNoValue;
    std::string name_1d = "m1/pixel_1d", name_2d = "pixel_2d_32x8/m4";
    for (const auto& [grid, variant] : grids) {
      const auto m = bench(variant);
      std::optional<SeedFigure> seed;
      if (grid == "M2") seed = seconds(img.darken_m2_s, "Table 2");
      run.add(name + " " + grid, grid + " (" + variant + ")", px, seed, "cuda " + variant, m);
      if (grid == "M1" || grid == "M2")
        keep_faster(median_ms(m), variant, best_1d, name_1d);
      else
        keep_faster(median_ms(m), variant, best_2d, name_2d);
    }
    run.compare_claim(name + ": 1-D blocks (best of M1, M2) vs 2-D blocks (best of M3, M4)",
                      "M1 and M2 obtained the best results: 1-D blocks are faster (Figure 7, "
                      "line 78)",
                      true, name_1d, best_1d, name_2d, best_2d);
  });
}

void run_seed000_pixels_per_thread(StudyRun& run) {
  StudyResult& r = run.result();
  run.plot("Darken: time against the image's pixels", "pixels", true);
  note_sizes(run);
  run.note(
      "M2 is our pixel_1d (a 1-D grid of 256-thread blocks, consecutive pixels; the seed's "
      "M2 lays the same blocks out as a 2-D grid). P pixels per thread is grid_stride_pP "
      "(Listing 3's loop on a grid sized for P), P = 10 included; the seed's fixed grid "
      "(Figure 9) gives no size: ours is grid_stride_fixed, 4 blocks of 256 per SM");
  const std::vector<std::string> strided = {"grid_stride_p1", "grid_stride_p2",  "grid_stride_p4",
                                            "grid_stride_p8", "grid_stride_p10", "grid_stride_p16",
                                            "grid_stride_p32"};
  for_each_darken_image(run, [&](const SeedImage& img, double px, const DarkenBench& bench) {
    const std::string name = img.name;
    const auto m2 = bench("pixel_1d");
    run.add(name + " M2", "pixel_1d", px, seconds(img.darken_m2_s, "Table 2"), "cuda pixel_1d", m2);
    double best_dynamic = kNoValue, p10 = kNoValue;
    std::string best_name = "grid_stride_pP";
    for (const std::string& v : strided) {
      const auto m = bench(v);
      keep_faster(median_ms(m), v, best_dynamic, best_name);
      if (v == "grid_stride_p10") {
        p10 = median_ms(m);
        run.add(name + " 10 px/thread", "P=10", px, seconds(img.darken_p10_s, "Table 2"),
                "cuda " + v, m);
      } else {
        run.add(name + " " + v, v, px, std::nullopt, "cuda " + v, m);
      }
    }
    const auto fixed = bench("grid_stride_fixed");
    run.add(name + " fixed grid", "grid_stride_fixed", px, std::nullopt, "cuda grid_stride_fixed",
            fixed);
    run.compare_times(name + ": P = 10 against M2", "10 px/thread", img.darken_p10_s, "M2",
                      img.darken_m2_s, "Table 2", "grid_stride_p10", p10, "pixel_1d",
                      median_ms(m2));
    run.compare_claim(name + ": best dynamic grid vs the fixed grid",
                      "the dynamic grid (best P = 10) beats the fixed grid (Figure 10, line 105)",
                      true, best_name, best_dynamic, "grid_stride_fixed", median_ms(fixed));
  });
  const SeedImage& big = kImages[6];
  double ours_m2 = kNoValue, ours_seq = kNoValue;
  for (const StudyRow& row : r.rows) {
    if (row.label == "img06 M2") ours_m2 = row.ours_ms;
    if (row.label == "img06 sequential") ours_seq = row.ours_ms;
  }
  run.compare_times("img06: M2 against the sequential code", "M2", big.darken_m2_s, "sequential",
                    big.darken_seq_s, "Table 2; Table 3 gives 151.76x", "pixel_1d", ours_m2,
                    "cpu-1t", ours_seq);
}

void run_seed000_histogram(StudyRun& run) {
  run.plot("Histogram: time against the image's pixels", "pixels", true);
  note_sizes(run);
  run.note(
      "the sequential rows convert planar RGB to gray (our MATLAB weighting; the seed's "
      "0.3/0.59/0.11 costs the same) and count the histogram, as the seed's Listing 4 does");
  run.note(
      "Table 7's GPU columns time the fused gray+histogram kernel (kernels/gray_histogram.h) "
      "on planar RGB: '30px' is our shared_warp_p30 (30 flat pixels per thread, dynamic "
      "grid), '60x45' our shared_warp_fixed_60x45 (the fixed 60x45 grid of 256-thread "
      "blocks); the seed adopts per-warp histograms on the fixed grid (lines 214-216) and does "
      "not say which approach its 30px column used, so the per-block forms are shown beside");
  run.note(
      "the gray-input rows reproduce Figure 15 (monochrome; global against shared atomics, "
      "and 1-D 256-thread blocks, shared_block_p1, against 2-D 32x8 blocks, "
      "shared_block_2d_32x8), Figure 17 (monochrome; per-warp against per-block), Figure 18 "
      "(real images: a seeded textured stand-in) and Figures 19-22 (per-block and per-warp "
      "with 10 and 30 pixels per thread and on the fixed 60x45 grid, real images). Figures "
      "15-18 are §7.2's one pixel per thread: global_atomic, shared_block_p1 and "
      "shared_warp_p1 (a thread per flat pixel), not the grid-stride shared_block and "
      "shared_warp");
  // §7.2 "One pixel per thread" (Figures 15, 17, 18): a thread per pixel in every variant.
  const std::vector<std::string> monochrome_variants = {"global_atomic", "shared_block_p1",
                                                        "shared_warp_p1", "shared_block_2d_32x8"};
  const std::vector<std::string> real_variants = {
      "global_atomic",          "shared_block_p1",  "shared_warp_p1",  "shared_block_p10",
      "shared_warp_p10",        "shared_block_p30", "shared_warp_p30", "shared_block_fixed_60x45",
      "shared_warp_fixed_60x45"};
  const std::vector<std::string> fused_variants = {"shared_warp_p30", "shared_warp_fixed_60x45",
                                                   "shared_block_p30", "shared_block_fixed_60x45"};
  double seq_first = kNoValue, seq_last = kNoValue;
  for (const SeedImage& img : kImages) {
    const Size s = size_of(run, img);
    const double px = static_cast<double>(s.width) * s.height;
    const std::string name = img.name;
    run.say(name + " " + format_size(s.width, s.height));
    const Image<std::uint8_t> planes = rgb_planes(s);
    const kernels::RgbView8 rgb = planar_view(planes, s);
    Image<std::uint8_t> gray(s.width, s.height);
    const auto cpu = run.cpu_one_thread([&] {
      (void)kernels::gray_histogram_cpu(rgb, kernels::GrayWeighting::Matlab, gray.view());
    });
    run.add(name + " sequential", "cpu-1t", px, seconds(img.hist_seq_s, "Table 7"), "cpu-1t", cpu);
    if (&img == &kImages[0]) seq_first = median_ms(cpu);
    if (&img == &kImages[6]) seq_last = median_ms(cpu);

    std::map<std::string, Timings> t;  // by kind ("fused", "monochrome", "real"), then variant
    for (const std::string& v : fused_variants) {
      const auto m = run.gpu("gray+histogram " + v + " " + name, [&] {
        return bench_gray_histogram(rgb, kernels::GrayWeighting::Matlab, v, options_for(run));
      });
      std::optional<SeedFigure> seed;
      if (v == "shared_warp_p30") seed = seconds(img.hist_30px_s, "Table 7, 30px");
      if (v == "shared_warp_fixed_60x45") seed = seconds(img.hist_60x45_s, "Table 7, 60x45");
      run.add(name + " fused " + v, "fused " + v, px, seed, "cuda gray+histogram " + v, m);
      t["fused"][v] = median_ms(m);
    }
    run.compare_times(name + ": fused, 30 px/thread against the fixed 60x45 grid", "30px",
                      img.hist_30px_s, "60x45", img.hist_60x45_s, "Table 7", "shared_warp_p30",
                      t["fused"]["shared_warp_p30"], "shared_warp_fixed_60x45",
                      t["fused"]["shared_warp_fixed_60x45"]);

    const Image<std::uint8_t> mono = kernels::make_histogram_pattern(
        kernels::HistogramPattern::Monochrome, s.width, s.height, 128);
    const BenchPair real = make_bench_pair(s.width, s.height, 21);
    Image<std::uint8_t> textured(s.width, s.height);
    for (int y = 0; y < s.height; ++y)
      for (int x = 0; x < s.width; ++x)
        textured(y, x) = static_cast<std::uint8_t>(real.ref.pixels(y, x));
    for (const auto& [kind, image, variants] :
         {std::tuple<std::string, const Image<std::uint8_t>*, const std::vector<std::string>*>{
              "monochrome", &mono, &monochrome_variants},
          {"real", &textured, &real_variants}})
      for (const std::string& v : *variants) {
        const Image<std::uint8_t>* input = image;  // lambdas capture no structured binding (C++17)
        const auto m = run.gpu("histogram " + v + " " + kind + " " + name, [&] {
          return bench_histogram(input->cview(), v, options_for(run));
        });
        run.add(name + " " + kind + " " + v, kind + " " + v, px, std::nullopt, "cuda " + v, m);
        t[kind][v] = median_ms(m);
      }
    run.compare_claim(name + " monochrome: shared vs global atomics",
                      "shared atomics drastically faster than global (Figure 15)", true,
                      t["monochrome"], "shared_block_p1", "global_atomic");
    run.compare_growth(name + " monochrome: time of 2-D 32x8 blocks over 1-D 256-thread blocks",
                       "the block configuration (1D or 2D) doesn't affect the performance "
                       "(Figure 15, line 187): 1x",
                       1.0, t["monochrome"]["shared_block_2d_32x8"] / t["monochrome"]["shared_block_p1"]);
    run.compare_claim(name + " monochrome: per-warp vs per-block shared",
                      "per-warp histograms faster than per-block (Figure 17)", true,
                      t["monochrome"], "shared_warp_p1", "shared_block_p1");
    run.compare_claim(name + " real: per-block vs per-warp shared",
                      "per-block much faster than per-warp at 1 px/thread (Figure 18)", true,
                      t["real"], "shared_block_p1", "shared_warp_p1");
    run.compare_claim(name + " real: per-warp vs per-block at 30 px/thread",
                      "with more pixels per thread per-warp wins for almost all images "
                      "(Figure 23, line 214)",
                      true, t["real"], "shared_warp_p30", "shared_block_p30");
  }
  run.compare_growth("sequential time from img00 to img06 (250x the pixels)",
                     "0.003208 s to 0.616924 s: 192.31x (Table 7)", 0.616924 / 0.003208,
                     seq_last / seq_first);
}

void run_seed000_smoothing(StudyRun& run) {
  run.plot("5x5 smoothing of RGB: time against the image's pixels", "pixels", true);
  note_sizes(run);
  run.note(
      "our smoothing runs on interleaved 3-channel samples. The seed's block shapes are "
      "rows x columns: its 8x32 is our 32x8 (global, tile), its 16x32 our 32x16 "
      "(global_32x16, tile_32x16), Figure 26 (line 300)");
  run.note(
      "Table 13's GPU columns: '15px (height)' is our global_32x16_p15 (15 output pixels "
      "per thread down a column, a grid of ceil(H/240) block rows); the seed's '4px' "
      "(dynamic grid, Figure 27) does not say along which axis: ours is global_32x16_p4, 4 "
      "pixels down a column, so the two columns differ here in the pixels per thread only");
  double seq_first = kNoValue, seq_last = kNoValue;
  for (const SeedImage& img : kImages) {
    const Size s = size_of(run, img);
    const double px = static_cast<double>(s.width) * s.height;
    const std::string name = img.name;
    run.say(name + " " + format_size(s.width, s.height));
    const Image<std::uint8_t> samples = kernels::make_histogram_pattern(
        kernels::HistogramPattern::UniformRandom, 3 * s.width, s.height, 9);
    Image<std::uint8_t> out(3 * s.width, s.height);
    const auto cpu =
        run.cpu_one_thread([&] { kernels::smooth_cpu(samples.cview(), 3, out.view()); });
    run.add(name + " sequential", "cpu-1t", px, seconds(img.smooth_seq_s, "Table 13"), "cpu-1t",
            cpu);
    if (&img == &kImages[0]) seq_first = median_ms(cpu);
    if (&img == &kImages[6]) seq_last = median_ms(cpu);
    Timings t;
    for (const std::string v :
         {"global", "tile", "global_32x16", "tile_32x16", "global_32x16_p4", "global_32x16_p15"}) {
      const auto m = run.gpu("smooth " + v + " " + name,
                             [&] { return bench_smooth(samples.cview(), 3, v, options_for(run)); });
      std::optional<SeedFigure> seed;
      if (v == std::string("global_32x16_p15"))
        seed = seconds(img.smooth_15px_s, "Table 13, 15px (height)");
      if (v == std::string("global_32x16_p4")) seed = seconds(img.smooth_4px_s, "Table 13, 4px");
      run.add(name + " " + v, v, px, seed, "cuda " + v, m);
      t[v] = median_ms(m);
    }
    run.compare_claim(name + ": global memory vs shared tile (32x8)",
                      "global memory only is faster than the shared-memory tile (Figure 26)", true,
                      t, "global", "tile");
    run.compare_claim(name + ": global memory vs shared tile (32x16)",
                      "global memory only is faster than the shared-memory tile (Figure 26)", true,
                      t, "global_32x16", "tile_32x16");
    run.compare_claim(name + ": 16x32 blocks vs 8x32 blocks (global memory)",
                      "bigger blocks (16x32 instead of 8x32) increased the performance "
                      "(Figure 26, line 300)",
                      true, t, "global_32x16", "global");
    run.compare_times(name + ": 15 px per thread (height) against 4 px", "15px (height)",
                      img.smooth_15px_s, "4px", img.smooth_4px_s, "Table 13", "global_32x16_p15",
                      t["global_32x16_p15"], "global_32x16_p4", t["global_32x16_p4"]);
  }
  run.compare_growth("sequential time from img00 to img06 (250x the pixels)",
                     "0.067991 s to 18.571981 s: 273.15x (Table 13)", 18.571981 / 0.067991,
                     seq_last / seq_first);
}

}  // namespace mad::bench
