// `mad bench` groups gray, darken, histogram, smooth and nick (issue 4's kernels): every
// registered CUDA variant through tools/bench/kernel_bench.h, the CPU reference on one and on all
// threads, at every size; the histogram on every adversarial pattern, Nick over its windows.
//
// Counting rules (per run; "pixels" = width x height, "samples" = pixels x channels):
//  * bytes moved: the compulsory traffic kernel_bench reports, every input byte read once and
//    every output byte written once (scratch such as Nick's integral images or smoothing's
//    padded copy is not counted, so a variant that needs it shows a lower share);
//  * gray/darken: 7 integer operations per pixel (3 multiplies, 3 adds with the rounding
//    constant, 1 shift or divide: kernels/gray_formula.h); exact, no FLOPs;
//  * histogram: no arithmetic (one increment per pixel is data movement): FLOPs = 0;
//  * smooth: 50 integer operations per sample (25 taps x multiply + add), borders counted as
//    interior: nominal;
//  * nick, windowed methods 1-3 and the CPU window loop: 3 integer operations per window sample
//    (an add for S, a multiply and an add for S2) over the exact clipped windows, plus 8 double
//    operations per pixel for the decision (kernels/nick.h): exact; the integral and sliding
//    forms: 11 integer operations per pixel (5 to build the two integral images, 6 for the two
//    4-corner sums) and the 8 of the decision, independent of w: nominal (a GPU scan adds more
//    than one operation per element).
#include <algorithm>
#include <cstdint>

#include "common/image.h"
#include "kernels/gray.h"
#include "kernels/histogram.h"
#include "kernels/histogram_patterns.h"
#include "tools/bench/kernel_bench.h"
#include "kernels/nick.h"
#include "kernels/smooth.h"
#include "tools/bench/runners.h"

namespace mad::bench {
namespace {

// Seeded bytes (splitmix64): fast enough for 8192x8192x3 and content-independent timings.
Image<std::uint8_t> random_bytes(int width, int height, std::uint64_t seed) {
  Image<std::uint8_t> img(width, height);
  std::uint64_t state = seed;
  std::uint8_t* p = img.data();
  const std::size_t n = img.pixel_count();
  for (std::size_t i = 0; i < n; i += 8) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    for (std::size_t b = 0; b < 8 && i + b < n; ++b)
      p[i + b] = static_cast<std::uint8_t>(z >> (8 * b));
  }
  return img;
}

KernelBenchOptions gpu_options(const BenchConfig& c) {
  KernelBenchOptions o;
  o.warmup = c.gpu_warmup;
  o.repeats = c.gpu_runs;
  return o;
}

BenchRow gpu_row(const BenchRow& base, const KernelTiming& t, const VariantInfo& info) {
  BenchRow r = cuda_row(base, t.variant, (info.is_default ? "(default) " : "") + info.note, t.time);
  // Only the CUB histogram launches no kernel of ours: CUB's kernels are not recorded.
  if (t.time.kernels.empty()) r.note += "; CUB's own kernels: no resource data";
  r.bytes_moved = static_cast<double>(t.bytes_read + t.bytes_written);
  describe_launch_shape(r);
  return r;
}

// Runs `bench(variant)` for every registered variant of a kernel and adds its row.
template <class BenchFn>
void cuda_variant_rows(BenchContext& ctx, const BenchRow& base,
                       const std::vector<VariantInfo>& variants, BenchFn&& bench) {
  if (!ctx.config.gpu) return;
  for (const VariantInfo& v : variants)
    ctx.guarded(base.group + " " + v.name + " " + base.case_name + " " +
                    format_size(base.width, base.height),
                [&] { ctx.add(gpu_row(base, bench(v.name), v)); });
}

double pixels(Size s) {
  return static_cast<double>(s.width) * s.height;
}

// Sum over all pixels of the clipped w x w window's pixel count NP.
double nick_window_samples(Size s, int w) {
  auto covered = [w](int n) {
    double total = 0;
    for (int i = 0; i < n; ++i)
      total += std::min(i + kernels::nick_after(w), n - 1) -
               std::max(i - kernels::nick_before(w), 0) + 1;
    return total;
  };
  return covered(s.height) * covered(s.width);
}

}  // namespace

void run_gray_group(BenchContext& ctx, bool darken) {
  const std::string group = darken ? "darken" : "gray";
  const auto weighting = darken ? kernels::GrayWeighting::Darken : kernels::GrayWeighting::Matlab;
  for (const Size s : ctx.config.sizes_for(group)) {
    ctx.say(group + " " + format_size(s.width, s.height));
    const Image<std::uint8_t> rgb_img = random_bytes(3 * s.width, s.height, 11);
    const kernels::RgbView8 rgb = kernels::interleaved_rgb(rgb_img.cview(), 3);
    BenchRow base = make_row(group, "rgb", s, "u8", 3);
    base.bytes_in = 3 * pixels(s);
    base.bytes_out = pixels(s);
    base.bytes_moved = 4 * pixels(s);
    base.flops = 0;
    base.int_ops = 7 * pixels(s);
    base.op_count = "exact";
    cuda_variant_rows(ctx, base, kernels::gray_variants().infos(), [&](const std::string& v) {
      return bench_gray(rgb, weighting, v, gpu_options(ctx.config));
    });
    Image<std::uint8_t> out(s.width, s.height);
    ctx.add_cpu_rows(base, [&] { kernels::gray_cpu(rgb, weighting, out.view()); });
  }
}

void run_histogram_group(BenchContext& ctx) {
  for (const Size s : ctx.config.sizes_for("histogram")) {
    ctx.say("histogram " + format_size(s.width, s.height) + " (6 patterns)");
    for (const kernels::HistogramPattern p : kernels::all_histogram_patterns()) {
      const Image<std::uint8_t> img = kernels::make_histogram_pattern(p, s.width, s.height, 7);
      BenchRow base = make_row("histogram", kernels::histogram_pattern_name(p), s, "u8", 1);
      base.bytes_in = pixels(s);
      base.bytes_out = kernels::kHistogramBins * 4.0;
      base.bytes_moved = base.bytes_in + base.bytes_out;
      base.flops = 0;
      cuda_variant_rows(ctx, base, kernels::histogram_variants().infos(),
                        [&](const std::string& v) {
                          return bench_histogram(img.cview(), v, gpu_options(ctx.config));
                        });
      ctx.add_cpu_rows(base, [&] { (void)kernels::histogram_cpu(img.cview()); });
    }
  }
}

void run_smooth_group(BenchContext& ctx) {
  for (const Size s : ctx.config.sizes_for("smooth")) {
    // Colour only up to 1920x1080: at 8192x8192 it would triple the longest CPU reference.
    const std::vector<int> channel_counts =
        pixels(s) <= 1920.0 * 1080 ? std::vector<int>{1, 3} : std::vector<int>{1};
    for (const int c : channel_counts) {
      ctx.say("smooth " + format_size(s.width, s.height) + " " + std::to_string(c) + "ch");
      const Image<std::uint8_t> img = random_bytes(c * s.width, s.height, 13);
      BenchRow base = make_row("smooth", std::to_string(c) + "ch", s, "u8", c);
      base.bytes_in = base.bytes_out = c * pixels(s);
      base.bytes_moved = 2 * c * pixels(s);
      base.flops = 0;
      base.int_ops = 50 * c * pixels(s);
      base.op_count = "nominal";
      cuda_variant_rows(ctx, base, kernels::smooth_variants().infos(), [&](const std::string& v) {
        return bench_smooth(img.cview(), c, v, gpu_options(ctx.config));
      });
      Image<std::uint8_t> out(c * s.width, s.height);
      ctx.add_cpu_rows(base, [&] { kernels::smooth_cpu(img.cview(), c, out.view()); });
    }
  }
}

void run_nick_group(BenchContext& ctx) {
  for (const Size s : ctx.config.sizes_for("nick")) {
    const Image<std::uint8_t> img = random_bytes(s.width, s.height, 17);
    Image<std::uint8_t> mask(s.width, s.height);
    for (const int w : ctx.config.nick_windows_for(s)) {
      ctx.say("nick " + format_size(s.width, s.height) + " w=" + std::to_string(w));
      const kernels::NickParams params{w, -0.1};
      BenchRow base = make_row("nick", "w=" + std::to_string(w), s, "u8", 1);
      base.bytes_in = base.bytes_out = pixels(s);
      base.bytes_moved = 2 * pixels(s);
      base.flops = 8 * pixels(s);
      base.flop_precision = "double";
      auto count_ops = [&](BenchRow& r, bool integral) {
        r.int_ops = integral ? 11 * pixels(s) : 3 * nick_window_samples(s, w);
        r.op_count = integral ? "nominal" : "exact";
      };
      if (ctx.config.gpu) {
        for (const VariantInfo& v : kernels::nick_variants().infos()) {
          BenchRow b = base;
          // O(1)-per-pixel variants (integral images, sliding sums) get the nominal count.
          count_ops(b, v.name.find("integral") != std::string::npos ||
                           v.name.find("sliding") != std::string::npos);
          ctx.guarded(
              "nick " + v.name + " " + b.case_name + " " + format_size(s.width, s.height), [&] {
                ctx.add(gpu_row(b, bench_nick(img.cview(), params, v.name, gpu_options(ctx.config)),
                                v));
              });
        }
      }
      if (ctx.config.nick_cpu_window_loop) {
        count_ops(base, false);
        base.note = "CPU: the seed's window loop (kernels::nick_cpu_window_loop), O(w^2) per pixel";
        ctx.add_cpu_rows(base,
                         [&] { kernels::nick_cpu_window_loop(img.cview(), params, mask.view()); });
      } else {
        count_ops(base, true);  // the CPU reference uses integral images
        ctx.add_cpu_rows(base, [&] { kernels::nick_cpu(img.cview(), params, mask.view()); });
      }
    }
  }
}

}  // namespace mad::bench
