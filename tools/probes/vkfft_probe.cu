// Can VkFFT's convolution mode beat the appearance stage's cuFFT sequence? (issue 26, item 2)
//
// The stage (appearance/appearance_stage_cuda.cu) runs one in-place R2C forward 2-D FFT, then
// per scale one product kernel writing the 4 filtered spectra F * (G_s * A_o) as full complex
// planes and one batched inverse 2-D C2C of those 4: 20 inverse transforms. VkFFT's convolution
// mode (Debian's libvkfft-dev 1.2.26, CUDA backend through NVRTC) runs the input's row FFTs, then
// one column kernel that transforms, multiplies by `numberKernels` kernels and runs each
// product's inverse column FFT in registers, then the inverse row FFTs: the products are never
// written. This probe times both and compares their values. What 1.2.26 cannot express here:
//  - complex subbands from an R2C convolution (it ends in a C2R): so C2C, the image going in
//    as complex values with imaginary part 0 (a small kernel, counted in VkFFT's time);
//  - real or separable kernels: 20 complex planes in VkFFT's layout;
//  - one forward shared by separate launches: "conv20" (numberKernels = 20, 20 outputs at once)
//    computes it once; "conv4x5" (4 kernels, the kernel pointer moved per scale, 4 output planes
//    as the stage holds) computes it 5 times;
//  - an unnormalised inverse: outputs are the stage's subbands times 1/(W*H) (normalize = 1).
// The kernels are written in natural (unshifted, row-major) order, as a stage variant would
// write them; should that not be VkFFT's layout the values show it, and they are remade the
// documented way (VkFFT's forward transform of their spatial form, kernelConvolution = 1).
//
// The image is seeded random; the filters are the stage's own (LogGaborBankCuda, multiplied by
// the stage's launch_filter_scale on the cuFFT side), and both paths multiply by the same bits
// of H = G_s * A_o, so differences come from the transforms. Times are GPU time: each timed
// batch is queued behind a 50 ms hold kernel, so host launch costs are not counted (the pair
// engine replays CUDA graphs).
//
// Build and run: tools/probes/vkfft_probe.sh [folder where libvkfft-dev's .deb was unpacked].
// Output: lines "VKFFT: ..." (their meaning: docs/lab/2026-11-27-vkfft-probe.md; the figures:
// docs/performance.md, "VkFFT probe").
#ifndef VKFFT_BACKEND
#define VKFFT_BACKEND 1  // CUDA
#endif
#include <cuda.h>
#include <cuda_runtime.h>
#include <cufft.h>
#include <vkFFT.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "appearance/a5_device_cuda.cuh"         // mul_rn: the stage's explicitly rounded product
#include "appearance/appearance_kernels_cuda.h"  // launch_filter_scale: the stage's products
#include "appearance/log_gabor_cuda.h"           // LogGaborBankCuda: the stage's filter bank
#include "common/cuda_resources.h"
#include "common/cufft_ops.h"

namespace {

namespace ma = mad::appearance;
namespace mc = mad::cuda;
using ma::DeviceComplex;
using ma::kOrientations;
using ma::kScales;
using ma::kSubbands;
using ma::detail::mul_rn;

constexpr int kWarmRuns = 5, kTimedRuns = 25;
constexpr unsigned long long kHoldNs = 50'000'000;
// A wrong kernel layout gives O(1) differences; FFT rounding gives ~1e-15 (double), ~1e-6.
constexpr double kLayoutBroken = 1e-3;

// The 20 filters H = G_s * A_o as complex planes in natural order, subband s * 4 + o: VkFFT's
// convolution kernels, from the bank's 9 expanded planes (radial 0..4, angular 0..3), which
// hold the bits the stage reads; mul_rn forms h as filter_scale_kernel does. Grid-stride.
template <class R>
__global__ void filters_kernel(const R* factors, DeviceComplex<R>* out, std::size_t plane) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < plane;
       i += std::size_t{gridDim.x} * blockDim.x)
    for (int s = 0; s < kScales; ++s)
      for (int o = 0; o < kOrientations; ++o)
        out[ma::subband_index(s, o) * plane + i] = {
            mul_rn(factors[s * plane + i], factors[(kScales + o) * plane + i]), R(0)};
}

// The real image as complex values (x, 0): VkFFT's C2C input. Grid-stride.
template <class R>
__global__ void to_complex_kernel(const R* in, DeviceComplex<R>* out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    out[i] = {in[i], R(0)};
}
// One read of the subbands' moduli: A5's compulsory traffic, so that a time can include the
// consumer (the stage's 4 planes may still sit in L2 when A5 reads them; VkFFT's 20 cannot).
template <class R>
__global__ void read_kernel(const DeviceComplex<R>* in, std::size_t n, R* sink) {
  R acc = 0;
  for (std::size_t i = blockIdx.x * std::size_t{blockDim.x} + threadIdx.x; i < n;
       i += std::size_t{gridDim.x} * blockDim.x)
    acc += sqrt(in[i].x * in[i].x + in[i].y * in[i].y);
  if (acc == R(-1)) *sink = acc;  // never true: keeps the loads
}
// Keeps the GPU busy while the host queues a timed batch.
__global__ void hold_kernel(unsigned long long ns) {
  unsigned long long t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (t - t0 < ns);
}

#define PROBE_VK_CHECK(stmt)                                                                    \
  do {                                                                                          \
    const VkFFTResult vk_ = (stmt);                                                             \
    if (vk_ != VKFFT_SUCCESS)                                                                   \
      throw mad::GpuError(std::string("VkFFT error ") + std::to_string(vk_) + " in `" + #stmt + \
                          "`");                                                                 \
  } while (0)

// Median GPU microseconds of one call of f, over kTimedRuns after kWarmRuns.
template <class F>
double median_us(cudaStream_t stream, F&& f) {
  for (int i = 0; i < kWarmRuns; ++i) f();
  std::vector<mc::Event> start, stop;
  start.reserve(kTimedRuns), stop.reserve(kTimedRuns);
  hold_kernel<<<1, 1, 0, stream>>>(kHoldNs);
  MAD_CUDA_CHECK_LAUNCH();
  for (int i = 0; i < kTimedRuns; ++i) {
    start.emplace_back().record(stream);
    f();
    stop.emplace_back().record(stream);
  }
  stop.back().synchronize();
  std::vector<double> us;
  for (int i = 0; i < kTimedRuns; ++i) us.push_back(1000.0 * stop[i].elapsed_ms_since(start[i]));
  std::nth_element(us.begin(), us.begin() + kTimedRuns / 2, us.end());
  return us[kTimedRuns / 2];
}

// A VkFFT application, released once initialised.
struct VkApp {
  VkFFTApplication app{};
  VkFFTResult init = VKFFT_ERROR_PLAN_NOT_INITIALIZED;
  double plan_s = 0;
  ~VkApp() {
    if (init == VKFFT_SUCCESS) deleteVkFFT(&app);
  }
};

template <class R>
class Probe {
  using C = DeviceComplex<R>;
  using Ops = mc::CufftOps<R>;
  static constexpr const char* kName = sizeof(R) == 8 ? "double" : "float";

 public:
  Probe(int width, int height, CUdevice device, cudaStream_t stream)
      : w_(width),
        h_(height),
        hw_(width / 2 + 1),
        device_(device),
        stream_(stream),
        plane_(std::size_t(width) * height),
        bank_(width, height, stream),
        image_(device_random(plane_)),
        spectrum_(std::size_t(height) * hw_),
        subbands_(kOrientations * plane_),
        reference_(kSubbands * plane_),
        filters_(kSubbands * plane_),
        cimage_(plane_),
        vk_out_(kSubbands * plane_),
        sink_(1) {
    int n[2] = {h_, w_}, real_embed[2] = {h_, 2 * hw_}, half_embed[2] = {h_, hw_};
    std::size_t ws = 0;
    MAD_CUFFT_CHECK(cufftMakePlanMany(forward_.get(), 2, n, real_embed, 1, h_ * 2 * hw_, half_embed,
                                      1, h_ * hw_, Ops::kR2C, 1, &ws));
    MAD_CUFFT_CHECK(cufftMakePlanMany(inverse_.get(), 2, n, nullptr, 1, 0, nullptr, 1, 0, Ops::kC2C,
                                      kOrientations, &ws));
    MAD_CUFFT_CHECK(cufftSetStream(forward_.get(), stream_));
    MAD_CUFFT_CHECK(cufftSetStream(inverse_.get(), stream_));
    mc::DeviceBuffer<R> factors(9 * plane_);
    bank_.expand(factors.get(), stream_);
    filters_kernel<R><<<1056, 256, 0, stream_>>>(factors.get(), filters_.get(), plane_);
    MAD_CUDA_CHECK_LAUNCH();
    MAD_CUDA_CHECK(cudaStreamSynchronize(stream_));  // before `factors` goes
    for (int s = 0; s < kScales; ++s) {
      scale_filters_[s] = filters_.get() + s * kOrientations * plane_;
      scale_out_[s] = vk_out_.get() + s * kOrientations * plane_;
    }
  }

  void run() {
    const char* shape = label();
    const double t_cufft = median_us(stream_, [&] { cufft_stage(false, false); });
    const double t_cufft_read = median_us(stream_, [&] { cufft_stage(false, true); });
    cufft_stage(true, false);  // the reference: all 20 subbands kept
    std::printf(
        "VKFFT: %s cufft: %.1f us, with one read of the subbands %.1f us (1 R2C, 5 x "
        "(product of 4 + batched inverse of 4); median of %d, GPU time)\n",
        shape, t_cufft, t_cufft_read, kTimedRuns);
    VkApp conv20, conv4;
    make_convolution(conv20, kSubbands, &vk_out_ptr_, &conv20_bytes_);
    make_convolution(conv4, kOrientations, &subbands_ptr_, &conv4_bytes_);
    const double d20 = measure("conv20", conv20, t_cufft, t_cufft_read);
    const double d4 = measure("conv4x5", conv4, t_cufft, t_cufft_read);
    if (d20 > kLayoutBroken || d4 > kLayoutBroken) remake_filters(conv20, conv4);
  }

 private:
  // A seeded random image in [0, 1).
  mc::DeviceBuffer<R> device_random(std::size_t n) const {
    std::mt19937 rng(20261127);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<R> v(n);
    for (R& x : v) x = static_cast<R>(u(rng));
    return mc::upload(v, stream_);
  }
  const char* label() {
    std::snprintf(label_, sizeof(label_), "%dx%d %s", w_, h_, kName);
    return label_;
  }
  void read(const C* d, std::size_t n) {
    read_kernel<R><<<1056, 256, 0, stream_>>>(d, n, sink_.get());
    MAD_CUDA_CHECK_LAUNCH();
  }

  // The stage's sequence; keep_all puts scale s's subbands at reference_ + 4s planes instead of
  // the stage's one 4-plane buffer.
  void cufft_stage(bool keep_all, bool with_read) {
    const std::size_t row = w_ * sizeof(R);
    MAD_CUDA_CHECK(cudaMemcpy2DAsync(spectrum_.get(), 2 * hw_ * sizeof(R), image_.get(), row, row,
                                     h_, cudaMemcpyDeviceToDevice, stream_));
    MAD_CUFFT_CHECK(
        Ops::r2c(forward_.get(), reinterpret_cast<R*>(spectrum_.get()), spectrum_.get()));
    for (int s = 0; s < kScales; ++s) {
      C* out = keep_all ? reference_.get() + s * kOrientations * plane_ : subbands_.get();
      ma::detail::launch_filter_scale<R>(spectrum_.get(), hw_, bank_, s, out, stream_);
      MAD_CUFFT_CHECK(Ops::c2c(inverse_.get(), out, out, CUFFT_INVERSE));
      if (with_read) read(out, kOrientations * plane_);
    }
  }

  // A 2-D C2C VkFFT configuration of this shape and precision on stream_.
  VkFFTConfiguration base_config() {
    VkFFTConfiguration c{};
    c.FFTdim = 2;
    c.size[0] = w_, c.size[1] = h_, c.size[2] = 1;
    c.device = &device_, c.stream = &stream_, c.num_streams = 1;
    c.doublePrecision = sizeof(R) == 8;
    return c;
  }
  // A C2C convolution of the complex image with `kernels` kernels into `out` (`kernels` planes).
  void make_convolution(VkApp& a, int kernels, void** out, std::uint64_t* out_bytes) {
    VkFFTConfiguration c = base_config();
    c.performConvolution = 1, c.numberKernels = kernels, c.normalize = 1;
    c.isInputFormatted = 1, c.inputBuffer = &cimage_ptr_, c.inputBufferSize = &cimage_bytes_;
    c.buffer = out, c.bufferSize = out_bytes;
    c.kernel = &filters_ptr_, c.kernelSize = &filters_bytes_;
    const auto t0 = std::chrono::steady_clock::now();
    a.init = initializeVkFFT(&a.app, c);
    a.plan_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  // One VkFFT pass over the image: conv20 at once, or conv4x5 scale by scale (into vk_out_ when
  // checking, into the stage's 4-plane buffer when timing).
  //
  // Every launch names its input, kernel, buffer and outputBuffer, buffer and outputBuffer the
  // same pointer. In 1.2.26 (VkFFTUpdateBufferSet) a convolution of numberKernels > 1 writes the
  // products of its column kernel to outputBuffer, and its inverse row FFTs read them back from
  // buffer and write outputBuffer; without isOutputFormatted, initializeVkFFT sets outputBuffer to
  // the plan's buffer, and a launch changes it only when it names outputBuffer itself
  // (VkFFTCheckUpdateBufferSet). conv4x5 used to name only buffer and kernel: when checking, the
  // row FFTs wrote the named scale_out_[s], the products went to the plan's buffer (subbands_),
  // and the inverse read scale_out_[s] (row transforms in one plane, the NaN fill in three) and
  // wrote subbands_: vk_out_ never held a subband ("outputs unwritten"). Its timed launches
  // named subbands_, the plan's own buffer, so they ran the intended flow, unchecked. The
  // CUDA backend passes these void** to cuLaunchKernel, which reads the device pointers they
  // hold at each launch: scale_filters_[s] and scale_out_[s] must stay put, and they do.
  void vk_stage(VkApp& a, bool checking, bool with_read) {
    to_complex_kernel<R><<<1056, 256, 0, stream_>>>(image_.get(), cimage_.get(), plane_);
    MAD_CUDA_CHECK_LAUNCH();
    const bool all = a.app.configuration.numberKernels == std::uint64_t(kSubbands);
    for (int s = 0; s < (all ? 1 : kScales); ++s) {
      void** out = all        ? &vk_out_ptr_
                   : checking ? reinterpret_cast<void**>(&scale_out_[s])
                              : &subbands_ptr_;
      VkFFTLaunchParams lp{};
      lp.inputBuffer = &cimage_ptr_;
      lp.kernel = all ? &filters_ptr_ : reinterpret_cast<void**>(&scale_filters_[s]);
      lp.buffer = out;
      lp.outputBuffer = out;
      PROBE_VK_CHECK(VkFFTAppend(&a.app, -1, &lp));
      if (with_read)
        read(all ? vk_out_.get() : subbands_.get(), (all ? kSubbands : kOrientations) * plane_);
    }
  }

  // Max over the 20 planes of max|v * scale - c| / max|c| (c: cuFFT's, v: VkFFT's output; a
  // value not written, NaN, counts as infinite), and ||c|| / ||v||, which should be `scale`.
  std::pair<double, double> compare(double scale) {
    std::vector<C> c(plane_), v(plane_);
    double worst = 0, cc = 0, vv = 0;
    for (int k = 0; k < kSubbands; ++k) {
      MAD_CUDA_CHECK(cudaMemcpy(c.data(), reference_.get() + k * plane_, plane_ * sizeof(C),
                                cudaMemcpyDeviceToHost));
      MAD_CUDA_CHECK(cudaMemcpy(v.data(), vk_out_.get() + k * plane_, plane_ * sizeof(C),
                                cudaMemcpyDeviceToHost));
      double cmax = 0, dmax = 0;
      for (std::size_t i = 0; i < plane_; ++i) {
        cmax = std::max(cmax, std::hypot(double(c[i].x), double(c[i].y)));
        const double d = std::hypot(v[i].x * scale - c[i].x, v[i].y * scale - c[i].y);
        dmax = std::isfinite(d) ? std::max(dmax, d) : HUGE_VAL;
        cc += double(c[i].x) * c[i].x + double(c[i].y) * c[i].y;
        vv += double(v[i].x) * v[i].x + double(v[i].y) * v[i].y;
      }
      worst = std::max(worst, cmax > 0 ? dmax / cmax : dmax);
    }
    return {worst, vv > 0 ? std::sqrt(cc / vv) : 0.0};
  }
  // The output is normalised by 1/(W*H) (see the top), hence the default scale.
  std::pair<double, double> check(VkApp& a, double scale = 0) {
    MAD_CUDA_CHECK(cudaMemsetAsync(vk_out_.get(), 0xff, kSubbands * plane_ * sizeof(C), stream_));
    vk_stage(a, true, false);
    MAD_CUDA_CHECK(cudaStreamSynchronize(stream_));
    return compare(scale > 0 ? scale : double(plane_));
  }

  // Times and checks one VkFFT form; returns its max relative difference (0 when not planned).
  double measure(const char* form, VkApp& a, double t_cufft, double t_cufft_read) {
    if (a.init != VKFFT_SUCCESS) {
      std::printf("VKFFT: %s vkfft-%s: not possible (initializeVkFFT returned %d)\n", label(), form,
                  int(a.init));
      return 0;
    }
    const auto [rel, ratio] = check(a);
    const double t = median_us(stream_, [&] { vk_stage(a, false, false); });
    const double tr = median_us(stream_, [&] { vk_stage(a, false, true); });
    std::printf(
        "VKFFT: %s vkfft-%s: %.1f us (%.2fx cuFFT's), with the read %.1f us (%.2fx); "
        "max rel diff %.2e (natural-order kernels), norm ratio %.6g (expect %zu); "
        "planned in %.2f s\n",
        label(), form, t, t / t_cufft, tr, tr / t_cufft_read, rel, ratio, plane_, a.plan_s);
    return rel;
  }

  // The kernels made by VkFFT's own forward transform of their spatial form (cuFFT's
  // unnormalised inverse: kernels and outputs W*H times too large, so compared at scale 1),
  // then both forms checked again.
  void remake_filters(VkApp& conv20, VkApp& conv4) {
    mc::FftPlan batch;
    int n[2] = {h_, w_};
    std::size_t ws = 0;
    MAD_CUFFT_CHECK(cufftMakePlanMany(batch.get(), 2, n, nullptr, 1, 0, nullptr, 1, 0, Ops::kC2C,
                                      kSubbands, &ws));
    MAD_CUFFT_CHECK(cufftSetStream(batch.get(), stream_));
    MAD_CUFFT_CHECK(Ops::c2c(batch.get(), filters_.get(), filters_.get(), CUFFT_INVERSE));
    VkApp k;
    VkFFTConfiguration c = base_config();
    c.kernelConvolution = 1, c.numberBatches = kSubbands;
    c.buffer = &filters_ptr_, c.bufferSize = &filters_bytes_;
    k.init = initializeVkFFT(&k.app, c);
    if (k.init != VKFFT_SUCCESS) {
      std::printf(
          "VKFFT: %s kernels: natural order is not VkFFT's layout, and the kernel plan "
          "failed (initializeVkFFT returned %d)\n",
          label(), int(k.init));
      return;
    }
    VkFFTLaunchParams lp{};
    PROBE_VK_CHECK(VkFFTAppend(&k.app, -1, &lp));
    const double r20 = conv20.init == VKFFT_SUCCESS ? check(conv20, 1.0).first : -1;
    const double r4 = conv4.init == VKFFT_SUCCESS ? check(conv4, 1.0).first : -1;
    std::printf(
        "VKFFT: %s kernels: natural order is not VkFFT's layout; with kernels from "
        "VkFFT's own forward transform: conv20 max rel diff %.2e, conv4x5 %.2e "
        "(-1: not planned)\n",
        label(), r20, r4);
  }

  int w_, h_, hw_;
  CUdevice device_;
  cudaStream_t stream_;
  std::size_t plane_;
  ma::LogGaborBankCuda<R> bank_;
  mc::DeviceBuffer<R> image_;
  mc::DeviceBuffer<C> spectrum_, subbands_, reference_, filters_, cimage_, vk_out_;
  mc::DeviceBuffer<R> sink_;
  mc::FftPlan forward_, inverse_;
  // VkFFT keeps pointers to these (void** and uint64_t*): they live as long as its plans.
  void* cimage_ptr_ = cimage_.get();
  void* subbands_ptr_ = subbands_.get();
  void* vk_out_ptr_ = vk_out_.get();
  void* filters_ptr_ = filters_.get();
  C* scale_filters_[kScales] = {};
  C* scale_out_[kScales] = {};
  std::uint64_t cimage_bytes_ = plane_ * sizeof(C);
  std::uint64_t filters_bytes_ = kSubbands * plane_ * sizeof(C);
  std::uint64_t conv20_bytes_ = kSubbands * plane_ * sizeof(C);
  std::uint64_t conv4_bytes_ = kOrientations * plane_ * sizeof(C);
  char label_[64] = {};
};

}  // namespace

int main() {
  constexpr int kShapes[][2] = {{512, 384}, {512, 512}, {1920, 1080}};
  try {
    MAD_CUDA_CHECK(cudaSetDevice(0));
    MAD_CUDA_CHECK(cudaFree(nullptr));  // the primary context, which VkFFT's driver calls use
    CUdevice device = 0;
    if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&device, 0) != CUDA_SUCCESS)
      throw mad::GpuError("cuInit/cuDeviceGet failed");
    cudaDeviceProp prop{};
    MAD_CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    int cufft = 0, driver = 0;
    MAD_CUFFT_CHECK(cufftGetVersion(&cufft));
    MAD_CUDA_CHECK(cudaDriverGetVersion(&driver));
    std::printf("VKFFT: device %s, CUDA driver %d, cuFFT %d, VkFFT %d\n", prop.name, driver, cufft,
                VkFFTGetVersion());
    mc::Stream stream;
    for (const auto& s : kShapes) {
      for (int precision = 0; precision < 2; ++precision) {
        try {
          if (precision == 0)
            Probe<double>(s[0], s[1], device, stream.get()).run();
          else
            Probe<float>(s[0], s[1], device, stream.get()).run();
        } catch (const std::exception& e) {
          std::printf("VKFFT: %dx%d %s: error: %s\n", s[0], s[1], precision ? "float" : "double",
                      e.what());
        }
        std::fflush(stdout);
      }
    }
  } catch (const std::exception& e) {
    std::printf("VKFFT: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
