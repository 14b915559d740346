// Without CUDA, asking for the GPU's motion accumulator only says so (motion.h).
#ifndef MAD_HAVE_CUDA
#include "common/error.h"
#include "mad/video/motion.h"

namespace mad::video {
std::unique_ptr<MotionAccumulator> make_motion_accumulator_cuda(const MotionGrid&) {
  throw_no_cuda_backend("ST-MAD's GPU motion weights");
}
}  // namespace mad::video
#endif
