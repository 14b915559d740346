// common/launch_log.h: recording is off unless a scope is open on this thread; a scope collects
// what is launched while it is the innermost one; an ended scope records nothing. The records
// are appended here as mad::cuda::launch_kernel appends them (that template needs nvcc).
#include <gtest/gtest.h>

#include <thread>

#include "common/launch_log.h"

namespace mad {
namespace {

void kernel_a() {}
void kernel_b() {}

// What launch_kernel does before its <<<>>>.
void record(const void* kernel, unsigned block_x) {
  if (std::vector<LaunchRecord>* log = active_launch_log())
    log->push_back({kernel, {4, 1, 1}, {block_x, 1, 1}, 0});
}

TEST(LaunchLog, InactiveByDefault) {
  EXPECT_EQ(active_launch_log(), nullptr);
  record(reinterpret_cast<const void*>(&kernel_a), 32);  // goes nowhere
  EXPECT_EQ(active_launch_log(), nullptr);
}

TEST(LaunchLog, ScopeCollectsInOrder) {
  const LaunchLogScope scope;
  EXPECT_NE(active_launch_log(), nullptr);
  record(reinterpret_cast<const void*>(&kernel_a), 32);
  record(reinterpret_cast<const void*>(&kernel_b), 64);
  ASSERT_EQ(scope.records().size(), 2u);
  EXPECT_EQ(scope.records()[0].kernel, reinterpret_cast<const void*>(&kernel_a));
  EXPECT_EQ(scope.records()[1].kernel, reinterpret_cast<const void*>(&kernel_b));
  EXPECT_EQ(scope.records()[1].block.x, 64u);
  EXPECT_EQ(scope.records()[1].grid.count() * scope.records()[1].block.count(), 256u);
}

TEST(LaunchLog, NestedScopeTakesOverAndEndedScopeStopsRecording) {
  std::vector<LaunchRecord> kept;
  {
    const LaunchLogScope outer;
    record(reinterpret_cast<const void*>(&kernel_a), 32);
    {
      const LaunchLogScope inner;
      record(reinterpret_cast<const void*>(&kernel_b), 64);
      ASSERT_EQ(inner.records().size(), 1u);
      EXPECT_EQ(inner.records()[0].kernel, reinterpret_cast<const void*>(&kernel_b));
    }
    record(reinterpret_cast<const void*>(&kernel_a), 128);  // the outer scope again
    kept = outer.records();
  }
  ASSERT_EQ(kept.size(), 2u);  // the inner scope's launch is not the outer's
  EXPECT_EQ(kept[0].block.x, 32u);
  EXPECT_EQ(kept[1].block.x, 128u);
  EXPECT_EQ(active_launch_log(), nullptr);
  record(reinterpret_cast<const void*>(&kernel_a), 32);
  EXPECT_EQ(active_launch_log(), nullptr);
}

TEST(LaunchLog, OtherThreadsAreNotRecorded) {
  const LaunchLogScope scope;
  std::thread([] {
    EXPECT_EQ(active_launch_log(), nullptr);
    record(reinterpret_cast<const void*>(&kernel_a), 32);
  }).join();
  EXPECT_TRUE(scope.records().empty());
}

}  // namespace
}  // namespace mad
