#include "common/fft_cpu.h"

#include <fftw3.h>

#include <algorithm>
#include <mutex>
#include <vector>

#include "common/workspace_cpu.h"

namespace mad {
namespace {
std::mutex& planner_mutex() {
  static std::mutex m;
  return m;
}
// FFTW_UNALIGNED: callers pass std::vector storage, whose alignment may differ from the arrays
// the plan was made with; the new-array execute functions then require this flag.
constexpr unsigned kPlanFlags = FFTW_ESTIMATE | FFTW_UNALIGNED;
}  // namespace

struct CpuFft2d::Plans {
  fftw_plan r2c = nullptr;
  fftw_plan c2c_inverse = nullptr;
  fftw_plan c2r = nullptr;
};

CpuFft2d::CpuFft2d(int width, int height)
    : width_(width), height_(height), plans_(std::make_unique<Plans>()) {
  if (width <= 0 || height <= 0) throw InvalidArgument("CpuFft2d: empty shape");
  const std::size_t full = static_cast<std::size_t>(width) * height;
  const std::size_t half = static_cast<std::size_t>(half_width()) * height;
  // Scratch arrays only for planning (FFTW_ESTIMATE does not touch their contents).
  std::vector<double> real(full);
  std::vector<Complex> cplx(full), cplx2(full), halfbuf(half);
  auto* c1 = reinterpret_cast<fftw_complex*>(cplx.data());
  auto* c2 = reinterpret_cast<fftw_complex*>(cplx2.data());
  auto* h = reinterpret_cast<fftw_complex*>(halfbuf.data());
  std::lock_guard<std::mutex> lock(planner_mutex());
  plans_->r2c = fftw_plan_dft_r2c_2d(height, width, real.data(), h, kPlanFlags);
  plans_->c2c_inverse = fftw_plan_dft_2d(height, width, c1, c2, FFTW_BACKWARD, kPlanFlags);
  plans_->c2r = fftw_plan_dft_c2r_2d(height, width, h, real.data(), kPlanFlags);
  if (!plans_->r2c || !plans_->c2c_inverse || !plans_->c2r) throw Error("FFTW planning failed");
}

CpuFft2d::~CpuFft2d() {
  std::lock_guard<std::mutex> lock(planner_mutex());
  fftw_destroy_plan(plans_->r2c);
  fftw_destroy_plan(plans_->c2c_inverse);
  fftw_destroy_plan(plans_->c2r);
}

void CpuFftBuffers::fit(const CpuFft2d& fft) {
  fit_buffer(packed, static_cast<std::size_t>(fft.width()) * fft.height());
  fit_buffer(half, static_cast<std::size_t>(fft.half_width()) * fft.height());
}

void CpuFftBuffers::poison() {
  poison_buffer(packed);
  poison_buffer(half);
}

void CpuFft2d::forward_real_half(ImageView<const double> in, Complex* half_spectrum) const {
  CpuFftBuffers buffers;
  forward_real_half(in, half_spectrum, buffers);
}

void CpuFft2d::forward_real(ImageView<const double> in, Complex* spectrum) const {
  CpuFftBuffers buffers;
  forward_real(in, spectrum, buffers);
}

void CpuFft2d::inverse_real(const Complex* half_spectrum, ImageView<double> out) const {
  CpuFftBuffers buffers;
  inverse_real(half_spectrum, out, buffers);
}

void CpuFft2d::forward_real_half(ImageView<const double> in, Complex* half_spectrum,
                                 CpuFftBuffers& buffers) const {
  buffers.fit(*this);
  double* packed = buffers.packed.data();
  for (int y = 0; y < height_; ++y)
    for (int x = 0; x < width_; ++x) packed[static_cast<std::size_t>(y) * width_ + x] = in(y, x);
  fftw_execute_dft_r2c(plans_->r2c, packed, reinterpret_cast<fftw_complex*>(half_spectrum));
}

void CpuFft2d::forward_real(ImageView<const double> in, Complex* spectrum,
                            CpuFftBuffers& buffers) const {
  buffers.fit(*this);
  const int hw = half_width();
  const Complex* half = buffers.half.data();
  forward_real_half(in, buffers.half.data(), buffers);
  // Hermitian fill: X(k_r, k_c) = conj(X(-k_r mod M, -k_c mod N)).
  for (int y = 0; y < height_; ++y) {
    Complex* row = spectrum + static_cast<std::size_t>(y) * width_;
    for (int x = 0; x < hw; ++x) row[x] = half[static_cast<std::size_t>(y) * hw + x];
    const int my = (height_ - y) % height_;
    for (int x = hw; x < width_; ++x)
      row[x] = std::conj(half[static_cast<std::size_t>(my) * hw + (width_ - x)]);
  }
}

void CpuFft2d::inverse(const Complex* in, Complex* out) const {
  // FFTW's backward transform may not modify the input of an out-of-place c2c, but the API is
  // non-const; the cast is safe.
  fftw_execute_dft(plans_->c2c_inverse, reinterpret_cast<fftw_complex*>(const_cast<Complex*>(in)),
                   reinterpret_cast<fftw_complex*>(out));
  const double scale = 1.0 / (static_cast<double>(width_) * height_);
  const std::size_t n = static_cast<std::size_t>(width_) * height_;
  for (std::size_t i = 0; i < n; ++i) out[i] *= scale;
}

void CpuFft2d::inverse_real(const Complex* half_spectrum, ImageView<double> out,
                            CpuFftBuffers& buffers) const {
  buffers.fit(*this);
  // c2r destroys its input, so it works on a copy.
  std::copy(half_spectrum, half_spectrum + buffers.half.size(), buffers.half.begin());
  double* packed = buffers.packed.data();
  fftw_execute_dft_c2r(plans_->c2r, reinterpret_cast<fftw_complex*>(buffers.half.data()), packed);
  const double scale = 1.0 / (static_cast<double>(width_) * height_);
  for (int y = 0; y < height_; ++y)
    for (int x = 0; x < width_; ++x)
      out(y, x) = packed[static_cast<std::size_t>(y) * width_ + x] * scale;
}

}  // namespace mad
