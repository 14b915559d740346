// ThreadCountScope (common/thread_count_scope.h): a worker count for one thread's work, over
// the process's, inherited by the workers its parallel_for starts, and invisible to others.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>

#include "common/parallel.h"
#include "common/thread_count_scope.h"

namespace mad {
namespace {

struct ProcessCount {
  explicit ProcessCount(int n) { set_thread_count(n); }
  ~ProcessCount() { set_thread_count(0); }
};

TEST(ThreadCountScope, CountsForItsThreadAloneAndIsRestored) {
  ProcessCount process(5);
  std::atomic<bool> in_scope{false}, seen{false};
  std::atomic<int> other{0};
  std::thread neighbour([&] {
    while (!in_scope) std::this_thread::yield();
    other = thread_count();  // read while the scope lives on the main thread
    seen = true;
  });
  {
    ThreadCountScope scope(3);
    EXPECT_EQ(thread_count(), 3);
    in_scope = true;
    while (!seen) std::this_thread::yield();
    {
      ThreadCountScope inner(0);  // 0: leaves the count in force
      EXPECT_EQ(thread_count(), 3);
    }
  }
  neighbour.join();
  EXPECT_EQ(other, 5) << "a scope's count leaked to another thread";
  EXPECT_EQ(thread_count(), 5);
}

TEST(ThreadCountScope, ParallelForUsesItAndItsWorkersInheritIt) {
  ProcessCount process(1);
  ThreadCountScope scope(3);
  std::mutex m;
  std::set<std::thread::id> ids;
  std::set<int> nested;
  // Each call waits (up to a deadline) until three threads have taken one, so a worker that
  // starts late on a loaded machine still shows.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  parallel_for(30, [&](int) {
    {
      std::lock_guard<std::mutex> lock(m);
      ids.insert(std::this_thread::get_id());
      nested.insert(thread_count());
    }
    for (;;) {
      {
        std::lock_guard<std::mutex> lock(m);
        if (ids.size() >= 3) break;
      }
      if (std::chrono::steady_clock::now() > deadline) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  EXPECT_EQ(ids.size(), 3u);  // the process's 1 would run all 30 on this thread
  EXPECT_EQ(nested, std::set<int>{3});
}

}  // namespace
}  // namespace mad
