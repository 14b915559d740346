// Device form of the Nick decision (kernels/nick.h). Same operations in the same order as
// nick_decide() in nick_cpu.cpp; the _rn intrinsics round each step to nearest and are never
// contracted into FMAs, so the result is bit-identical to the CPU's.
#pragma once

#include <cstdint>

namespace mad::kernels {

__device__ __forceinline__ std::uint8_t nick_decide_device(unsigned p, unsigned long long sum,
                                                           unsigned long long sum_sq,
                                                           unsigned count, double k) {
  const double n = static_cast<double>(count);
  const double mean = __ddiv_rn(static_cast<double>(sum), n);
  const double mean_sq = __dmul_rn(mean, mean);
  const double diff = __dsub_rn(static_cast<double>(sum_sq), mean_sq);
  const double var = __ddiv_rn(diff, n);
  const double root = __dsqrt_rn(var);
  const double scaled = __dmul_rn(k, root);
  const double threshold = __dadd_rn(mean, scaled);
  return static_cast<double>(p) > threshold ? 255 : 0;
}

}  // namespace mad::kernels
