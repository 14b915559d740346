// `mad bench` groups detection, a5 and combine: the MAD stages' block statistics against their
// CPU references (spec §3.5, §4.4, §5).
//
// Counting rules (per run; B = blocks of the §3.4 grid, n = M x N pixels, s = sizeof(Real)):
//  * detection, reference launch: reads L'_ref (n s), writes μ and σ_mod (2 B s); 384 sample
//    visits per block (the 16x16 mean, an 8x8 mean and second moment: spec §11's count), one
//    operation per visit of a mean pass and three (subtract, multiply, add) per visit of a
//    central-moment pass: 512 per block;
//  * detection, error launch: reads L'_dst, L'_ref (2 n s) and μ, σ_mod (2 B s), writes σ_err
//    and ξ (2 B s); 512 visits per block with E formed on the fly (one more operation per
//    visit): 1536 per block; nominal (a cost model: the variants order their passes
//    differently);
//  * a5: spec §11's count, 2 passes x 256 samples x B x 40 subbands sample visits at 8
//    operations per visit (nominal: a5-fast, for one, shares tile statistics and runs far
//    fewer); bytes: the 40 subbands read once (40 n s), 3 x 40 x B s written;
//  * a5, case mean_1_subband: the thesis's Table 9 measurement, the mean-only forms
//    (a5_mean_variants) on one subband, the K40 figure in the note; reads n s, writes B s,
//    256 additions per block (exact: every form sums each block's 256 samples);
//  * detection stage and combine: composite, no single counting rule (bytes/FLOPs not given).
#include <map>

#include "tools/bench/a5_bench.h"
#include "appearance/block_means.h"
#include "appearance/block_stats.h"
#include "appearance/log_gabor.h"
#include "appearance/subband_magnitude.h"
#include "common/block_grid.h"
#include "common/fft_cpu.h"
#include "common/parallel.h"
#include "detection/block_stats.h"
#include "detection/csf.h"
#include "detection/detection.h"
#include "tools/bench/detection_bench.h"
#include "detection/luminance.h"
#include "tools/bench/bench_images.h"
#include "mad/combine.h"
#include "tools/bench/runners.h"

namespace mad::bench {
namespace {

#ifdef MAD_HAVE_CUDA
void gpu_detection_rows(BenchContext& ctx, Size s, const std::string& precision) {
  DetectionBenchOptions o;
  o.width = s.width;
  o.height = s.height;
  o.precision =
      precision == "float" ? Precision::Float : Precision::Double;
  o.warmup = ctx.config.gpu_warmup;
  o.repetitions = ctx.config.gpu_runs;
  std::map<std::string, DetectionBenchTiming> t;
  for (const auto& timing : bench_detection_cuda(o)) t[timing.name] = timing;
  const double real = precision == "float" ? 4 : 8, n = double(s.width) * s.height;
  const double blocks = static_cast<double>(BlockGrid(s.width, s.height).count());
  auto row = [&](const std::string& case_name, const std::string& variant, const std::string& note,
                 std::vector<const DetectionBenchTiming*> parts) {
    BenchRow r = make_row("detection", case_name, s, precision);
    r.backend = "cuda";
    r.variant = variant;
    r.note = note;
    r.warmup = o.warmup;
    r.runs = parts[0]->time.runs;
    r.median_ms = r.min_ms = r.max_ms = 0;  // a sum of parts is the sum of their statistics
    Measurement launched;                   // every part's kernels, for the resource columns
    for (const auto* p : parts) {
      r.median_ms += p->time.median_ms, r.min_ms += p->time.min_ms, r.max_ms += p->time.max_ms;
      merge_kernels(launched, p->time);
    }
    static_cast<ResourceSummary&>(r) = summarize_resources(launched);
    return r;
  };
  for (const auto& v : detection::detection_stats_variants().infos()) {
    const std::string note = (v.is_default ? "(default) " : "") + v.note;
    const auto& ref = t.at(v.name + "/reference");
    const auto& err = t.at(v.name + "/error");
    BenchRow a = row("block_stats_reference", v.name, note, {&ref});
    a.bytes_in = n * real, a.bytes_out = 2 * blocks * real, a.flops = 512 * blocks;
    a.bytes_moved = a.bytes_in + a.bytes_out;
    BenchRow b = row("block_stats_error", v.name, note, {&err});
    b.bytes_in = 2 * n * real + 2 * blocks * real, b.bytes_out = 2 * blocks * real,
    b.flops = 1536 * blocks;
    b.bytes_moved = b.bytes_in + b.bytes_out;
    BenchRow both =
        row("block_stats", v.name, note + " [reference + error launches]", {&ref, &err});
    both.bytes_in = 2 * n * real, both.bytes_out = 4 * blocks * real,
    both.flops = a.flops + b.flops;
    both.bytes_moved = a.bytes_moved + b.bytes_moved;
    for (BenchRow* r : {&a, &b, &both}) ctx.add(std::move(*r));
  }
  const std::string stage_note =
      "default variants, one pair; prepare_reference once per reference (spec §11)";
  for (const char* part : {"prepare_reference", "run_distorted", "run_distorted+map"}) {
    BenchRow r = row(std::string("stage_") + part, "stage", stage_note,
                     {&t.at(std::string("stage/") + part)});
    ctx.add(std::move(r));
  }
  BenchRow pair = row("stage", "stage", "prepare_reference + run_distorted+map",
                      {&t.at("stage/prepare_reference"), &t.at("stage/run_distorted+map")});
  pair.bytes_in = 2 * n * real, pair.bytes_out = n * real;
  ctx.add(std::move(pair));
}
#endif

}  // namespace

void run_detection_group(BenchContext& ctx) {
  ctx.sweep_sizes(
      "detection", 31,
      MAD_CUDA_LAUNCH([&](Size s, const std::string& p) { gpu_detection_rows(ctx, s, p); }),
      [&](Size s, ImageView<const double> ref, ImageView<const double> dst) {
        Image<double> lum(s.width, s.height), csf_ref(s.width, s.height),
            csf_dst(s.width, s.height), err(s.width, s.height);
        const auto csf = detection::shared_csf_filter_cpu(s.width, s.height);
        detection::luminance_cpu(ref, true, lum.view());
        csf->apply(lum.cview(), csf_ref.view());
        detection::luminance_cpu(dst, true, lum.view());
        csf->apply(lum.cview(), csf_dst.view());
        detection::error_image_cpu(csf_ref.cview(), csf_dst.cview(), err.view());
        const double blocks = static_cast<double>(BlockGrid(s.width, s.height).count()),
                     n = double(s.width) * s.height;
        BenchRow stats = make_row("detection", "block_stats", s, "double");
        stats.flops = 2048 * blocks;
        stats.bytes_moved = (3 * n + 6 * blocks) * 8;  // as the GPU's two launches count it
        ctx.add_cpu_rows(stats, [&] {
          (void)detection::detection_block_stats_cpu(csf_ref.cview(), err.cview());
        });
        ctx.add_cpu_rows(make_row("detection", "stage", s, "double"),
                         [&] { (void)detection::detect_cpu(ref, dst, true, true); });
      });
}

namespace {

#ifdef MAD_HAVE_CUDA
A5BenchOptions a5_bench_options(const BenchContext& ctx, const std::string& precision) {
  A5BenchOptions o;
  o.single_precision = precision == "float";
  o.warmup_runs = ctx.config.gpu_warmup;
  o.timed_runs = ctx.config.gpu_runs;
  return o;
}
#endif

// An A5 row before its timing: `reals_in` reals read and `reals_out` written, each of the
// precision's size (the compulsory traffic every form shares), and `flops`.
BenchRow a5_row(Size s, const std::string& case_name, const std::string& precision,
                double reals_in, double reals_out, double flops) {
  const double real = precision == "float" ? 4 : 8;
  BenchRow r = make_row("a5", case_name, s, precision);
  r.bytes_in = reals_in * real;
  r.bytes_out = reals_out * real;
  r.bytes_moved = r.bytes_in + r.bytes_out;
  r.flops = flops;
  return r;
}

// The mean-only A5 forms on one subband (the thesis's Table 9), GPU rows per precision and the
// CPU reference's rows.
void add_a5_mean_rows(BenchContext& ctx, Size s, ImageView<const double> subband) {
  const BlockGrid grid(s.width, s.height);
  const double n = static_cast<double>(s.width) * s.height,
               blocks = static_cast<double>(grid.count());
  auto base = [&](const std::string& precision) {
    BenchRow r = a5_row(s, "mean_1_subband", precision, n, blocks, 256.0 * blocks);
    r.op_count = "exact";
    return r;
  };
#ifdef MAD_HAVE_CUDA
  if (ctx.config.gpu)
    for (const std::string& p : ctx.config.precisions) {
      for (const auto& res : a5_mean_bench(subband, a5_bench_options(ctx, p)))
        ctx.add(cuda_row(base(p), res.variant,
                         "thesis Table 9 (K40, one 512x512 float subband): " +
                             std::to_string(thesis_table9_ms(res.variant)) + " ms",
                         res.time));
    }
#endif
  std::vector<double> means(grid.count());
  ctx.add_cpu_rows(base("double"), [&] {
    appearance::subband_block_means_cpu(subband, grid, means.data(), grid.cols);
  });
}

}  // namespace

void run_a5_group(BenchContext& ctx) {
  for (const Size s : ctx.config.sizes_for("a5")) {
    ctx.say("a5 " + format_size(s.width, s.height) + " (40 subbands)");
    ctx.guarded("a5 " + format_size(s.width, s.height), [&] {
      // The spec's workload: |EO_{s,o}| of both images of a pair, 40 subbands (CPU path).
      const BenchPair pair = make_bench_pair(s.width, s.height, 41);
      const std::size_t n = static_cast<std::size_t>(s.width) * s.height;
      const CpuFft2d fft(s.width, s.height);
      const appearance::LogGaborBankCpu bank(s.width, s.height);
      std::vector<std::vector<Complex>> spectra(2, std::vector<Complex>(n));
      parallel_for(2, [&](int k) {
        fft.forward_real((k ? pair.dst : pair.ref).pixels.cview(), spectra[k].data());
      });
      std::vector<Image<double>> mags(2 * appearance::kSubbands);
      parallel_for(static_cast<int>(mags.size()), [&](int i) {
        appearance::SubbandScratch scratch(n);
        const int sub = i % appearance::kSubbands;
        mags[i] = Image<double>(s.width, s.height);
        appearance::subband_magnitude_cpu(
            fft, bank, sub / appearance::kOrientations, sub % appearance::kOrientations,
            spectra[i / appearance::kSubbands].data(), scratch, mags[i].view());
      });
      std::vector<ImageView<const double>> views;
      for (const auto& m : mags) views.push_back(m.cview());
      const BlockGrid grid(s.width, s.height);
      const double blocks = static_cast<double>(grid.count()),
                   count = static_cast<double>(views.size());
      // Each subband read once; its three statistics written per block.
      auto base = [&](const std::string& precision) {
        return a5_row(s, "40_subbands", precision, count * n, 3 * count * blocks,
                      8.0 * 2 * 256 * blocks * count);
      };
#ifdef MAD_HAVE_CUDA
      if (ctx.config.gpu)
        for (const std::string& p : ctx.config.precisions) {
          for (const auto& res : a5_bench(views, a5_bench_options(ctx, p)))
            ctx.add(cuda_row(base(p), res.variant,
                             variant_note(appearance::a5_variants(), res.variant), res.time));
        }
#endif
      const std::size_t plane = grid.count();
      std::vector<double> out(3 * views.size() * plane);
      ctx.add_cpu_rows(base("double"), [&] {
        parallel_for(static_cast<int>(views.size()), [&](int i) {
          double* std_plane = out.data() + i * plane;
          appearance::subband_block_stats_cpu(views[i], grid, std_plane,
                                              std_plane + views.size() * plane,
                                              std_plane + 2 * views.size() * plane);
        });
      });
      add_a5_mean_rows(ctx, s, views.front());
    });
  }
}

void run_combine_group(BenchContext& ctx) {
  // The scalar combination of spec §5 (pow, exp): timed as a loop of calls, reported per call.
  // Every backend evaluates it on the host, so it has CPU rows only.
  const int calls = ctx.config.quick ? 10000 : 200000;
  BenchRow r = make_row("combine", "per_call", {0, 0}, "double");
  r.note = "time per call of mad::combine (loop of " + std::to_string(calls) + " calls)";
  volatile double sink = 0;
  const std::size_t first = ctx.rows.size();
  ctx.add_cpu_rows(r, [&] {
    double acc = 0;
    for (int i = 0; i < calls; ++i)
      acc += combine(1e-3 * (i % 977 + 1), 1e-2 * (i % 613 + 1), MadVersion::V2011).mad;
    sink = sink + acc;
  });
  for (std::size_t i = first; i < ctx.rows.size(); ++i) {
    ctx.rows[i].median_ms /= calls, ctx.rows[i].min_ms /= calls, ctx.rows[i].max_ms /= calls;
  }
}

}  // namespace mad::bench
