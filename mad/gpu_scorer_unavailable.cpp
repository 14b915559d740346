// Without the CUDA backend, the GPU scorer exists only to say so. (Scorer never constructs one
// then, because resolve_backend() refuses --backend cuda first; this keeps the link complete.)
#ifndef MAD_HAVE_CUDA
#include "common/error.h"
#include "mad/gpu_scorer.h"

namespace mad {
struct GpuScorer::Impl {};
GpuScorer::GpuScorer(Precision, const std::string&, const std::string&, std::size_t) {
  throw GpuError("this build has no CUDA backend");
}
GpuScorer::~GpuScorer() = default;
StageOutputs GpuScorer::run(const GpuInput&, const GpuInput&, bool, bool) {
  throw GpuError("this build has no CUDA backend");
}
std::uint64_t GpuScorer::submit(const GpuInput&, const GpuInput&, bool, bool) {
  throw GpuError("this build has no CUDA backend");
}
StageOutputs GpuScorer::collect(std::uint64_t) {
  throw GpuError("this build has no CUDA backend");
}
int GpuScorer::slots() const {
  return 0;
}
int GpuScorer::slots_for(int, int) {
  return 0;
}
std::size_t GpuScorer::in_flight() const {
  return 0;
}
bool GpuScorer::last_reused_reference() const {
  return false;
}
std::size_t GpuScorer::device_bytes() const {
  return 0;
}
const std::string& GpuScorer::a5_variant() const {
  static const std::string none;
  return none;
}
}  // namespace mad
#endif
