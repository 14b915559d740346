// The one median rule and the statistics every timer of tools/bench returns (CPU-only), and
// the kernel timing entries' clear GpuError where no device exists.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "common/error.h"
#include "common/gpu_info.h"
#include "tools/bench/cpu_timer.h"
#include "tools/bench/kernel_bench.h"
#include "tools/bench/measurement.h"
#include "tools/bench/model.h"
#include "tools/bench/runners.h"

namespace mad::bench {
namespace {

TEST(Measurement, MedianOf) {
  EXPECT_EQ(median_of({3.0, 1.0, 2.0}), 2.0);
  EXPECT_EQ(median_of({4.0, 1.0, 3.0, 2.0}), 2.5);  // even: mean of the two middle values
  EXPECT_EQ(median_of({7.0}), 7.0);
  EXPECT_EQ(median_of({5.0, 1.0}), 3.0);
  EXPECT_EQ(median_of({2.0, 2.0, 9.0, 1.0, 2.0, 8.0}), 2.0);  // ties in the middle
  EXPECT_THROW(median_of({}), InvalidArgument);
}

// The figures summarize() derives from the samples: median, min and max (ms) exactly, and the
// spread (%) to within rounding.
void expect_figures(const Measurement& m, double median, double min, double max, double spread) {
  EXPECT_EQ(m.median_ms, median);
  EXPECT_EQ(m.min_ms, min);
  EXPECT_EQ(m.max_ms, max);
  EXPECT_DOUBLE_EQ(m.spread_pct, spread);
}

TEST(Measurement, SummarizeOddCount) {
  const Measurement m = summarize({5.0, 1.0, 4.0, 2.0, 3.0}, 2);
  EXPECT_EQ(m.warmup, 2);
  EXPECT_EQ(m.runs, 5);
  EXPECT_EQ(m.samples_ms, (std::vector<double>{5.0, 1.0, 4.0, 2.0, 3.0}));  // run order kept
  expect_figures(m, 3.0, 1.0, 5.0, 100.0 * 4.0 / 3.0);
}

TEST(Measurement, SummarizeEvenCount) {
  const Measurement m = summarize({8.0, 2.0, 6.0, 4.0}, 0);
  EXPECT_EQ(m.runs, 4);
  expect_figures(m, 5.0, 2.0, 8.0, 120.0);
}

TEST(Measurement, SummarizeEdgeCases) {
  const Measurement one = summarize({2.5}, 1);
  EXPECT_EQ(one.median_ms, 2.5);
  EXPECT_EQ(one.spread_pct, 0.0);
  const Measurement none = summarize({}, 3);
  EXPECT_EQ(none.runs, 0);
  EXPECT_TRUE(std::isnan(none.median_ms));
  EXPECT_TRUE(std::isnan(none.spread_pct));
  EXPECT_TRUE(std::isnan(summarize({0.0, 0.0}, 0).spread_pct));  // no spread of a zero median
}

TEST(Measurement, PerItemScalesEveryFigure) {
  const Measurement m = per_item(summarize({40.0, 10.0, 20.0}, 1), 10.0);
  EXPECT_EQ(m.warmup, 1);
  EXPECT_EQ(m.runs, 3);
  expect_figures(m, 2.0, 1.0, 4.0, 150.0);  // the spread, a ratio, unchanged by the scaling
  EXPECT_THROW(per_item(m, 0.0), InvalidArgument);
}

KernelResources kernel(int id, unsigned long long threads, int registers) {
  KernelResources k;
  k.kernel = reinterpret_cast<const void*>(static_cast<std::uintptr_t>(id));
  k.block = {static_cast<unsigned>(64 * id), 1, 1};
  k.block_threads = 64 * id;
  k.registers = registers;
  k.static_smem_bytes = 1024u * id;
  k.dynamic_smem_bytes = 16u * id;
  k.occupancy_pct = 25.0 * id;
  k.launches = 1;
  k.threads_launched = threads;
  return k;
}

// A row that sums parts (the detection stage's) lists each configuration once: a kernel both
// parts launched adds up, a different block size is another configuration.
TEST(Measurement, MergeKernelsKeepsOneEntryPerConfiguration) {
  Measurement a, b;
  a.kernels = {kernel(1, 1000, 40), kernel(2, 500, 24)};
  KernelResources wider = kernel(1, 300, 40);
  wider.block = {128, 2, 1};
  b.kernels = {kernel(2, 700, 24), wider};
  merge_kernels(a, b);
  ASSERT_EQ(a.kernels.size(), 3u);
  EXPECT_EQ(a.kernels[1].launches, 2);
  EXPECT_EQ(a.kernels[1].threads_launched, 1200u);
  EXPECT_EQ(a.kernels[2].threads_launched, 300u);
  EXPECT_EQ(summarize_resources(a).registers, 24);  // kernel 2 now launched the most threads
}

// The row rule of measurement.h: the kernel that launched the most threads (first on a tie),
// and the count of distinct kernels; NaN when nothing was recorded.
TEST(Measurement, ResourcesShowTheKernelWithTheMostThreads) {
  Measurement m = summarize({1.0, 2.0}, 1);
  EXPECT_FALSE(std::isfinite(summarize_resources(m).kernels));
  EXPECT_FALSE(std::isfinite(summarize_resources(m).registers));
  m.kernels = {kernel(1, 1000, 40), kernel(2, 5000, 24), kernel(3, 5000, 80)};
  const ResourceSummary r = summarize_resources(m);
  EXPECT_EQ(r.kernels, 3);
  EXPECT_EQ(r.registers, 24);  // kernel 2: most threads, before kernel 3 (a tie)
  EXPECT_EQ(r.block_threads, 128);
  EXPECT_EQ(r.static_smem_bytes, 2048);
  EXPECT_EQ(r.dynamic_smem_bytes, 32);
  EXPECT_EQ(r.occupancy_pct, 50);
  // per_item keeps the kernels; apply_measurement puts the summary in the row.
  const Measurement per = per_item(m, 2.0);
  ASSERT_EQ(per.kernels.size(), 3u);
  BenchRow row;
  apply_measurement(row, per);
  EXPECT_EQ(row.kernels, 3);
  EXPECT_EQ(row.registers, 24);
  EXPECT_EQ(row.block_threads, 128);
  EXPECT_EQ(row.occupancy_pct, 50);
  BenchRow cpu;
  apply_measurement(cpu, summarize({1.0}, 0));
  EXPECT_FALSE(present(cpu.kernels));
  EXPECT_FALSE(present(cpu.registers));
  EXPECT_FALSE(present(cpu.static_smem_bytes));
  EXPECT_FALSE(present(cpu.dynamic_smem_bytes));
  EXPECT_FALSE(present(cpu.block_threads));
  EXPECT_FALSE(present(cpu.occupancy_pct));
}

TEST(CpuTimer, TimeHostCallsWarmupThenRuns) {
  std::vector<int> calls;
  int prepared = 0;
  const Measurement m = time_host(
      2, 3, [&](int i) { calls.push_back(i); }, [&] { ++prepared; });
  EXPECT_EQ(calls, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(prepared, 5);
  EXPECT_EQ(m.warmup, 2);
  EXPECT_EQ(m.runs, 3);
  EXPECT_LE(m.min_ms, m.median_ms);
  EXPECT_LE(m.median_ms, m.max_ms);
  EXPECT_THROW(time_host(0, 0, [](int) {}), InvalidArgument);
}

TEST(CpuTimer, BudgetStopsAtMaxRunsWithOneWarmup) {
  int calls = 0;
  const Measurement m = time_cpu_budget([&] { ++calls; }, {4, 10.0}, true);
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(m.warmup, 1);
  EXPECT_EQ(m.runs, 4);
  int once = 0;
  const Measurement z = time_cpu_budget([&] { ++once; }, {0, 0.0}, false);
  EXPECT_EQ(once, 1);  // at least one timed call
  EXPECT_EQ(z.runs, 1);
}

TEST(KernelBench, WithoutDeviceIsAGpuError) {
  if (gpu_device_available()) GTEST_SKIP() << "a CUDA device is present";
  const Image<std::uint8_t> gray(16, 16, 3);
  EXPECT_THROW(bench_histogram(gray.cview(), "", {}), GpuError);
  EXPECT_THROW(bench_nick(gray.cview(), {5, -0.1}, "", {}), GpuError);
}

}  // namespace
}  // namespace mad::bench
