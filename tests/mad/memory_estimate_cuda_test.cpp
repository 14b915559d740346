// The GPU memory model of mad/backends/memory_estimate.h against the device: the free memory a
// A scorer's first pair of a shape takes (one slot and its bank, cuFFT plans included) must
// lie within the model, and the model must not overstate it by much. Skips without a GPU.
#include <gtest/gtest.h>

#include <iostream>
#include <string>

#include "common/gpu_info.h"
#include "mad/batch_scorer.h"
#include "mad/score.h"
#include "mad/backends/memory_check.h"
#include "mad/backends/memory_estimate.h"
#include "mad/score.h"
#include "tests/support/test_support.h"

namespace mad {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;
// What a first launch may add besides the slot: cuFFT's and our kernels' modules load lazily
// (CUDA_MODULE_LOADING=LAZY) the first time each kernel runs. A warm-up pair of another shape
// loads most of them first; this bounds the rest.
constexpr std::size_t kLazyLoadingAllowance = 64 * kMiB;
// Over-estimate allowed for shapes whose cuFFT plans are not power-of-two (see the test).
constexpr double kGpuModelSlackNonPow2 = 3.0;
// The model may overstate the measured use by this fraction plus the 2 MiB rounding of its
// ~25 buffers: beyond that it would refuse pairs that fit.
constexpr double kGpuModelSlack = 0.25;
constexpr std::size_t kRoundingAllowance = 25 * 2 * kMiB;

struct FirstPair {
  std::size_t used = 0;     // free device memory the first pair took (cudaMemGetInfo)
  std::size_t counted = 0;  // what the scorer counts of its own buffers (device_bytes)
};

FirstPair measured_first_pair(int width, int height, Precision precision) {
  const Image<double> ref = test::random_image(width, height, 21);
  const Image<double> dst = test::random_image(width, height, 22);
  ScoreOptions options;
  options.backend = Backend::Cuda;
  options.precision = precision;
  BatchScorer scorer(options, ResolvedBackend(options.backend));
  const GrayImage r = make_gray_image(ref), d = make_gray_image(dst);
  const std::size_t before = gpu_free_memory_bytes();
  scorer.score_one(r, d);  // synchronous: read-back of the sums
  const std::size_t after = gpu_free_memory_bytes();
  const std::size_t counted = scorer.device_bytes();
  // Later pairs one at a time take no more: an idle slot is used before another is built.
  scorer.score_one(d, r);
  EXPECT_EQ(scorer.device_bytes(), counted) << "a second pair of the shape built another slot";
  return {before > after ? before - after : 0, counted};
}

TEST(GpuMemoryEstimateDevice, ModelBoundsTheMemoryOfOneSlot) {
  MAD_REQUIRE_GPU();
  measured_first_pair(96, 80, Precision::Double);  // warm-up: load the kernels' modules
  measured_first_pair(96, 80, Precision::Float);
  struct Shape {
    int width, height;
  } shapes[] = {{512, 512}, {1031, 769}, {2048, 1536}};  // 1031 is prime: Bluestein
  for (const Shape& s : shapes) {
    for (Precision p : {Precision::Double, Precision::Float}) {
      const std::size_t model = estimate_gpu_pair_memory(s.width, s.height, p).device_total(1);
      const FirstPair first = measured_first_pair(s.width, s.height, p);
      const std::size_t used = first.used;
      const std::string line = std::to_string(s.width) + "x" + std::to_string(s.height) +
                               (p == Precision::Double ? " double" : " float") + ": model " +
                               std::to_string(model / kMiB) + " MiB, used " +
                               std::to_string(used / double(kMiB)) + " MiB, counted " +
                               std::to_string(first.counted / double(kMiB)) + " MiB";
      std::cout << "[ memory   ] " << line << "\n";
      SCOPED_TRACE(line);
      EXPECT_LE(used, model + kLazyLoadingAllowance);
      // The scorer's own count (mad bench's device_bytes) is of the buffers the model rounds up.
      EXPECT_LE(first.counted, model);
      // Power-of-two shapes are modelled tightly. For other sizes (Bluestein, mixed radix)
      // the model's cuFFT work-area bound is conservative: measured on the H100, 1031x769
      // used 284 MiB (double) against a model of 890 MiB. Refusing a pair that would fit is
      // the lesser error, so those shapes only get a loose bound.
      const bool pow2 = (s.width & (s.width - 1)) == 0 && (s.height & (s.height - 1)) == 0;
      const double slack = pow2 ? kGpuModelSlack : kGpuModelSlackNonPow2;
      EXPECT_LE(static_cast<double>(model),
                (1.0 + slack) * static_cast<double>(used) + kRoundingAllowance);
    }
  }
}

}  // namespace
}  // namespace mad
