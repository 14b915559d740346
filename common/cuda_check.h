// Error checking for the CUDA runtime and cuFFT. Include only from CUDA-enabled sources.
//
// MAD_CUDA_CHECK(stmt) throws mad::GpuError carrying file, line, the statement and the CUDA
// error string. MAD_CUDA_CHECK_LAUNCH() follows every <<<>>> launch; with the CMake option
// MAD_CUDA_DEBUG_SYNC it also synchronizes so an asynchronous fault is reported at its kernel.
#pragma once

#include <cuda_runtime.h>
#include <cufft.h>

#include <string>

#include "common/error.h"

namespace mad::cuda {

[[noreturn]] void throw_cuda_error(cudaError_t err, const char* stmt, const char* file, int line);
[[noreturn]] void throw_cufft_error(cufftResult err, const char* stmt, const char* file, int line);
const char* cufft_result_name(cufftResult r);

}  // namespace mad::cuda

// Evaluates `stmt` once; a status other than `ok` goes to `thrower` with the statement's text
// (stringized by the caller, before its macros expand) and its place.
#define MAD_CHECK_STATUS_(stmt, text, status_type, ok, thrower)            \
  do {                                                                     \
    const status_type mad_status_ = (stmt);                                \
    if (mad_status_ != ok) thrower(mad_status_, text, __FILE__, __LINE__); \
  } while (0)

#define MAD_CUDA_CHECK(stmt) \
  MAD_CHECK_STATUS_(stmt, #stmt, cudaError_t, cudaSuccess, ::mad::cuda::throw_cuda_error)
#define MAD_CUFFT_CHECK(stmt) \
  MAD_CHECK_STATUS_(stmt, #stmt, cufftResult, CUFFT_SUCCESS, ::mad::cuda::throw_cufft_error)

#ifdef MAD_CUDA_DEBUG_SYNC
#define MAD_CUDA_CHECK_LAUNCH()              \
  do {                                       \
    MAD_CUDA_CHECK(cudaGetLastError());      \
    MAD_CUDA_CHECK(cudaDeviceSynchronize()); \
  } while (0)
#else
#define MAD_CUDA_CHECK_LAUNCH() MAD_CUDA_CHECK(cudaGetLastError())
#endif
