// tools/bench/kernel_bench.h: the timing entry returns consistent plain structs for every kernel
// (not a benchmark; the numbers themselves belong to `mad bench`). Skips without a device.
#include <gtest/gtest.h>

#include "tools/bench/kernel_bench.h"
#include "tests/kernels/kernel_test_util.h"
#include "tests/support/test_support.h"

namespace mad::bench {
namespace {

void expect_consistent(const KernelTiming& t, int repeats) {
  EXPECT_EQ(static_cast<int>(t.time.samples_ms.size()), repeats) << t.kernel;
  EXPECT_EQ(t.time.runs, repeats) << t.kernel;
  EXPECT_GE(t.copies, 1) << t.kernel;
  EXPECT_GT(t.time.min_ms, 0.0) << t.kernel;
  EXPECT_LE(t.time.min_ms, t.time.median_ms) << t.kernel;
  EXPECT_LE(t.time.median_ms, t.time.max_ms) << t.kernel;
  EXPECT_GT(t.bytes_read, 0u) << t.kernel;
  EXPECT_GT(t.bytes_written, 0u) << t.kernel;
  EXPECT_FALSE(t.variant.empty()) << t.kernel;
}

TEST(KernelBenchCuda, TimesEveryKernel) {
  MAD_REQUIRE_GPU();
  KernelBenchOptions options;
  options.warmup = 1;
  options.repeats = 5;
  const Image<std::uint8_t> rgb = kernels::test::random_bytes(3 * 640, 480, 5101);
  const Image<std::uint8_t> gray = kernels::test::random_bytes(640, 480, 5102);
  const KernelTiming g = bench_gray(kernels::interleaved_rgb(rgb.cview(), 3),
                                    kernels::GrayWeighting::Darken, "", options);
  expect_consistent(g, options.repeats);
  EXPECT_EQ(g.kernel, "darken");
  EXPECT_EQ(g.bytes_read, 3u * 640 * 480);
  expect_consistent(bench_histogram(gray.cview(), "shared_warp", options), options.repeats);
  expect_consistent(bench_smooth(rgb.cview(), 3, "padded", options), options.repeats);
  const KernelTiming n = bench_nick(gray.cview(), {31, -0.1}, "method3_32x32", options);
  expect_consistent(n, options.repeats);
  EXPECT_EQ(n.variant, "method3_32x32");
  EXPECT_THROW(bench_nick(gray.cview(), {31, -0.1}, "nope", options), InvalidArgument);
}

}  // namespace
}  // namespace mad::bench
