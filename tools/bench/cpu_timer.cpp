#include "tools/bench/cpu_timer.h"

#include <algorithm>
#include <chrono>

#include "common/error.h"

namespace mad::bench {
namespace {

using Clock = std::chrono::steady_clock;

double timed_ms(const std::function<void()>& fn) {
  const auto t0 = Clock::now();
  fn();
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

Measurement time_host(int warmup, int runs, const std::function<void(int)>& fn,
                      const std::function<void()>& prepare) {
  if (runs < 1 || warmup < 0) throw InvalidArgument("time_host: runs must be >= 1, warmup >= 0");
  std::vector<double> ms;
  for (int i = 0; i < warmup + runs; ++i) {
    if (prepare) prepare();
    if (i < warmup)
      fn(i);
    else
      ms.push_back(timed_ms([&] { fn(i); }));
  }
  return summarize(std::move(ms), warmup);
}

Measurement time_cpu_budget(const std::function<void()>& fn, const CpuBudget& budget,
                            bool warm_up) {
  std::vector<double> ms;
  double spent_ms = 0;
  int warmup = 0;
  const double budget_ms = 1e3 * budget.budget_s;
  if (warm_up) {
    const double first = timed_ms(fn);
    if (first > budget_ms)
      ms.push_back(first), spent_ms = first;
    else
      warmup = 1;
  }
  while (static_cast<int>(ms.size()) < std::max(1, budget.max_runs) &&
         (ms.empty() || spent_ms < budget_ms)) {
    ms.push_back(timed_ms(fn));
    spent_ms += ms.back();
  }
  return summarize(std::move(ms), warmup);
}

}  // namespace mad::bench
