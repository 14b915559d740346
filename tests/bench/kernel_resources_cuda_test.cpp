// Issue 11 item 6: the GPU timer records the kernels of one call and every GPU row gets their
// registers, shared memory and theoretical occupancy (common/launch_log.h, measurement.h);
// a CPU row gets none. Skips without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "tests/appearance/a5_check_cuda.h"
#include "tests/bench/a5_bench_test_util.h"
#include "tests/kernels/kernel_test_util.h"
#include "tests/support/test_support.h"
#include "tools/bench/a5_bench.h"
#include "tools/bench/cpu_timer.h"
#include "tools/bench/kernel_bench.h"
#include "tools/bench/runners.h"

namespace mad::bench {
namespace {

void expect_plausible(const KernelResources& k, int block_threads, const char* what) {
  EXPECT_EQ(k.block_threads, block_threads) << what;
  EXPECT_EQ(static_cast<int>(k.block.count()), block_threads) << what;
  EXPECT_GT(k.registers, 0) << what;
  EXPECT_GT(k.active_blocks_per_sm, 0) << what;
  EXPECT_GT(k.occupancy_pct, 0.0) << what;
  EXPECT_LE(k.occupancy_pct, 100.0) << what;
  EXPECT_GE(k.launches, 1) << what;
}

TEST(KernelResourcesCuda, GrayVariantRowHasItsKernel) {
  MAD_REQUIRE_GPU();
  const Image<std::uint8_t> rgb = kernels::test::random_bytes(3 * 640, 480, 6101);
  for (int warmup : {1, 0}) {  // warmup 0: the first timed run is the recorded one
    KernelBenchOptions options;
    options.warmup = warmup;
    options.repeats = 3;
    const KernelTiming t = bench_gray(kernels::interleaved_rgb(rgb.cview(), 3),
                                      kernels::GrayWeighting::Matlab, "pixel_2d_32x16", options);
    ASSERT_EQ(t.time.kernels.size(), 1u) << "warmup " << warmup;
    const KernelResources& k = t.time.kernels[0];
    expect_plausible(k, 32 * 16, "gray pixel_2d_32x16");
    EXPECT_EQ(k.block.x, 32u);
    EXPECT_EQ(k.block.y, 16u);
    EXPECT_EQ(k.dynamic_smem_bytes, 0u);
    EXPECT_EQ(k.launches, 1);                     // one launch per call
    EXPECT_EQ(k.threads_launched, 640ull * 480);  // 20 x 30 blocks of 32 x 16
    BenchRow row;
    apply_measurement(row, t.time);
    EXPECT_EQ(row.kernels, 1);
    EXPECT_EQ(row.block_threads, 512);
    EXPECT_EQ(row.registers, k.registers);
    EXPECT_EQ(row.occupancy_pct, k.occupancy_pct);
  }
}

TEST(KernelResourcesCuda, A5VariantRowHasItsKernel) {
  MAD_REQUIRE_GPU();
  const a5_bench_test::Subbands subbands = a5_bench_test::random_subbands(96, 64, 7);
  const std::vector<ImageView<const double>>& views = subbands.views;
  A5BenchOptions options = a5_bench_test::quick_options();
  options.variants = {"a5-fast"};
  const std::vector<A5BenchResult> results = a5_bench(views, options);
  ASSERT_EQ(results.size(), 1u);
  const Measurement& m = results[0].time;
  ASSERT_FALSE(m.kernels.empty());
  const ResourceSummary r = summarize_resources(m);
  EXPECT_EQ(r.block_threads, 32 * 4);  // a5_fast_cuda.cu: 32 x 4 threads
  EXPECT_GT(r.registers, 0);
  EXPECT_GT(r.static_smem_bytes, 0);  // its tile statistics live in static shared memory
  EXPECT_EQ(r.dynamic_smem_bytes, 0);
  EXPECT_GT(r.occupancy_pct, 0.0);
  EXPECT_LE(r.occupancy_pct, 100.0);
  for (const KernelResources& k : m.kernels) expect_plausible(k, k.block_threads, "a5-fast");
}

TEST(KernelResourcesCuda, CpuRowHasNone) {
  MAD_REQUIRE_GPU();  // with a device, so the CPU timer's emptiness is not for want of one
  double sink = 0;
  BenchRow row;
  apply_measurement(row, time_host(0, 2, [&](int i) { sink += std::sqrt(double(i + 1)); }));
  EXPECT_GT(sink, 0);
  EXPECT_TRUE(std::isnan(row.kernels));
  EXPECT_TRUE(std::isnan(row.block_threads));
  EXPECT_TRUE(std::isnan(row.registers));
  EXPECT_TRUE(std::isnan(row.static_smem_bytes));
  EXPECT_TRUE(std::isnan(row.dynamic_smem_bytes));
  EXPECT_TRUE(std::isnan(row.occupancy_pct));
}

}  // namespace
}  // namespace mad::bench
