// kernel_bench's CPU-side pieces: the median, and a clear GpuError where no device exists.
#include <gtest/gtest.h>

#include "common/error.h"
#include "common/gpu_info.h"
#include "kernels/kernel_bench.h"

namespace mad::kernels {
namespace {

TEST(KernelBench, MedianOf) {
  EXPECT_EQ(median_of({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(median_of({4.0, 1.0, 3.0, 2.0}), 2.5);
  EXPECT_EQ(median_of({7.0}), 7.0);
  EXPECT_THROW(median_of({}), InvalidArgument);
}

TEST(KernelBench, WithoutDeviceIsAGpuError) {
  if (gpu_device_available()) GTEST_SKIP() << "a CUDA device is present";
  const Image<std::uint8_t> gray(16, 16, 3);
  EXPECT_THROW(bench_histogram(gray.cview(), "", {}), GpuError);
  EXPECT_THROW(bench_nick(gray.cview(), {5, -0.1}, "", {}), GpuError);
}

}  // namespace
}  // namespace mad::kernels
