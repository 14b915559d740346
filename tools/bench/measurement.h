// The one measurement record of `mad bench` and the one rule that summarizes timed runs.
// Every timer in tools/bench (GPU events: gpu_timer_cuda.h; host clock: cpu_timer.h) returns a
// Measurement, and every report row is filled from one (apply_measurement in runners.h).
//
// Median rule: the middle value of the sorted samples for an odd count, the mean of the two
// middle values for an even count. Spread: 100 (max - min) / median, in percent.
#pragma once

#include <limits>
#include <vector>

namespace mad::bench {

struct Measurement {
  int warmup = 0;                  // untimed runs before the timed ones
  int runs = 0;                    // timed runs (= samples_ms.size())
  std::vector<double> samples_ms;  // one per timed run, in run order
  double median_ms = std::numeric_limits<double>::quiet_NaN();
  double min_ms = std::numeric_limits<double>::quiet_NaN();
  double max_ms = std::numeric_limits<double>::quiet_NaN();
  double spread_pct = std::numeric_limits<double>::quiet_NaN();  // 100 (max - min) / median
};

// Median of a non-empty sample by the rule above. Throws InvalidArgument when empty.
double median_of(std::vector<double> samples);

// The record of `samples_ms` (kept in run order) after `warmup` untimed runs. An empty sample
// gives runs = 0 and NaN statistics.
Measurement summarize(std::vector<double> samples_ms, int warmup);

// Every time divided by `divisor` (> 0): per-call or per-pair figures of a timed loop.
Measurement per_item(Measurement m, double divisor);

}  // namespace mad::bench
