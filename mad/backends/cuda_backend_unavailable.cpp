// Without the CUDA backend, asking for it only says so. (Callers never get here through
// choose_backend, which refuses --backend cuda first; this keeps the link complete.)
#ifndef MAD_HAVE_CUDA
#include "common/error.h"
#include "mad/backends/pair_backend.h"
#include "mad/device_image.h"

namespace mad {
std::unique_ptr<PairBackend> make_cuda_backend(const ScoreOptions&) {
  throw_no_cuda_backend("the CUDA backend");
}
// Nothing is ever copied to a device (mad/device_image.h).
TransferCounters gpu_transfer_counters() {
  return {};
}
}  // namespace mad
#endif
