// GPU halves of the `mad bench` groups csf, fft, log_gabor and appearance (CUDA builds only):
// cuFFT plans of the stages' shapes, the detection stage's CSF multiply, the log-Gabor bank's
// construction and the appearance stage object, timed with CUDA events (warm-up first, the L2
// flushed before every timed run, every timed run synchronized so its events bracket exactly
// one run: gpu_timer_cuda.h). Counting rules: see group_spectral.cpp, which makes the matching
// CPU rows.
#include <cuda_runtime.h>
#include <cufft.h>

#include <cmath>
#include <functional>
#include <memory>
#include <optional>

#include "appearance/appearance_stage_cuda.h"
#include "appearance/log_gabor_cuda.h"
#include "common/cuda_check.h"
#include "common/cuda_resources.h"
#include "common/cufft_ops.h"
#include "detection/luminance_csf_cuda.h"
#include "tools/bench/bench_images.h"
#include "tools/bench/cpu_timer.h"
#include "tools/bench/gpu_timer_cuda.h"
#include "tools/bench/runners.h"

namespace mad::bench {
namespace {

// `prepare` (untimed) and an L2 flush run before the start event, `launch` between the events.
Measurement time_events(const BenchConfig& c, cudaStream_t s, const std::function<void()>& launch,
                        const std::function<void()>& prepare = {}) {
  GpuTimerOptions o;
  o.warmup = c.gpu_warmup;
  o.runs = c.gpu_runs;
  o.flush_l2 = true;
  return time_gpu(
      s, o, [&](int) { launch(); }, prepare);
}

cuda::FftPlan make_plan(Size sz, cufftType type, int batch, cudaStream_t s) {
  cuda::FftPlan plan;
  int dims[2] = {sz.height, sz.width};
  std::size_t work = 0;
  MAD_CUFFT_CHECK(
      cufftMakePlanMany(plan.get(), 2, dims, nullptr, 1, 0, nullptr, 1, 0, type, batch, &work));
  MAD_CUFFT_CHECK(cufftSetStream(plan.get(), s));
  return plan;
}

template <class Real>
cuda::DeviceBuffer<Real> upload_image(ImageView<const double> img, std::size_t copies,
                                      cudaStream_t s) {
  const std::size_t n = img.pixel_count();
  std::vector<Real> host(copies * n);
  for (std::size_t c = 0; c < copies; ++c)
    for (int y = 0; y < img.height; ++y)
      for (int x = 0; x < img.width; ++x)
        host[c * n + static_cast<std::size_t>(y) * img.width + x] = static_cast<Real>(img(y, x));
  cuda::DeviceBuffer<Real> d(host.size());
  MAD_CUDA_CHECK(
      cudaMemcpyAsync(d.get(), host.data(), host.size() * sizeof(Real), cudaMemcpyHostToDevice, s));
  MAD_CUDA_CHECK(cudaStreamSynchronize(s));
  return d;
}

BenchRow gpu_row(const std::string& group, const std::string& case_name, const std::string& variant,
                 Size sz, const std::string& precision, const Measurement& t) {
  BenchRow r = make_row(group, case_name, sz, precision);
  r.variant = variant, r.backend = "cuda";
  apply_measurement(r, t);
  return r;
}

template <class Real>
void spectral(BenchContext& ctx, const std::string& group, Size sz, const std::string& precision) {
  using F = cuda::CufftOps<Real>;
  using C = typename F::Complex;
  const cuda::Stream stream;
  const cudaStream_t s = stream.get();
  const BenchConfig& cfg = ctx.config;
  const std::size_t n = static_cast<std::size_t>(sz.width) * sz.height;
  const std::size_t half = static_cast<std::size_t>(sz.height) * (sz.width / 2 + 1);
  const double rs = sizeof(Real), cs = sizeof(C), dn = double(n), dh = double(half);
  const BenchPair pair = make_bench_pair(sz.width, sz.height, 51);
  const auto image = upload_image<Real>(pair.ref.pixels.cview(), 1, s);
  cuda::DeviceBuffer<C> spectrum(half), saved(half);
  cuda::DeviceBuffer<Real> out(n);
  const auto r2c_plan = make_plan(sz, F::kR2C, 1, s), c2r_plan = make_plan(sz, F::kC2R, 1, s);
  MAD_CUFFT_CHECK(F::r2c(r2c_plan.get(), image.get(), saved.get()));
  // c2r overwrites its input (cuFFT), so every timed run starts from a saved spectrum.
  auto restore = [&] {
    MAD_CUDA_CHECK(cudaMemcpyAsync(spectrum.get(), saved.get(), half * sizeof(C),
                                   cudaMemcpyDeviceToDevice, s));
  };
  const double real_fft_flops = 2.5 * dn * std::log2(dn);
  if (group == "fft") {
    BenchRow a = gpu_row("fft", "r2c", "cufft", sz, precision, time_events(cfg, s, [&] {
                           MAD_CUFFT_CHECK(F::r2c(r2c_plan.get(), image.get(), spectrum.get()));
                         }));
    a.flops = real_fft_flops, a.bytes_in = dn * rs, a.bytes_out = dh * cs,
    a.bytes_moved = a.bytes_in + a.bytes_out;
    BenchRow b = gpu_row(
        "fft", "c2r", "cufft", sz, precision,
        time_events(
            cfg, s, [&] { MAD_CUFFT_CHECK(F::c2r(c2r_plan.get(), spectrum.get(), out.get())); },
            restore));
    b.flops = real_fft_flops, b.bytes_in = dh * cs, b.bytes_out = dn * rs,
    b.bytes_moved = b.bytes_in + b.bytes_out;
    const auto batch_plan = make_plan(sz, F::kC2C, 4, s);
    cuda::DeviceBuffer<C> in4(4 * n), out4(4 * n);
    {  // four copies of the image as complex input (imaginary parts 0)
      std::vector<C> host(4 * n);
      const ImageView<const double> px = pair.ref.pixels.cview();
      for (std::size_t i = 0; i < 4 * n; ++i) {
        const std::size_t k = i % n;
        host[i].x =
            static_cast<Real>(px(static_cast<int>(k / sz.width), static_cast<int>(k % sz.width)));
        host[i].y = 0;
      }
      MAD_CUDA_CHECK(
          cudaMemcpyAsync(in4.get(), host.data(), in4.bytes(), cudaMemcpyHostToDevice, s));
      MAD_CUDA_CHECK(cudaStreamSynchronize(s));
    }
    BenchRow c =
        gpu_row("fft", "c2c_inverse_x4", "cufft", sz, precision, time_events(cfg, s, [&] {
                  MAD_CUFFT_CHECK(F::c2c(batch_plan.get(), in4.get(), out4.get(), CUFFT_INVERSE));
                }));
    c.flops = 4 * 5 * dn * std::log2(dn), c.bytes_in = c.bytes_out = 4 * dn * cs,
    c.bytes_moved = 8 * dn * cs;
    for (BenchRow* r : {&a, &b, &c}) {
      r->note = "cuFFT's own kernels: no resource data";
      ctx.add(std::move(*r));
    }
  } else if (group == "csf") {
    cuda::DeviceBuffer<Real> csf(half);
    detection::gpu::launch_build_csf_half<Real>(sz.width, sz.height, csf.get(), s);
    const Real scale = static_cast<Real>(1.0 / dn);
    auto multiply = [&] {
      detection::gpu::launch_csf_multiply<Real>(spectrum.get(), csf.get(), half, scale, s);
    };
    BenchRow m = gpu_row("csf", "multiply", "csf_multiply", sz, precision,
                         time_events(cfg, s, multiply, restore));
    m.flops = 3 * dh, m.bytes_in = dh * (cs + rs), m.bytes_out = dh * cs,
    m.bytes_moved = dh * (2 * cs + rs);
    BenchRow f = gpu_row("csf", "filter", "cufft+multiply", sz, precision, time_events(cfg, s, [&] {
                           MAD_CUFFT_CHECK(F::r2c(r2c_plan.get(), image.get(), spectrum.get()));
                           multiply();
                           MAD_CUFFT_CHECK(F::c2r(c2r_plan.get(), spectrum.get(), out.get()));
                         }));
    f.flops = 2 * real_fft_flops + 3 * dh, f.bytes_in = f.bytes_out = dn * rs,
    f.bytes_moved = 2 * dn * rs;
    ctx.add(std::move(m));
    ctx.add(std::move(f));
  } else if (group == "log_gabor") {
    // Construction allocates its planes, so it is timed on the host clock around the
    // constructor and a stream synchronization (allocation included, freeing excluded).
    std::unique_ptr<appearance::LogGaborBankCuda<Real>> bank;
    const Measurement m = time_host(
        cfg.gpu_warmup, cfg.gpu_runs,
        [&](int) {
          bank = std::make_unique<appearance::LogGaborBankCuda<Real>>(sz.width, sz.height, s);
          MAD_CUDA_CHECK(cudaStreamSynchronize(s));
        },
        [&] { bank.reset(); });  // the previous bank is freed untimed
    BenchRow b = gpu_row("log_gabor", "build", "bank_kernel", sz, precision, m);
    b.note = "host clock, cudaMalloc of the factors included (5 radial quadrants, 4 planes)";
    const double quadrant = double(appearance::log_gabor_quadrant_extent(sz.width)) *
                            appearance::log_gabor_quadrant_extent(sz.height);
    const double written = (appearance::kScales * quadrant + appearance::kOrientations * dn) * rs;
    b.bytes_moved = written, b.bytes_in = 0, b.bytes_out = written;
    ctx.add(std::move(b));
  }
}

// The stage with each subband transform the shape can run (appearance/subband_transform.h):
// variant "stage" is the default the scorer runs, "stage-<name>" every transform by name, so
// one run compares them on the same pair.
template <class Real>
void appearance_stage(BenchContext& ctx, Size sz, const std::string& precision) {
  const cuda::Stream stream;
  const cudaStream_t s = stream.get();
  const BenchConfig& cfg = ctx.config;
  const BenchPair pair = make_bench_pair(sz.width, sz.height, 61);
  const auto ref = upload_image<Real>(pair.ref.pixels.cview(), 1, s);
  const auto dst = upload_image<Real>(pair.dst.pixels.cview(), 1, s);
  cuda::DeviceBuffer<double> sum(1);
  constexpr bool kDouble = std::is_same_v<Real, double>;
  std::vector<std::string> transforms = {""};
  for (const VariantInfo& t : appearance::subband_transforms().infos())
    if (t.name != "fused" ||
        appearance::fused_subband_transform_supports(sz.width, sz.height, kDouble))
      transforms.push_back(t.name);
  for (const std::string& transform : transforms) {
    // The bench is a front door: the name becomes the stage's pick here ("": the stage's).
    std::optional<appearance::SubbandTransform> pick;
    if (!transform.empty()) pick = appearance::subband_transforms().find(transform).launch;
    appearance::AppearanceStageCuda<Real> stage(sz.width, sz.height, s,
                                                appearance::a5_variants().default_row(), pick);
    const std::string label = transform.empty() ? "stage" : "stage-" + transform;
    const std::string note =
        std::string("default A5 variant ") + stage.a5_variant() + ", subband transform " +
        appearance::subband_transform_name(stage.subband_transform()) + ", device memory " +
        std::to_string(stage.device_memory().total() >> 20) + " MiB";
    const double image_bytes = double(sz.width) * sz.height * sizeof(Real);
    BenchRow one = gpu_row("appearance", "analyse_one", label, sz, precision,
                           time_events(cfg, s, [&] { stage.prepare_reference(ref.get(), s); }));
    one.bytes_in = image_bytes, one.bytes_out = 0;
    stage.prepare_reference(ref.get(), s);
    BenchRow distorted = gpu_row(
        "appearance", "run_distorted", label, sz, precision,
        time_events(cfg, s, [&] { stage.run_distorted(dst.get(), sum.get(), nullptr, s); }));
    distorted.bytes_in = image_bytes, distorted.bytes_out = sizeof(double);
    BenchRow both = gpu_row(
        "appearance", "pair", label, sz, precision,
        time_events(cfg, s, [&] { stage.run(ref.get(), dst.get(), sum.get(), nullptr, s); }));
    both.bytes_in = 2 * image_bytes, both.bytes_out = sizeof(double);
    for (BenchRow* r : {&one, &distorted, &both}) {
      r->note = note;
      ctx.add(std::move(*r));
    }
  }
}

}  // namespace

void gpu_spectral_rows(BenchContext& ctx, const std::string& group, Size size,
                       const std::string& precision) {
  if (precision == "float")
    spectral<float>(ctx, group, size, precision);
  else
    spectral<double>(ctx, group, size, precision);
}

void gpu_appearance_rows(BenchContext& ctx, Size size, const std::string& precision) {
  if (precision == "float")
    appearance_stage<float>(ctx, size, precision);
  else
    appearance_stage<double>(ctx, size, precision);
}

}  // namespace mad::bench
