// cuFFT's calls and types per precision, so templated stages and benchmarks write one code path
// for double (D2Z/Z2D/Z2Z) and float (R2C/C2R/C2C). The calls return cuFFT's status for the
// caller's MAD_CUFFT_CHECK, which then names the caller's file and line.
//
// CUDA-only header (needs cufft.h, not nvcc): include it from .cu files and from CUDA-only .cpp.
#pragma once

#include <cufft.h>

namespace mad::cuda {

template <class Real>
struct CufftOps;

template <>
struct CufftOps<double> {
  using Complex = cufftDoubleComplex;  // interleaved (re, im), the layout of double2
  static constexpr cufftType kR2C = CUFFT_D2Z;
  static constexpr cufftType kC2R = CUFFT_Z2D;
  static constexpr cufftType kC2C = CUFFT_Z2Z;
  static cufftResult r2c(cufftHandle plan, double* in, Complex* out) {
    return cufftExecD2Z(plan, in, out);
  }
  static cufftResult c2r(cufftHandle plan, Complex* in, double* out) {
    return cufftExecZ2D(plan, in, out);
  }
  // direction: CUFFT_FORWARD or CUFFT_INVERSE (unnormalised either way).
  static cufftResult c2c(cufftHandle plan, Complex* in, Complex* out, int direction) {
    return cufftExecZ2Z(plan, in, out, direction);
  }
};

template <>
struct CufftOps<float> {
  using Complex = cufftComplex;  // the layout of float2
  static constexpr cufftType kR2C = CUFFT_R2C;
  static constexpr cufftType kC2R = CUFFT_C2R;
  static constexpr cufftType kC2C = CUFFT_C2C;
  static cufftResult r2c(cufftHandle plan, float* in, Complex* out) {
    return cufftExecR2C(plan, in, out);
  }
  static cufftResult c2r(cufftHandle plan, Complex* in, float* out) {
    return cufftExecC2R(plan, in, out);
  }
  static cufftResult c2c(cufftHandle plan, Complex* in, Complex* out, int direction) {
    return cufftExecC2C(plan, in, out, direction);
  }
};

}  // namespace mad::cuda
