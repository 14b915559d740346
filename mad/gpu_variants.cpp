#include "mad/gpu_variants.h"

namespace mad {

#ifdef MAD_HAVE_CUDA
std::string describe_gpu_variants_cuda();  // mad/gpu_scorer_cuda.cu
std::string describe_gpu_variants() {
  return describe_gpu_variants_cuda();
}
#else
std::string describe_gpu_variants() {
  return "This build has no CUDA backend (no CUDA toolkit at configure time): no GPU variants.\n";
}
#endif

}  // namespace mad
