// What cuFFT allows the appearance stage's inverse transforms (issue 12, goals 2 and 3).
//
// Per scale, the stage multiplies the half spectrum by the 4 log-Gabor filters into 4 complex
// subbands (appearance_kernels_cuda.cu, filter_scale_kernel), runs one batched inverse 2-D C2C
// over them in place, and A5 reads them once. At 512x384 in double that moves ~85 MB per scale
// and image, and it already runs near the copy bandwidth; the only large saving left is to form
// the product while cuFFT loads its input (a load callback), which removes the subbands' write
// and one read. This probe measures whether that can be had with the scores unchanged, and two
// facts about cuFFT's structure that the performance notes rely on:
//   batches     the 2-D C2C of batch 4 against batches of 2 and 1: the same bits? the time?
//   columns     the 2-D C2C against 1-D column transforms then 1-D row transforms (and rows
//               then columns): the same bits? the time?
//   lto         a JIT LTO load callback (cufftXtSetJITCallback, CUDA 12.6+; CUDA 13's
//               signature): does planning succeed? if so, the same bits? the time?
//   legacy      a legacy load callback (cufftXtSetCallback, static cuFFT only): the same bits?
//               the time?
// Inputs are seeded random: the half spectrum, a radial factor per bin and 4 angular planes.
// The product is formed exactly as filter_scale_kernel forms it (h = G * A, then F * h part by
// part, explicitly rounded), by one function that the explicit kernel and the callbacks share,
// so any difference in the output bits comes from cuFFT.
//
// Builds (tools/gpu-check.sh runs all three; the probe is not part of the CMake build because
// the legacy callbacks need the static cuFFT, which must not meet the shared one in one binary):
//   nvcc -std=c++17 -O3 -arch=sm_90 tools/probes/cufft_probe.cu -lcufft -o cufft_probe
//   nvcc -std=c++17 -arch=sm_90 -gencode arch=compute_90,code=lto_90 -dc -fatbin \
//        -DCUFFT_PROBE_LTO_IR tools/probes/cufft_probe.cu -o cufft_probe_callback.fatbin
//   nvcc -std=c++17 -O3 -arch=sm_90 -rdc=true -DCUFFT_PROBE_STATIC tools/probes/cufft_probe.cu \
//        -lcufft_static -lculibos -o cufft_probe_static
//   ./cufft_probe cufft_probe_callback.fatbin; ./cufft_probe_static
// Output: one line per measurement, "cufft-probe <what> <precision> <W>x<H>: ...".
#include <cuda_runtime.h>
#include <cufftXt.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace {

// The filter product's inputs for one scale (device pointers; the struct itself is copied to
// the device for the callbacks).
template <class C, class R>
struct ProductArgs {
  const C* half;  // H x (W/2 + 1) half spectrum
  int half_width;
  const R* radial;   // G_s per bin, full plane
  const R* angular;  // A_o per bin, 4 planes
  int width, height;
};

__device__ __forceinline__ double mul_rn(double a, double b) {
  return __dmul_rn(a, b);
}
__device__ __forceinline__ float mul_rn(float a, float b) {
  return __fmul_rn(a, b);
}

// Element `offset` of the 4 contiguous subband planes: F(kr, kc) * (G(kr, kc) * A_o(kr, kc)),
// F's right half from the mirrored bin, conjugated (filter_scale_kernel's arithmetic).
template <class C, class R>
__device__ __forceinline__ C product_at(const ProductArgs<C, R>& a, unsigned long long offset) {
  const unsigned long long plane = static_cast<unsigned long long>(a.width) * a.height;
  const int o = static_cast<int>(offset / plane);
  const unsigned idx = static_cast<unsigned>(offset - o * plane);
  const int kr = static_cast<int>(idx / a.width), kc = static_cast<int>(idx % a.width);
  C f;
  if (kc < a.half_width) {
    f = a.half[static_cast<std::size_t>(kr) * a.half_width + kc];
  } else {
    const int mr = kr == 0 ? 0 : a.height - kr;
    f = a.half[static_cast<std::size_t>(mr) * a.half_width + (a.width - kc)];
    f.y = -f.y;
  }
  const R h = mul_rn(a.radial[idx], a.angular[static_cast<std::size_t>(o) * plane + idx]);
  C v;
  v.x = mul_rn(f.x, h);
  v.y = mul_rn(f.y, h);
  return v;
}

}  // namespace

// The callbacks (extern "C": the LTO form is looked up by name).
extern "C" __device__ cufftDoubleComplex probe_load_z(void*, unsigned long long offset, void* info,
                                                      void*) {
  return product_at(*static_cast<const ProductArgs<double2, double>*>(info), offset);
}
extern "C" __device__ cufftComplex probe_load_c(void*, unsigned long long offset, void* info,
                                                void*) {
  return product_at(*static_cast<const ProductArgs<float2, float>*>(info), offset);
}

#ifndef CUFFT_PROBE_LTO_IR
namespace {

#define PROBE_CHECK(call)                                                                       \
  do {                                                                                          \
    const int status_ = static_cast<int>(call);                                                 \
    if (status_ != 0) {                                                                         \
      std::fprintf(stderr, "cufft-probe: %s failed with status %d (line %d)\n", #call, status_, \
                   __LINE__);                                                                   \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

#ifdef CUFFT_PROBE_STATIC
// Legacy callbacks take a device function pointer (offset as size_t).
__device__ cufftDoubleComplex legacy_load_z(void* in, size_t offset, void* info, void* shared) {
  return probe_load_z(in, offset, info, shared);
}
__device__ cufftComplex legacy_load_c(void* in, size_t offset, void* info, void* shared) {
  return probe_load_c(in, offset, info, shared);
}
__device__ cufftCallbackLoadZ legacy_load_z_ptr = legacy_load_z;
__device__ cufftCallbackLoadC legacy_load_c_ptr = legacy_load_c;
#endif

template <class C, class R>
__global__ void product_kernel(ProductArgs<C, R> a, C* out) {
  const int kc = blockIdx.x * blockDim.x + threadIdx.x;
  const int kr = blockIdx.y * blockDim.y + threadIdx.y;
  if (kc >= a.width || kr >= a.height) return;
  const unsigned long long plane = static_cast<unsigned long long>(a.width) * a.height;
  const unsigned long long idx = static_cast<unsigned long long>(kr) * a.width + kc;
  for (int o = 0; o < 4; ++o) out[o * plane + idx] = product_at(a, o * plane + idx);
}

// One read of the subbands (A5's compulsory traffic), so that a timing includes the consumer.
template <class C, class R>
__global__ void read_kernel(const C* in, unsigned long long n, R* sink) {
  R acc = 0;
  for (unsigned long long i =
           blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
       i < n; i += static_cast<unsigned long long>(gridDim.x) * blockDim.x)
    acc += sqrt(in[i].x * in[i].x + in[i].y * in[i].y);
  if (acc == R(-1)) *sink = acc;  // never true: keeps the loads
}

// The two precisions' cuFFT names side by side: R = double (Z2Z) or float (C2C).
template <class R>
struct Precision {
  static constexpr bool is_double = std::is_same_v<R, double>;
  using C = std::conditional_t<is_double, double2, float2>;
  static constexpr const char* name = is_double ? "double" : "float";
  static constexpr cufftType type = is_double ? CUFFT_Z2Z : CUFFT_C2C;
  static constexpr cufftXtCallbackType load =
      is_double ? CUFFT_CB_LD_COMPLEX_DOUBLE : CUFFT_CB_LD_COMPLEX;
  static const char* symbol() { return is_double ? "probe_load_z" : "probe_load_c"; }
  // In place; cufftXtExec runs a plan of either type, so one call serves both precisions.
  static void inverse(cufftHandle p, C* d) { PROBE_CHECK(cufftXtExec(p, d, d, CUFFT_INVERSE)); }
};

template <class T>
struct DeviceArray {
  T* p = nullptr;
  explicit DeviceArray(std::size_t n) { PROBE_CHECK(cudaMalloc(&p, n * sizeof(T))); }
  ~DeviceArray() { cudaFree(p); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
};

struct Plan {
  cufftHandle h = 0;
  Plan() { PROBE_CHECK(cufftCreate(&h)); }
  ~Plan() { cufftDestroy(h); }
  Plan(const Plan&) = delete;
  Plan& operator=(const Plan&) = delete;
};

// Microseconds per call of f, on the legacy stream, after 3 warm-up calls (median of 3 runs of
// `reps` calls).
template <class F>
double time_us(F&& f, int reps) {
  cudaEvent_t a, b;
  PROBE_CHECK(cudaEventCreate(&a));
  PROBE_CHECK(cudaEventCreate(&b));
  for (int i = 0; i < 3; ++i) f();
  double runs[3];
  for (double& r : runs) {
    PROBE_CHECK(cudaEventRecord(a));
    for (int i = 0; i < reps; ++i) f();
    PROBE_CHECK(cudaEventRecord(b));
    PROBE_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    PROBE_CHECK(cudaEventElapsedTime(&ms, a, b));
    r = 1000.0 * ms / reps;
  }
  PROBE_CHECK(cudaEventDestroy(a));
  PROBE_CHECK(cudaEventDestroy(b));
  const double lo = std::min(runs[0], std::min(runs[1], runs[2]));
  const double hi = std::max(runs[0], std::max(runs[1], runs[2]));
  return runs[0] + runs[1] + runs[2] - lo - hi;
}

// Elements of the two device arrays whose bits differ.
template <class C>
std::size_t differing(const C* x, const C* y, std::size_t n) {
  std::vector<C> hx(n), hy(n);
  PROBE_CHECK(cudaMemcpy(hx.data(), x, n * sizeof(C), cudaMemcpyDeviceToHost));
  PROBE_CHECK(cudaMemcpy(hy.data(), y, n * sizeof(C), cudaMemcpyDeviceToHost));
  std::size_t d = 0;
  for (std::size_t i = 0; i < n; ++i) d += std::memcmp(&hx[i], &hy[i], sizeof(C)) != 0;
  return d;
}

// One shape in one precision: random inputs, the reference (product kernel, then the 2-D plan
// of batch 4), and each alternative against it.
template <class R>
class Probe {
  using P = Precision<R>;
  using C = typename P::C;

 public:
  Probe(int width, int height)
      : w_(width),
        h_(height),
        plane_(static_cast<std::size_t>(width) * height),
        half_(static_cast<std::size_t>(height) * (width / 2 + 1)),
        radial_(plane_),
        angular_(4 * plane_),
        reference_(4 * plane_),
        work_(4 * plane_),
        args_dev_(1),
        sink_(1) {
    std::mt19937 rng(20261125);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<C> half(half_size());
    for (C& c : half) c.x = static_cast<R>(u(rng)), c.y = static_cast<R>(u(rng));
    std::vector<R> radial(plane_), angular(4 * plane_);
    for (R& r : radial) r = static_cast<R>(std::abs(u(rng)));
    for (R& a : angular) a = static_cast<R>(std::abs(u(rng)));
    PROBE_CHECK(cudaMemcpy(half_.p, half.data(), half.size() * sizeof(C), cudaMemcpyHostToDevice));
    PROBE_CHECK(cudaMemcpy(radial_.p, radial.data(), plane_ * sizeof(R), cudaMemcpyHostToDevice));
    PROBE_CHECK(
        cudaMemcpy(angular_.p, angular.data(), 4 * plane_ * sizeof(R), cudaMemcpyHostToDevice));
    args_ = {half_.p, width / 2 + 1, radial_.p, angular_.p, width, height};
    PROBE_CHECK(cudaMemcpy(args_dev_.p, &args_, sizeof(args_), cudaMemcpyHostToDevice));
    make_2d(plain_.h, 4);
    product(reference_.p);
    P::inverse(plain_.h, reference_.p);
    PROBE_CHECK(cudaDeviceSynchronize());
  }

  // The batches and columns lines.
  void structure() {
    Plan two, one, rows, cols;
    make_2d(two.h, 2);
    make_2d(one.h, 1);
    int nr[1] = {w_}, nc[1] = {h_};
    std::size_t ws = 0;
    PROBE_CHECK(
        cufftMakePlanMany(rows.h, 1, nr, nullptr, 1, w_, nullptr, 1, w_, P::type, 4 * h_, &ws));
    PROBE_CHECK(cufftMakePlanMany(cols.h, 1, nc, nc, w_, 1, nc, w_, 1, P::type, w_, &ws));
    const auto batches_of = [&](cufftHandle p, int batch) {
      for (int i = 0; i < 4; i += batch) P::inverse(p, work_.p + i * plane_);
    };
    const auto columns = [&] {
      for (int i = 0; i < 4; ++i) P::inverse(cols.h, work_.p + i * plane_);
    };
    const auto rows_all = [&] { P::inverse(rows.h, work_.p); };
    const std::size_t n = 4 * plane_;
    product(work_.p), batches_of(two.h, 2);
    const std::size_t d2 = differing(reference_.p, work_.p, n);
    product(work_.p), batches_of(one.h, 1);
    const std::size_t d1 = differing(reference_.p, work_.p, n);
    product(work_.p), columns(), rows_all();
    const std::size_t dcr = differing(reference_.p, work_.p, n);
    product(work_.p), rows_all(), columns();
    const std::size_t drc = differing(reference_.p, work_.p, n);
    const int reps = reps_for();
    const double t4 = time_us([&] { batches_of(plain_.h, 4); }, reps);
    const double t2 = time_us([&] { batches_of(two.h, 2); }, reps);
    const double t1 = time_us([&] { batches_of(one.h, 1); }, reps);
    const double tcr = time_us([&] { columns(), rows_all(); }, reps);
    std::printf(
        "cufft-probe batches %s %dx%d: batch 2 differs in %zu, batch 1 in %zu of %zu "
        "values | 4 transforms: batch 4 %.1f us, 2 x batch 2 %.1f us, 4 x batch 1 %.1f us\n",
        P::name, w_, h_, d2, d1, n, t4, t2, t1);
    std::printf(
        "cufft-probe columns %s %dx%d: 1-D columns then rows differ in %zu, rows then "
        "columns in %zu of %zu values | 2-D %.1f us, columns then rows %.1f us\n",
        P::name, w_, h_, dcr, drc, n, t4, tcr);
  }

  // The lto line: planning with the JIT LTO callback `fatbin`.
  void lto(const std::vector<char>& fatbin) {
#if defined(CUFFT_VERSION) && CUFFT_VERSION >= 12000
    Plan cb;
    void* info[1] = {args_dev_.p};
    const int set =
        cufftXtSetJITCallback(cb.h, P::symbol(), fatbin.data(), fatbin.size(), P::load, info);
    int n[2] = {h_, w_};
    std::size_t ws = 0;
    const auto t0 = std::chrono::steady_clock::now();
    const int made =
        set != 0 ? -1
                 : cufftMakePlanMany(cb.h, 2, n, nullptr, 1, 0, nullptr, 1, 0, P::type, 4, &ws);
    const double plan_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (set != 0 || made != 0) {
      std::printf(
          "cufft-probe lto %s %dx%d: not available (cufftXtSetJITCallback %d, "
          "cufftMakePlanMany %d)\n",
          P::name, w_, h_, set, made);
      return;
    }
    std::printf("cufft-probe lto %s %dx%d: planning with the callback took %.3f s\n", P::name, w_,
                h_, plan_s);
    compare_callback(cb.h, "lto");
#else
    (void)fatbin;
    std::printf(
        "cufft-probe lto %s %dx%d: not available (cuFFT %d has no CUDA 13 "
        "cufftXtSetJITCallback)\n",
        P::name, w_, h_, CUFFT_VERSION);
#endif
  }

#ifdef CUFFT_PROBE_STATIC
  // The legacy line: a legacy callback (static cuFFT).
  void legacy() {
    Plan cb;
    make_2d(cb.h, 4);
    void* fn = nullptr;
    if (sizeof(R) == 8)
      PROBE_CHECK(cudaMemcpyFromSymbol(&fn, legacy_load_z_ptr, sizeof(fn)));
    else
      PROBE_CHECK(cudaMemcpyFromSymbol(&fn, legacy_load_c_ptr, sizeof(fn)));
    void* info[1] = {args_dev_.p};
    PROBE_CHECK(cufftXtSetCallback(cb.h, &fn, P::load, info));
    compare_callback(cb.h, "legacy");
  }
#endif

 private:
  std::size_t half_size() const {
    return static_cast<std::size_t>(h_) * (w_ / 2 + 1);
  }
  int reps_for() const {
    return plane_ > 4000000 ? 5 : plane_ > 500000 ? 20 : 50;
  }

  void make_2d(cufftHandle p, int batch) {
    int n[2] = {h_, w_};
    std::size_t ws = 0;
    PROBE_CHECK(cufftMakePlanMany(p, 2, n, nullptr, 1, 0, nullptr, 1, 0, P::type, batch, &ws));
  }
  void product(C* out) {
    const dim3 block(32, 8), grid((w_ + 31) / 32, (h_ + 7) / 8);
    product_kernel<C, R><<<grid, block>>>(args_, out);
    PROBE_CHECK(cudaGetLastError());
  }
  void read(const C* in) {
    read_kernel<C, R><<<528, 256>>>(in, 4 * plane_, sink_.p);
    PROBE_CHECK(cudaGetLastError());
  }

  // The callback plan's output against the reference (its input buffer poisoned first, so a
  // callback that is not called shows), and both ways timed with the product's consumer.
  void compare_callback(cufftHandle cb, const char* what) {
    PROBE_CHECK(cudaMemset(work_.p, 0xff, 4 * plane_ * sizeof(C)));
    P::inverse(cb, work_.p);
    PROBE_CHECK(cudaDeviceSynchronize());
    const std::size_t d = differing(reference_.p, work_.p, 4 * plane_);
    const int reps = reps_for();
    const double explicit_us =
        time_us([&] { product(work_.p), P::inverse(plain_.h, work_.p), read(work_.p); }, reps);
    const double callback_us = time_us([&] { P::inverse(cb, work_.p), read(work_.p); }, reps);
    std::printf(
        "cufft-probe %s %s %dx%d: differs in %zu of %zu values | product, 2-D batch 4 "
        "and one read: %.1f us explicit, %.1f us with the load callback (%.2fx)\n",
        what, P::name, w_, h_, d, 4 * plane_, explicit_us, callback_us, callback_us / explicit_us);
  }

  int w_, h_;
  std::size_t plane_;
  DeviceArray<C> half_;
  DeviceArray<R> radial_, angular_;
  DeviceArray<C> reference_, work_;
  DeviceArray<ProductArgs<C, R>> args_dev_;
  DeviceArray<R> sink_;
  ProductArgs<C, R> args_{};
  Plan plain_;
};

// 512x384: the batch goal's shape; 512x512: the one-pair goal's; 1920x1080; and two odd ones.
constexpr int kShapes[][2] = {{512, 384}, {512, 512}, {1920, 1080}, {257, 333}, {1031, 769}};

template <class R>
void run_shape(int w, int h, const std::vector<char>* fatbin) {
  Probe<R> probe(w, h);
#ifdef CUFFT_PROBE_STATIC
  (void)fatbin;
  probe.legacy();
#else
  probe.structure();
  if (fatbin) probe.lto(*fatbin);
#endif
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<char> fatbin;
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [LTO-IR fatbin of this file's callbacks]\n", argv[0]);
    return 2;
  }
  if (argc == 2) {
    std::ifstream in(argv[1], std::ios::binary);
    fatbin.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (fatbin.empty()) {
      std::fprintf(stderr, "cufft-probe: cannot read '%s'\n", argv[1]);
      return 2;
    }
  }
  int version = 0;
  PROBE_CHECK(cufftGetVersion(&version));
  std::printf("cufft-probe: cuFFT %d%s\n", version,
#ifdef CUFFT_PROBE_STATIC
              " (static)"
#else
              ""
#endif
  );
  for (const auto& s : kShapes) {
    run_shape<double>(s[0], s[1], argc == 2 ? &fatbin : nullptr);
    run_shape<float>(s[0], s[1], argc == 2 ? &fatbin : nullptr);
  }
  return 0;
}
#endif  // CUFFT_PROBE_LTO_IR
