#include "common/parallel.h"
#include "common/thread_count_scope.h"

#include "common/allotment.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#ifdef __linux__
#include <pthread.h>
#endif

namespace mad {
namespace {
std::atomic<int> g_thread_override{0};
thread_local int t_thread_override = 0;  // a ThreadCountScope's, over the process's
}  // namespace

ThreadCountScope::ThreadCountScope(int threads) : previous_(t_thread_override) {
  if (threads > 0) t_thread_override = threads;
}
ThreadCountScope::~ThreadCountScope() { t_thread_override = previous_; }

int thread_count() {
  if (t_thread_override > 0) return t_thread_override;
  const int forced = g_thread_override.load();
  if (forced > 0) return forced;
  return process_allotment().cpus;
}

void set_thread_count(int threads) {
  g_thread_override.store(std::max(0, threads));
}

void name_this_thread(const std::string& name) {
#ifdef __linux__
  pthread_setname_np(pthread_self(), name.substr(0, 15).c_str());
#else
  (void)name;
#endif
}

void parallel_for(int n, const std::function<void(int)>& fn) {
  const int workers = std::min(thread_count(), n);
  if (workers <= 1) {
    for (int i = 0; i < n; ++i) fn(i);
    return;
  }
  std::atomic<int> next{0};
  std::exception_ptr first_error;
  std::mutex error_mutex;
  auto work = [&] {
    for (int i = next++; i < n; i = next++) {
      try {
        fn(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mutex);
        if (!first_error) first_error = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  // A worker that calls parallel_for itself counts as its caller does (ThreadCountScope).
  const int inherited = t_thread_override;
  for (int t = 1; t < workers; ++t)
    pool.emplace_back([&work, inherited] {
      t_thread_override = inherited;
      work();
    });
  work();
  for (auto& t : pool) t.join();
  if (first_error) std::rethrow_exception(first_error);
}

}  // namespace mad
