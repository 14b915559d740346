// `mad bench` groups csf, fft, log_gabor and appearance: the FFT-based stages (spec §3.2, §4.1
// to §4.4) on the CPU (FFTW, common/fft_cpu.h) and, in CUDA builds, on the GPU
// (group_spectral_cuda.cu, cuFFT).
//
// Counting rules (per run; n = M x N, h = M x (N/2 + 1) half-spectrum bins, s = sizeof(Real)):
//  * FFTs (spec §11): a complex 2-D FFT of n points costs 5 n log2 n operations, a real one
//    (r2c or c2r) half of that; bytes: the input read and the output written once;
//  * CSF multiply: 3 operations per half bin (C_s x 1/(MN), then the complex scaling); bytes:
//    spectrum read and written, C_s read (5 s per bin);
//  * CSF filter = r2c + multiply + c2r; bytes: the image read, the filtered image written;
//  * log-Gabor "apply_20": per subband an inverse complex FFT, 8 operations per bin for the
//    filter product and the modulus; bytes: the spectrum read, the magnitude written, per
//    subband;
//  * log-Gabor "build" and the appearance stage: transcendental or composite, no FLOP count;
//    the build's bytes are the 9 factor planes written.
#include <cmath>

#include "appearance/appearance_cpu.h"
#include "appearance/log_gabor.h"
#include "appearance/subband_magnitude.h"
#include "common/fft_cpu.h"
#include "common/parallel.h"
#include "detection/csf.h"
#include "tools/bench/bench_images.h"
#include "tools/bench/runners.h"

namespace mad::bench {
namespace {

void cpu_fft_rows(BenchContext& ctx, Size s, ImageView<const double> image) {
  const CpuFft2d fft(s.width, s.height);
  const double n = double(s.width) * s.height, half = double(s.height) * fft.half_width();
  const double real_fft_flops = 2.5 * n * std::log2(n);
  std::vector<Complex> spectrum(static_cast<std::size_t>(half));
  Image<double> out(s.width, s.height);
  BenchRow r2c = make_row("fft", "r2c", s, "double");
  r2c.flops = real_fft_flops, r2c.bytes_moved = n * 8 + half * 16;
  ctx.add_cpu_rows(r2c, [&] { fft.forward_real_half(image, spectrum.data()); });
  BenchRow c2r = make_row("fft", "c2r", s, "double");
  c2r.flops = real_fft_flops, c2r.bytes_moved = n * 8 + half * 16;
  ctx.add_cpu_rows(c2r, [&] { fft.inverse_real(spectrum.data(), out.view()); });
  // The appearance stage's per-scale batch: 4 inverse complex FFTs (one per orientation).
  const std::size_t bins = static_cast<std::size_t>(n);
  std::vector<Complex> in(4 * bins, Complex(1.0, 0.5)), res(4 * bins);
  BenchRow c2c = make_row("fft", "c2c_inverse_x4", s, "double");
  c2c.flops = 4 * 5 * n * std::log2(n), c2c.bytes_moved = 4 * 2 * n * 16;
  ctx.add_cpu_rows(c2c, [&] {
    parallel_for(4, [&](int k) { fft.inverse(in.data() + k * bins, res.data() + k * bins); });
  });
}

void cpu_csf_rows(BenchContext& ctx, Size s, ImageView<const double> image) {
  const auto filter = detection::shared_csf_filter_cpu(s.width, s.height);
  const double n = double(s.width) * s.height, half = double(s.height) * (s.width / 2 + 1);
  Image<double> out(s.width, s.height);
  BenchRow r = make_row("csf", "filter", s, "double");
  r.flops = 2 * 2.5 * n * std::log2(n) + 3 * half;
  r.bytes_moved = 2 * n * 8;
  ctx.add_cpu_rows(r, [&] { filter->apply(image, out.view()); });
}

void cpu_log_gabor_rows(BenchContext& ctx, Size s, ImageView<const double> image) {
  const double n = double(s.width) * s.height;
  BenchRow build = make_row("log_gabor", "build", s, "double");
  build.bytes_moved = 9 * n * 8;
  ctx.add_cpu_rows(build, [&] { const appearance::LogGaborBankCpu bank(s.width, s.height); });
  const CpuFft2d fft(s.width, s.height);
  const appearance::LogGaborBankCpu bank(s.width, s.height);
  std::vector<Complex> spectrum(static_cast<std::size_t>(n));
  fft.forward_real(image, spectrum.data());
  std::vector<Image<double>> mags(appearance::kSubbands, Image<double>(s.width, s.height));
  BenchRow apply = make_row("log_gabor", "apply_20", s, "double");
  apply.flops = appearance::kSubbands * (5 * n * std::log2(n) + 8 * n);
  apply.bytes_moved = appearance::kSubbands * (16 * n + 8 * n);
  ctx.add_cpu_rows(apply, [&] {
    parallel_for(appearance::kSubbands, [&](int i) {
      appearance::SubbandScratch scratch(static_cast<std::size_t>(n));
      appearance::subband_magnitude_cpu(fft, bank, i / appearance::kOrientations,
                                        i % appearance::kOrientations, spectrum.data(), scratch,
                                        mags[i].view());
    });
  });
}

}  // namespace

void run_spectral_group(BenchContext& ctx, const std::string& group) {
  ctx.sweep_sizes(group, 51, MAD_CUDA_LAUNCH([&](Size s, const std::string& p) {
                    gpu_spectral_rows(ctx, group, s, p);
                  }),
                  [&](Size s, ImageView<const double> image, ImageView<const double> /*dst*/) {
                    if (group == "fft") cpu_fft_rows(ctx, s, image);
                    if (group == "csf") cpu_csf_rows(ctx, s, image);
                    if (group == "log_gabor") cpu_log_gabor_rows(ctx, s, image);
                  });
}

void run_appearance_group(BenchContext& ctx) {
  ctx.sweep_sizes("appearance", 61, MAD_CUDA_LAUNCH([&](Size s, const std::string& p) {
                    gpu_appearance_rows(ctx, s, p);
                  }),
                  [&](Size s, ImageView<const double> ref, ImageView<const double> dst) {
                    const appearance::AppearanceCpu stage(s.width, s.height);
                    ctx.add_cpu_rows(make_row("appearance", "analyse_one", s, "double"),
                                     [&] { (void)stage.analyse(ref); });
                    ctx.add_cpu_rows(make_row("appearance", "pair", s, "double"),
                                     [&] { (void)stage.run(ref, dst, false); });
                  });
}

}  // namespace mad::bench
