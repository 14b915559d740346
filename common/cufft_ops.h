// cuFFT's calls and types per precision, so templated stages and benchmarks write one code path
// for double (D2Z/Z2D/Z2Z) and float (R2C/C2R/C2C). The calls return cuFFT's status for the
// caller's MAD_CUFFT_CHECK, which then names the caller's file and line.
//
// CUDA-only header (needs cufft.h, not nvcc): include it from .cu files and from CUDA-only .cpp.
#pragma once

#include <cufft.h>

#include <type_traits>

namespace mad::cuda {

template <class Real>
struct CufftOps {
  static_assert(std::is_same_v<Real, double> || std::is_same_v<Real, float>,
                "cuFFT transforms double or float");
  static constexpr bool kDouble = std::is_same_v<Real, double>;
  // Interleaved (re, im): the layout of double2 / float2.
  using Complex = std::conditional_t<kDouble, cufftDoubleComplex, cufftComplex>;
  static constexpr cufftType kR2C = kDouble ? CUFFT_D2Z : CUFFT_R2C;
  static constexpr cufftType kC2R = kDouble ? CUFFT_Z2D : CUFFT_C2R;
  static constexpr cufftType kC2C = kDouble ? CUFFT_Z2Z : CUFFT_C2C;

  static cufftResult r2c(cufftHandle plan, Real* in, Complex* out) {
    if constexpr (kDouble)
      return cufftExecD2Z(plan, in, out);
    else
      return cufftExecR2C(plan, in, out);
  }
  static cufftResult c2r(cufftHandle plan, Complex* in, Real* out) {
    if constexpr (kDouble)
      return cufftExecZ2D(plan, in, out);
    else
      return cufftExecC2R(plan, in, out);
  }
  // direction: CUFFT_FORWARD or CUFFT_INVERSE (unnormalised either way).
  static cufftResult c2c(cufftHandle plan, Complex* in, Complex* out, int direction) {
    if constexpr (kDouble)
      return cufftExecZ2Z(plan, in, out, direction);
    else
      return cufftExecC2C(plan, in, out, direction);
  }
};

}  // namespace mad::cuda
