// Pointwise kernels of the CUDA detection stage before the block statistics: luminance
// (spec §3.1), the Hermitian CSF C_s on the r2c half layout and its application to a half
// spectrum with the inverse FFT's 1/(M·N) (spec §3.2).
//
// All launches are asynchronous on `stream` and allocate nothing. No CUDA syntax here.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>

#include "common/cufft_ops.h"

namespace mad::detection::gpu {

// k·v^(2.2/3) for v = 0..255, computed on the host with the CPU path's std::pow expression (in
// double, then rounded to Real), to be uploaded once per stage.
template <class Real>
std::array<Real, 256> luminance_table_host();

// d_out[i] = luminance of d_raw[i] for i < count (spec §3.1; luminance_value). `d_table` is the
// uploaded luminance_table_host(). d_out must not alias d_raw.
template <class Real>
void launch_luminance(const Real* d_raw, std::size_t count, bool uint8_luminance,
                      const Real* d_table, Real* d_out, cudaStream_t stream);

// C_s(k) = (C(k) + C(-k mod size))/2 on the half layout height x (width/2 + 1), evaluated in
// double with the CPU's csf_at arithmetic and rounded to Real (csf_hermitian_half).
template <class Real>
void launch_build_csf_half(int width, int height, Real* d_csf_half, cudaStream_t stream);

// d_spectrum[i] *= d_csf_half[i] · scale for the `count` elements of a half spectrum; `scale` is
// the inverse FFT's 1/(M·N) (cuFFT does not normalise), folded into this pass.
template <class Real>
void launch_csf_multiply(typename cuda::CufftOps<Real>::Complex* d_spectrum, const Real* d_csf_half,
                         std::size_t count, Real scale, cudaStream_t stream);

}  // namespace mad::detection::gpu
