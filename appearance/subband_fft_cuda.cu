// The fused subband transform's kernels (appearance/subband_fft_cuda.h): a Stockham inverse FFT
// in shared memory, run over the spectrum's columns with the log-Gabor product in its loads and
// over the rows with the modulus in its stores.
//
// A pass of radix R over a line of n values (L = the product of the earlier radices) takes
// butterfly j (0 <= j < n/R) from x[j + r n/R], r = 0..R-1, multiplies input r by w^(r k),
// k = j mod L, w = exp(2 pi i / (L R)), applies the R-point DFT and stores output r at
// (j - k) R + k + r L: after the last pass the line is in natural order, with no bit reversal.
// The first pass reads the line straight from global memory into registers and the last writes
// it from registers; only the passes between go through shared memory.
// The twiddle w^(r k) is entry r k n / (L R) of the line's table (r k < L R, so no wrap).
// Threads of a line take butterflies j = t, t + T, ...; every CTA-wide barrier is reached by
// every thread, whatever its share.
#include "appearance/subband_fft_cuda.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "appearance/a5_device_cuda.cuh"
#include "appearance/subband_transform.h"
#include "common/cuda_check.h"
#include "common/error.h"
#include "common/kernel_launch.cuh"

namespace mad::appearance {
namespace {

using detail::add_rn;
using detail::mul_rn;

template <class C>
__device__ __forceinline__ C cadd(C a, C b) {
  return {a.x + b.x, a.y + b.y};
}
template <class C>
__device__ __forceinline__ C csub(C a, C b) {
  return {a.x - b.x, a.y - b.y};
}
template <class C>
__device__ __forceinline__ C cmul(C a, C b) {
  return {a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x};
}
template <class C>
__device__ __forceinline__ C times_i(C a) {  // i a
  return {-a.y, a.x};
}
template <class C, class Real>
__device__ __forceinline__ C scaled(C a, Real s) {
  return {a.x * s, a.y * s};
}

// The R-point inverse DFTs (sign +), in place on x[0..R-1].
template <int R, class C>
struct Dft;

template <class C>
struct Dft<2, C> {
  __device__ static void run(C (&x)[2]) {
    const C a = x[0], b = x[1];
    x[0] = cadd(a, b);
    x[1] = csub(a, b);
  }
};

template <class C>
struct Dft<4, C> {
  __device__ static void run(C (&x)[4]) {
    const C t0 = cadd(x[0], x[2]), t1 = csub(x[0], x[2]);
    const C t2 = cadd(x[1], x[3]), t3 = times_i(csub(x[1], x[3]));
    x[0] = cadd(t0, t2);
    x[2] = csub(t0, t2);
    x[1] = cadd(t1, t3);
    x[3] = csub(t1, t3);
  }
};

template <class C>
struct Dft<8, C> {
  // Two 4-point DFTs of the even and odd inputs joined by w8^k, w8 = exp(i pi / 4).
  __device__ static void run(C (&x)[8]) {
    using Real = decltype(x[0].x);
    constexpr double kHalfSqrt2 = 0.70710678118654752440;
    const Real h = static_cast<Real>(kHalfSqrt2);
    C e[4] = {x[0], x[2], x[4], x[6]};
    C o[4] = {x[1], x[3], x[5], x[7]};
    Dft<4, C>::run(e);
    Dft<4, C>::run(o);
    const C o1 = {(o[1].x - o[1].y) * h, (o[1].x + o[1].y) * h};   // (1 + i)/sqrt2 o1
    const C o2 = times_i(o[2]);                                      // i o2
    const C o3 = {-(o[3].x + o[3].y) * h, (o[3].x - o[3].y) * h};  // (-1 + i)/sqrt2 o3
    x[0] = cadd(e[0], o[0]);
    x[4] = csub(e[0], o[0]);
    x[1] = cadd(e[1], o1);
    x[5] = csub(e[1], o1);
    x[2] = cadd(e[2], o2);
    x[6] = csub(e[2], o2);
    x[3] = cadd(e[3], o3);
    x[7] = csub(e[3], o3);
  }
};

template <class C>
struct Dft<3, C> {
  __device__ static void run(C (&x)[3]) {
    using Real = decltype(x[0].x);
    constexpr double kSin60 = 0.86602540378443864676;
    const C s = cadd(x[1], x[2]);
    const C d = scaled(times_i(csub(x[1], x[2])), static_cast<Real>(kSin60));
    const C t = csub(x[0], scaled(s, static_cast<Real>(0.5)));
    x[0] = cadd(x[0], s);
    x[1] = cadd(t, d);
    x[2] = csub(t, d);
  }
};

template <class C>
struct Dft<5, C> {
  __device__ static void run(C (&x)[5]) {
    using Real = decltype(x[0].x);
    constexpr double kCos1 = 0.30901699437494742410;   // cos(2 pi / 5)
    constexpr double kCos2 = -0.80901699437494742410;  // cos(4 pi / 5)
    constexpr double kSin1 = 0.95105651629515357212;   // sin(2 pi / 5)
    constexpr double kSin2 = 0.58778525229247312917;   // sin(4 pi / 5)
    const Real c1 = static_cast<Real>(kCos1), c2 = static_cast<Real>(kCos2);
    const Real s1 = static_cast<Real>(kSin1), s2 = static_cast<Real>(kSin2);
    const C a1 = cadd(x[1], x[4]), b1 = csub(x[1], x[4]);
    const C a2 = cadd(x[2], x[3]), b2 = csub(x[2], x[3]);
    const C x0 = x[0];
    const C p1 = cadd(x0, cadd(scaled(a1, c1), scaled(a2, c2)));
    const C q1 = times_i(cadd(scaled(b1, s1), scaled(b2, s2)));
    const C p2 = cadd(x0, cadd(scaled(a1, c2), scaled(a2, c1)));
    const C q2 = times_i(csub(scaled(b1, s2), scaled(b2, s1)));
    x[0] = cadd(x0, cadd(a1, a2));
    x[1] = cadd(p1, q1);
    x[4] = csub(p1, q1);
    x[2] = cadd(p2, q2);
    x[3] = csub(p2, q2);
  }
};

// Padded shared-memory index of value i of a line (subband_fft::pad_shift: one spare value
// every 128 bytes keeps a pass's strided stores out of each other's banks).
template <class C>
__device__ __forceinline__ int padded(int i) {
  return i + (i >> subband_fft::pad_shift(sizeof(C) == 16));
}

// One radix-R pass of a line. Butterfly j reads value j + r m through load(i) and writes value
// (j - k) R + k + r L through store(i, v): shared memory between passes, the global arrays in the
// first pass (whose reads are R independent loads a thread, all in flight together) and the last
// (whose writes j + r m are contiguous across a line's threads, as its first pass's reads are).
template <int R, class C, class Load, class Store>
__device__ __forceinline__ void line_pass(int n, int span_before, int step, unsigned span_inverse,
                                          const C* __restrict__ twiddles, int t, int threads,
                                          Load load, Store store) {
  const int m = n / R;
  for (int j = t; j < m; j += threads) {
    const int q = span_inverse == 0 ? j : static_cast<int>(__umulhi(j, span_inverse));
    const int k = j - q * span_before;  // j mod span_before
    C x[R];
#pragma unroll
    for (int r = 0; r < R; ++r) x[r] = load(j + r * m);
    if (k != 0) {
#pragma unroll
      for (int r = 1; r < R; ++r) x[r] = cmul(x[r], __ldg(twiddles + r * k * step));
    }
    Dft<R, C>::run(x);
    const int base = (j - k) * R + k;
#pragma unroll
    for (int r = 0; r < R; ++r) store(base + r * span_before, x[r]);
  }
}

// Pass p of `plan` (its radix, span, twiddle stride and the span's inverse from the plan).
template <class C, class Load, class Store>
__device__ __forceinline__ void pass_of_plan(const SubbandLinePlan& plan, int p, const C* tw,
                                             int t, Load load, Store store) {
  const int n = plan.n, span = plan.span[p], step = plan.step[p], th = plan.threads;
  const unsigned inv = plan.span_inverse[p];
  switch (plan.radix[p]) {
    case 8: line_pass<8, C>(n, span, step, inv, tw, t, th, load, store); break;
    case 4: line_pass<4, C>(n, span, step, inv, tw, t, th, load, store); break;
    case 2: line_pass<2, C>(n, span, step, inv, tw, t, th, load, store); break;
    case 3: line_pass<3, C>(n, span, step, inv, tw, t, th, load, store); break;
    default: line_pass<5, C>(n, span, step, inv, tw, t, th, load, store); break;
  }
}

// The inverse transform of one line of n values: the first pass reads through first_load(i)
// (value i of the input line), the last writes through last_store(i, v) (value i of the result),
// the passes between ping-pong through a and b (the line's buffers, padded indices). Every thread
// of the CTA calls it (the barriers are CTA-wide); plans have at least 2 passes.
template <class C, class FirstLoad, class LastStore>
__device__ __forceinline__ void transform_line(C* a, C* b, int t, const SubbandLinePlan& plan,
                                               FirstLoad first_load, LastStore last_store) {
  const C* tw = static_cast<const C*>(plan.twiddles);
  const auto smem_load = [](const C* buf) { return [buf](int i) { return buf[padded<C>(i)]; }; };
  const auto smem_store = [](C* buf) { return [buf](int i, C v) { buf[padded<C>(i)] = v; }; };
  pass_of_plan(plan, 0, tw, t, first_load, smem_store(a));
  __syncthreads();
  C* src = a;
  C* dst = b;
  for (int p = 1; p + 1 < plan.passes; ++p) {
    pass_of_plan(plan, p, tw, t, smem_load(src), smem_store(dst));
    __syncthreads();
    C* swap = src;
    src = dst;
    dst = swap;
  }
  pass_of_plan(plan, plan.passes - 1, tw, t, smem_load(src), last_store);
}

// Column pass: CTA (blockIdx.x, blockIdx.y = orientation) transforms kLines adjacent columns of
// F H_{s,o}. Thread i serves column c0 + i % kLines, so a warp's global accesses are runs of
// kLines complex values (64 or 32 bytes) in 32 / kLines rows.
template <class Real, int kLines>
__global__ void column_pass_kernel(const DeviceComplex<Real>* __restrict__ half, int half_width,
                                   const Real* __restrict__ radial,
                                   const Real* __restrict__ angular0, int width, int height,
                                   SubbandLinePlan plan, DeviceComplex<Real>* __restrict__ work) {
  using C = DeviceComplex<Real>;
  extern __shared__ unsigned char smem_bytes[];
  const int stride = subband_fft::padded_length(height, sizeof(C) == 16);
  const int line = threadIdx.x % kLines, t = threadIdx.x / kLines;
  C* a = reinterpret_cast<C*>(smem_bytes) + line * stride;
  C* b = reinterpret_cast<C*>(smem_bytes) + (kLines + line) * stride;
  const int o = blockIdx.y;
  const int kc = blockIdx.x * kLines + line;
  const bool inside = kc < width;
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  const Real* angular = angular0 + o * plane;
  // F(kr, kc) from the half spectrum (the right half mirrored: F(-k) = conj F(k)) times
  // G_s * A_o, with the product kernel's arithmetic (appearance_kernels_cuda.cu,
  // filter_scale_kernel). Columns past the image are 0.
  const bool mirrored = kc >= half_width;
  const int source_column = mirrored ? width - kc : kc;
  const auto first_load = [&](int kr) {
    C v = {Real(0), Real(0)};
    if (inside) {
      const int source_row = mirrored && kr != 0 ? height - kr : kr;
      C f = __ldg(half + static_cast<std::size_t>(source_row) * half_width + source_column);
      if (mirrored) f.y = -f.y;
      const Real g = log_gabor_radial_at(radial, kr, kc, width, height);
      const Real h = mul_rn(g, __ldg(angular + static_cast<std::size_t>(kr) * width + kc));
      v.x = mul_rn(f.x, h);
      v.y = mul_rn(f.y, h);
    }
    return v;
  };
  C* out = work + o * plane + kc;
  const auto last_store = [&](int r, C v) {
    if (inside) out[static_cast<std::size_t>(r) * width] = v;
  };
  transform_line(a, b, t, plan, first_load, last_store);
}

// Row pass: CTA (blockIdx.x = row, blockIdx.y = orientation) transforms one row of plane o and
// stores |z * scale| as Real into the first half of the row's own bytes.
template <class Real>
__global__ void row_pass_kernel(DeviceComplex<Real>* work, int width, int height,
                                SubbandLinePlan plan, Real scale) {
  using C = DeviceComplex<Real>;
  extern __shared__ unsigned char smem_bytes[];
  const int stride = subband_fft::padded_length(width, sizeof(C) == 16);
  C* a = reinterpret_cast<C*>(smem_bytes);
  C* b = a + stride;
  const std::size_t plane = static_cast<std::size_t>(width) * height;
  C* row = work + blockIdx.y * plane + static_cast<std::size_t>(blockIdx.x) * width;
  const auto first_load = [row](int c) { return row[c]; };
  // Every read of `row` (the first pass) is behind at least one CTA barrier before the last
  // pass stores: the stores may overwrite it.
  Real* magnitudes = reinterpret_cast<Real*>(row);
  const auto last_store = [magnitudes, scale](int c, C z) {
    const Real re = mul_rn(z.x, scale), im = mul_rn(z.y, scale);
    magnitudes[c] = sqrt(add_rn(mul_rn(re, re), mul_rn(im, im)));
  };
  transform_line(a, b, static_cast<int>(threadIdx.x), plan, first_load, last_store);
}

template <class Real>
using ColumnKernel = void (*)(const DeviceComplex<Real>*, int, const Real*, const Real*, int, int,
                              SubbandLinePlan, DeviceComplex<Real>*);

// The column pass for `lines` columns a CTA (subband_fft::column_lines: 2, 4 or 8).
template <class Real>
ColumnKernel<Real> column_kernel(int lines) {
  switch (lines) {
    case 2: return column_pass_kernel<Real, 2>;
    case 4: return column_pass_kernel<Real, 4>;
    case 8: return column_pass_kernel<Real, 8>;
    default: throw InvalidArgument("fused subband transform: no column pass for this shape");
  }
}

// exp(+2 pi i m / n), m = 0..n-1, in long double, rounded once to Real.
template <class Real>
std::vector<DeviceComplex<Real>> twiddle_table(int n) {
  std::vector<DeviceComplex<Real>> t(static_cast<std::size_t>(n));
  const long double two_pi = 6.283185307179586476925286766559005768L;
  for (int m = 0; m < n; ++m) {
    const long double angle = two_pi * static_cast<long double>(m) / static_cast<long double>(n);
    t[static_cast<std::size_t>(m)] = {static_cast<Real>(std::cos(angle)),
                                      static_cast<Real>(std::sin(angle))};
  }
  return t;
}

template <class Real>
SubbandLinePlan line_plan(int n, const cuda::DeviceBuffer<DeviceComplex<Real>>& twiddles) {
  SubbandLinePlan p;
  const std::vector<int> radices = subband_fft::radices(n);
  if (radices.size() > static_cast<std::size_t>(SubbandLinePlan::kMaxPasses))
    throw InvalidArgument("fused subband transform: too many passes");
  p.n = n;
  p.passes = static_cast<int>(radices.size());
  p.threads = subband_fft::threads_per_line(n);
  int span = 1;
  for (std::size_t i = 0; i < radices.size(); ++i) {
    p.radix[i] = static_cast<unsigned char>(radices[i]);
    p.span[i] = span;
    p.step[i] = n / (span * radices[i]);
    // ceil(2^32 / span): floor(j * that / 2^32) = floor(j / span) while j * span < 2^32.
    p.span_inverse[i] =
        span == 1 ? 0u
                  : static_cast<unsigned>(((std::uint64_t{1} << 32) + static_cast<std::uint64_t>(span) - 1) /
                                          static_cast<std::uint64_t>(span));
    span *= radices[i];
  }
  p.twiddles = twiddles.get();
  // transform_line reads from global memory in the first pass and writes in the last.
  if (p.passes < 2) throw InvalidArgument("fused subband transform: a side below 9 values");
  return p;
}

template <class Real>
cuda::DeviceBuffer<DeviceComplex<Real>> upload_twiddles(int n) {
  const std::vector<DeviceComplex<Real>> host = twiddle_table<Real>(n);
  cuda::DeviceBuffer<DeviceComplex<Real>> d(host.size());
  MAD_CUDA_CHECK(cudaMemcpy(d.get(), host.data(), d.bytes(), cudaMemcpyHostToDevice));
  return d;
}

}  // namespace

template <class Real>
SubbandFftCuda<Real>::SubbandFftCuda(int width, int height) : width_(width), height_(height) {
  constexpr bool kDouble = std::is_same_v<Real, double>;
  if (!fused_subband_transform_supports(width, height, kDouble))
    throw InvalidArgument("fused subband transform: " + std::to_string(width) + "x" +
                          std::to_string(height) + " is not supported");
  column_twiddles_ = upload_twiddles<Real>(height);
  row_twiddles_ = upload_twiddles<Real>(width);
  column_plan_ = line_plan<Real>(height, column_twiddles_);
  row_plan_ = line_plan<Real>(width, row_twiddles_);
  column_lines_ = subband_fft::column_lines(height, kDouble);
  MAD_CUDA_CHECK(cudaFuncSetAttribute(column_kernel<Real>(column_lines_),
                                      cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      static_cast<int>(subband_fft::shared_bytes(
                                          height, column_lines_, kDouble))));
  MAD_CUDA_CHECK(cudaFuncSetAttribute(
      row_pass_kernel<Real>, cudaFuncAttributeMaxDynamicSharedMemorySize,
      static_cast<int>(subband_fft::shared_bytes(width, subband_fft::kRowLines, kDouble))));
}

template <class Real>
void SubbandFftCuda<Real>::run_scale(const Complex* half_spectrum,
                                     const LogGaborBankCuda<Real>& bank, int scale, Complex* work,
                                     cudaStream_t stream) const {
  constexpr bool kDouble = std::is_same_v<Real, double>;
  const dim3 column_grid(static_cast<unsigned>((width_ + column_lines_ - 1) / column_lines_),
                         kOrientations);
  cuda::launch_kernel(column_kernel<Real>(column_lines_), column_grid,
                      dim3(column_lines_ * column_plan_.threads),
                      subband_fft::shared_bytes(height_, column_lines_, kDouble), stream,
                      half_spectrum, width_ / 2 + 1, bank.radial(scale), bank.angular(0), width_,
                      height_, column_plan_, work);
  MAD_CUDA_CHECK_LAUNCH();
  const Real scale_factor = static_cast<Real>(1.0 / (static_cast<double>(width_) * height_));
  cuda::launch_kernel(row_pass_kernel<Real>, dim3(static_cast<unsigned>(height_), kOrientations),
                      dim3(subband_fft::kRowLines * row_plan_.threads),
                      subband_fft::shared_bytes(width_, subband_fft::kRowLines, kDouble), stream,
                      work, width_, height_, row_plan_, scale_factor);
  MAD_CUDA_CHECK_LAUNCH();
}

template <class Real>
A5Input<Real> SubbandFftCuda<Real>::magnitudes(const Complex* work) const {
  A5Input<Real> in;
  in.data = reinterpret_cast<const Real*>(work);
  in.complex_modulus = false;
  in.scale = 1;  // applied by the row pass
  in.pitch = 2 * static_cast<std::ptrdiff_t>(width_);
  in.subband_stride = 2 * static_cast<std::ptrdiff_t>(width_) * height_;
  in.count = kOrientations;
  return in;
}

template class SubbandFftCuda<double>;
template class SubbandFftCuda<float>;

}  // namespace mad::appearance
