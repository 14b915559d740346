// Host-clock timing (std::chrono::steady_clock) for `mad bench`: the CPU references, and GPU
// work that is synchronous from the host's view (a whole scorer call, a constructor that
// allocates device memory). Every function returns the one Measurement (measurement.h).
#pragma once

#include <functional>

#include "tools/bench/measurement.h"

namespace mad::bench {

// `warmup` untimed calls, then `runs` (>= 1) timed calls; fn(i) gets the call's index
// i = 0 .. warmup + runs - 1, so a caller can rotate its inputs. `prepare`, when given, runs
// untimed before every call (as in time_gpu).
Measurement time_host(int warmup, int runs, const std::function<void(int)>& fn,
                      const std::function<void()>& prepare = {});

struct CpuBudget {
  int max_runs = 10;      // at most this many timed calls ...
  double budget_s = 0.5;  // ... or until this much time was spent (at least one call)
};

// Timed calls until budget.max_runs calls or budget.budget_s seconds, whichever comes first,
// but at least one. With `warm_up`, the first call is a warm-up (plans, caches, page faults)
// and is discarded, unless it alone took longer than the budget: such a call (seconds, at
// 8192x8192) dwarfs its one-off costs, so it is kept as the first timed run instead of being
// repeated.
Measurement time_cpu_budget(const std::function<void()>& fn, const CpuBudget& budget, bool warm_up);

}  // namespace mad::bench
