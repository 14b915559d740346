// Without the CUDA backend, the GPU scorer exists only to say so. (Scorer never constructs one
// then, because resolve_backend() refuses --backend cuda first; this keeps the link complete.)
#ifndef MAD_HAVE_CUDA
#include "common/error.h"
#include "mad/cuda_scorer.h"

namespace mad {
struct CudaScorer::Impl {};
CudaScorer::CudaScorer(Precision, const std::string&, const std::string&, std::size_t) {
  throw GpuError("this build has no CUDA backend");
}
CudaScorer::~CudaScorer() = default;
StageOutputs CudaScorer::run(const CudaInput&, const CudaInput&, bool, bool) {
  throw GpuError("this build has no CUDA backend");
}
std::uint64_t CudaScorer::submit(const CudaInput&, const CudaInput&, bool, bool) {
  throw GpuError("this build has no CUDA backend");
}
StageOutputs CudaScorer::collect(std::uint64_t) {
  throw GpuError("this build has no CUDA backend");
}
int CudaScorer::slots() const {
  return 0;
}
int CudaScorer::slots_for(int, int) {
  return 0;
}
std::size_t CudaScorer::in_flight() const {
  return 0;
}
bool CudaScorer::last_reused_reference() const {
  return false;
}
std::size_t CudaScorer::device_bytes() const {
  return 0;
}
const std::string& CudaScorer::a5_variant() const {
  static const std::string none;
  return none;
}
}  // namespace mad
#endif
