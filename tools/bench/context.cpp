// BenchContext: where runners put their rows, how CPU references are timed, how a failing
// measurement is turned into a note, and how a variant's launch shape is read off its name.
#include <algorithm>
#include <chrono>
#include <exception>
#include <regex>

#include "common/error.h"
#include "common/parallel.h"
#include "tools/cli_bench_runners.h"

namespace mad::cli::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Timed calls until cpu_max_runs calls or cpu_budget_s seconds have been spent, whichever
// comes first, but at least one. With `warm_up`, the first call is a warm-up (plans, caches,
// page faults) and is discarded, unless it alone took longer than the budget: such a call
// (seconds, at 8192x8192) dwarfs its one-off costs, so it is kept as the first timed run
// instead of being repeated.
Timing time_cpu(const std::function<void()>& fn, const BenchConfig& c, bool warm_up) {
  std::vector<double> ms;
  double spent_s = 0;
  int warmup = 0;
  auto timed_call = [&] {
    const auto t0 = Clock::now();
    fn();
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  if (warm_up) {
    const double first = timed_call();
    if (first > c.cpu_budget_s)
      ms.push_back(first * 1e3), spent_s = first;
    else
      warmup = 1;
  }
  while (static_cast<int>(ms.size()) < std::max(1, c.cpu_max_runs) &&
         (ms.empty() || spent_s < c.cpu_budget_s)) {
    const double dt = timed_call();
    ms.push_back(dt * 1e3);
    spent_s += dt;
  }
  return summarize(ms, warmup);
}

// Restores the default worker count however the timed call exits.
struct ThreadCountGuard {
  ~ThreadCountGuard() { set_thread_count(0); }
};

}  // namespace

void BenchContext::add(BenchRow row) {
  if (row.backend == "cuda" && transfers && present(row.bytes_in)) transfers->fill(row);
  rows.push_back(std::move(row));
}

void BenchContext::guarded(const std::string& what, const std::function<void()>& fn) {
  try {
    fn();
  } catch (const std::exception& e) {  // mad::Error, and e.g. std::bad_alloc at 8192x8192
    notes.push_back(what + ": skipped: " + e.what());
    say("  skipped " + what + ": " + e.what());
  }
}

void BenchContext::add_cpu_rows(const BenchRow& proto, const std::function<void()>& fn) {
  ThreadCountGuard guard;
  for (const bool one_thread : {true, false}) {
    set_thread_count(one_thread ? 1 : 0);
    BenchRow row = proto;
    row.backend = "cpu";
    row.variant = one_thread ? "cpu-1t" : "cpu-all";
    row.threads = one_thread ? 1 : thread_count();
    // The all-threads measurement follows the one-thread one on the same data, which has
    // warmed it already: a second warm-up call would only cost time (seconds at 8192x8192).
    apply_timing(row, time_cpu(fn, config, one_thread));
    add(std::move(row));
  }
}

void describe_launch_shape(BenchRow& row) {
  const std::string& v = row.variant;
  std::smatch m;
  row.grid = "dynamic";
  if (v.find("fixed") != std::string::npos) {
    row.grid = "fixed";
    row.launch_shape = "grid-stride loop, fixed grid";
    row.pixels_per_thread = 0;  // depends on the image: pixels / (fixed thread count)
  } else if (std::regex_search(v, m, std::regex("grid_stride_p([0-9]+)"))) {
    row.launch_shape = "grid-stride loop, 1-D blocks";
    row.pixels_per_thread = std::stoi(m[1]);
  } else if (std::regex_search(v, m, std::regex("vector([0-9]+)"))) {
    row.launch_shape = "vector loads, 1-D blocks";
    row.pixels_per_thread = std::stoi(m[1]);
  } else if (std::regex_search(v, m, std::regex("([0-9]+)x([0-9]+)"))) {
    row.launch_shape = "2-D " + m[1].str() + "x" + m[2].str() + " blocks";
    row.pixels_per_thread = v.find("pixel") != std::string::npos ? 1 : 0;
  } else if (v.find("_1d") != std::string::npos) {
    row.launch_shape = "1-D blocks";
    row.pixels_per_thread = v.find("pixel") != std::string::npos ? 1 : 0;
  } else {
    row.grid.clear();  // the variant's note says how it is launched
  }
}

}  // namespace mad::cli::bench
