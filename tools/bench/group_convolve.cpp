// `mad bench` group convolve: the general odd NxN convolution (kernels/convolve.h, seed 001 §3)
// with the seed's triangular filter, N = 3, 5, 9, 17, on 8-bit and float images; every
// registered variant through tools/bench/convolve_bench.h (default 32x16 block shape; regblock
// fixes its own), the CPU reference on one and on all threads.
//
// Counting rules (per run; "pixels" = width x height):
//  * bytes moved: the compulsory traffic, the image read once and written once (1 B per 8-bit
//    sample, 4 B per float), as the other kernel groups count it;
//  * operations: N^2 multiplies and N^2 adds per output, borders counted as interior (the
//    variants skip or zero the outside taps): nominal. Float rows count them as FLOPs, 8-bit
//    rows as integer operations.
// The CPU rows run up to 1920x1080 only: at 8192x8192 the N = 17 reference alone takes tens of
// seconds a call, past the full run's budget.
#include <cstdint>
#include <string>

#include "common/image.h"
#include "kernels/convolve.h"
#include "tools/bench/convolve_bench.h"
#include "tools/bench/runners.h"

namespace mad::bench {
namespace {

constexpr int kConvolveSizes[] = {3, 5, 9, 17};

// Seeded bytes (an LCG's high byte): content-independent timings.
Image<std::uint8_t> seeded_bytes(int width, int height, std::uint32_t seed) {
  Image<std::uint8_t> img(width, height);
  std::uint32_t state = seed;
  for (int y = 0; y < height; ++y) {
    std::uint8_t* row = img.row(y);
    for (int x = 0; x < width; ++x) {
      state = state * 1664525u + 1013904223u;
      row[x] = static_cast<std::uint8_t>(state >> 24);
    }
  }
  return img;
}

Image<float> to_float(ImageView<const std::uint8_t> src) {
  Image<float> img(src.width, src.height);
  for (int y = 0; y < src.height; ++y)
    for (int x = 0; x < src.width; ++x) img.row(y)[x] = static_cast<float>(src.row(y)[x]) / 255.0f;
  return img;
}

// One size, one element type: every N, every variant, then the CPU rows.
template <class T>
void convolve_rows(BenchContext& ctx, Size s, ImageView<const T> img,
                   const std::string& precision) {
  constexpr bool kBytes = sizeof(T) == 1;
  const double pixels = static_cast<double>(s.width) * s.height;
  for (const int n : kConvolveSizes) {
    if (n > s.width || n > s.height) continue;
    const kernels::ConvolveFilter filter =
        kBytes ? kernels::seed_filter(n) : kernels::seed_filter_float(n);
    // The case names the type too: CPU rows are matched to GPU rows by group, case and size.
    BenchRow base =
        make_row("convolve", "N=" + std::to_string(n) + " " + precision, s, precision, 1);
    base.bytes_in = base.bytes_out = sizeof(T) * pixels;
    base.bytes_moved = 2 * sizeof(T) * pixels;
    const double ops = 2.0 * n * n * pixels;
    base.flops = kBytes ? 0 : ops;
    base.int_ops = kBytes ? ops : 0;
    if (!kBytes) base.flop_precision = "float";
    base.op_count = "nominal";
    if (ctx.config.gpu) {
      KernelBenchOptions o;
      o.warmup = ctx.config.gpu_warmup;
      o.repeats = ctx.config.gpu_runs;
      for (const VariantInfo& v : kernels::convolve_variants().infos()) {
        ctx.guarded("convolve " + v.name + " " + precision + " " + base.case_name + " " +
                        format_size(s.width, s.height),
                    [&] {
                      const KernelTiming t =
                          bench_convolve(img, filter, v.name, kernels::BlockShape{}, o);
                      BenchRow r = cuda_row(base, t.variant,
                                            (v.is_default ? "(default) " : "") + v.note, t.time);
                      r.bytes_moved = static_cast<double>(t.bytes_read + t.bytes_written);
                      describe_launch_shape(r);
                      ctx.add(r);
                    });
      }
    }
    if (pixels <= 1920.0 * 1080) {
      Image<T> out(s.width, s.height);
      ctx.add_cpu_rows(base, [&] { kernels::convolve_cpu(img, filter, out.view()); });
    }
  }
}

}  // namespace

void run_convolve_group(BenchContext& ctx) {
  for (const Size s : ctx.config.sizes_for("convolve")) {
    ctx.say("convolve " + format_size(s.width, s.height) + " (u8 and float, N = 3, 5, 9, 17)");
    const Image<std::uint8_t> bytes = seeded_bytes(s.width, s.height, 19);
    convolve_rows<std::uint8_t>(ctx, s, bytes.cview(), "u8");
    const Image<float> floats = to_float(bytes.cview());
    convolve_rows<float>(ctx, s, floats.cview(), "float");
  }
}

}  // namespace mad::bench
