// The one measurement record of `mad bench` and the one rule that summarizes timed runs.
// Every timer in tools/bench (GPU events: gpu_timer_cuda.h; host clock: cpu_timer.h) returns a
// Measurement, and every report row is filled from one (apply_measurement in runners.h).
//
// Median rule: the middle value of the sorted samples for an odd count, the mean of the two
// middle values for an even count. Spread: 100 (max - min) / median, in percent.
//
// Resources: the GPU timer records the kernels that one call launched (the first warm-up run,
// through common/launch_log.h) with their registers, shared memory and theoretical occupancy.
// A report row shows one kernel of them, by the rule of summarize_resources below.
#pragma once

#include <limits>
#include <vector>

#include "common/launch_log.h"

namespace mad::bench {

struct Measurement {
  int warmup = 0;                  // untimed runs before the timed ones
  int runs = 0;                    // timed runs (= samples_ms.size())
  std::vector<double> samples_ms;  // one per timed run, in run order
  double median_ms = std::numeric_limits<double>::quiet_NaN();
  double min_ms = std::numeric_limits<double>::quiet_NaN();
  double max_ms = std::numeric_limits<double>::quiet_NaN();
  double spread_pct = std::numeric_limits<double>::quiet_NaN();  // 100 (max - min) / median
  // The distinct launch configurations (kernel, block, dynamic shared memory) of one call, in
  // order of first launch. Empty: nothing recorded (host timers; kernels launched by cuFFT or
  // CUB, which do not go through mad::cuda::launch_kernel).
  std::vector<KernelResources> kernels;
};

// What a report row shows of a Measurement's kernels; NaN where nothing was recorded.
struct ResourceSummary {
  double kernels = std::numeric_limits<double>::quiet_NaN();  // distinct launch configurations
  double block_threads = std::numeric_limits<double>::quiet_NaN();
  double registers = std::numeric_limits<double>::quiet_NaN();  // per thread
  double static_smem_bytes = std::numeric_limits<double>::quiet_NaN();
  double dynamic_smem_bytes = std::numeric_limits<double>::quiet_NaN();
  double occupancy_pct = std::numeric_limits<double>::quiet_NaN();  // theoretical
};

// Median of a non-empty sample by the rule above. Throws InvalidArgument when empty.
double median_of(std::vector<double> samples);

// The record of `samples_ms` (kept in run order) after `warmup` untimed runs. An empty sample
// gives runs = 0 and NaN statistics.
Measurement summarize(std::vector<double> samples_ms, int warmup);

// Every time divided by `divisor` (> 0): per-call or per-pair figures of a timed loop. The
// kernels are kept.
Measurement per_item(Measurement m, double divisor);

// The one rule for a row with several kernels: the row shows the kernel configuration that
// launched the most threads in the recorded call (grid x block, summed over its launches; the
// first in launch order on a tie), with `kernels` = how many distinct configurations ran. Its
// registers, shared memory and occupancy belong together, and the kernel doing the most
// thread-work is the best stand-in for where the time went. All NaN when none was recorded.
ResourceSummary summarize_resources(const Measurement& m);

// Adds `from`'s kernels to `into`'s, one entry per distinct configuration (kernel, block,
// dynamic shared memory; launches and threads summed): the kernels of a row that sums parts.
void merge_kernels(Measurement& into, const Measurement& from);

}  // namespace mad::bench
