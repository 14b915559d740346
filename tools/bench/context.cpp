// BenchContext: where runners put their rows, how CPU references are timed, how a failing
// measurement is turned into a note, and how a variant's launch shape is read off its name.
#include <algorithm>
#include <exception>
#include <limits>
#include <regex>

#include "common/error.h"
#include "common/parallel.h"
#include "tools/bench/bench_images.h"
#include "tools/bench/cpu_timer.h"
#include "tools/bench/runners.h"

namespace mad::bench {
namespace {

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

void BenchContext::for_gpu_precisions(const std::string& what, Size size,
                                      const std::function<void(const std::string&)>& fn) {
  if (!config.gpu) return;
  for (const std::string& p : config.precisions)
    guarded(what + " " + p + " " + format_size(size.width, size.height), [&] { fn(p); });
}

void BenchContext::sweep_sizes(const std::string& group, std::uint32_t pair_seed,
                               const std::function<void(Size, const std::string&)>& gpu_rows,
                               const CpuPairRows& cpu_rows) {
  for (const Size s : config.sizes_for(group)) {
    say(group + " " + format_size(s.width, s.height));
    if (gpu_rows) for_gpu_precisions(group, s, [&](const std::string& p) { gpu_rows(s, p); });
    guarded(group + " cpu " + format_size(s.width, s.height), [&] {
      const BenchPair pair = make_bench_pair(s.width, s.height, pair_seed);
      cpu_rows(s, pair.ref.pixels.cview(), pair.dst.pixels.cview());
    });
  }
}

BenchRow make_row(const std::string& group, const std::string& case_name, Size size,
                  const std::string& precision, int channels) {
  BenchRow r;
  r.group = group;
  r.case_name = case_name;
  r.precision = precision;
  r.width = size.width;
  r.height = size.height;
  r.channels = channels;
  return r;
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
    // --repeat N fixes the count: N timed calls whatever they cost.
    const CpuBudget budget = config.cpu_runs > 0
                                 ? CpuBudget{config.cpu_runs, std::numeric_limits<double>::infinity()}
                                 : CpuBudget{config.cpu_max_runs, config.cpu_budget_s};
    apply_measurement(row, time_cpu_budget(fn, budget, one_thread));
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
  } else if (std::regex_search(v, m, std::regex("^shared_(block|warp)_p([0-9]+)$"))) {
    row.launch_shape = "grid-stride loop, 1-D blocks";
    row.pixels_per_thread = std::stoi(m[2]);
  } else if (std::regex_search(v, m, std::regex("([0-9]+)x([0-9]+)"))) {
    row.launch_shape = "2-D " + m[1].str() + "x" + m[2].str() + " blocks";
    std::smatch p;  // "global_32x16_p15": 15 pixels per thread down a column
    row.pixels_per_thread = std::regex_search(v, p, std::regex("_p([0-9]+)$")) ? std::stoi(p[1])
                            : v.find("pixel") != std::string::npos             ? 1
                                                                               : 0;
  } else if (v.find("_1d") != std::string::npos) {
    row.launch_shape = "1-D blocks";
    row.pixels_per_thread = v.find("pixel") != std::string::npos ? 1 : 0;
  } else {
    row.grid.clear();  // the variant's note says how it is launched
  }
}

}  // namespace mad::bench
