#include "common/cuda_check.h"

namespace mad::cuda {

void throw_cuda_error(cudaError_t err, const char* stmt, const char* file, int line) {
  throw GpuError(std::string("CUDA error ") + cudaGetErrorName(err) + " (" +
                 cudaGetErrorString(err) + ") in `" + stmt + "` at " + file + ":" +
                 std::to_string(line));
}

const char* cufft_result_name(cufftResult r) {
  switch (r) {
    case CUFFT_SUCCESS: return "CUFFT_SUCCESS";
    case CUFFT_INVALID_PLAN: return "CUFFT_INVALID_PLAN";
    case CUFFT_ALLOC_FAILED: return "CUFFT_ALLOC_FAILED";
    case CUFFT_INVALID_TYPE: return "CUFFT_INVALID_TYPE";
    case CUFFT_INVALID_VALUE: return "CUFFT_INVALID_VALUE";
    case CUFFT_INTERNAL_ERROR: return "CUFFT_INTERNAL_ERROR";
    case CUFFT_EXEC_FAILED: return "CUFFT_EXEC_FAILED";
    case CUFFT_SETUP_FAILED: return "CUFFT_SETUP_FAILED";
    case CUFFT_INVALID_SIZE: return "CUFFT_INVALID_SIZE";
    case CUFFT_INVALID_DEVICE: return "CUFFT_INVALID_DEVICE";
    case CUFFT_NO_WORKSPACE: return "CUFFT_NO_WORKSPACE";
    case CUFFT_NOT_IMPLEMENTED: return "CUFFT_NOT_IMPLEMENTED";
    case CUFFT_NOT_SUPPORTED: return "CUFFT_NOT_SUPPORTED";
    default: return "CUFFT_UNKNOWN_ERROR";
  }
}

void throw_cufft_error(cufftResult err, const char* stmt, const char* file, int line) {
  throw GpuError(std::string("cuFFT error ") + cufft_result_name(err) + " in `" + stmt + "` at " +
                 file + ":" + std::to_string(line));
}

}  // namespace mad::cuda
