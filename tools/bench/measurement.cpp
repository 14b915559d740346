#include "tools/bench/measurement.h"

#include <algorithm>

#include "common/error.h"

namespace mad::bench {

double median_of(std::vector<double> samples) {
  if (samples.empty()) throw InvalidArgument("median of an empty sample");
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

Measurement summarize(std::vector<double> samples_ms, int warmup) {
  Measurement m;
  m.warmup = warmup;
  m.runs = static_cast<int>(samples_ms.size());
  m.samples_ms = std::move(samples_ms);
  if (m.samples_ms.empty()) return m;
  const auto [lo, hi] = std::minmax_element(m.samples_ms.begin(), m.samples_ms.end());
  m.min_ms = *lo;
  m.max_ms = *hi;
  m.median_ms = median_of(m.samples_ms);
  m.spread_pct = m.median_ms > 0 ? 100.0 * (m.max_ms - m.min_ms) / m.median_ms
                                 : std::numeric_limits<double>::quiet_NaN();
  return m;
}

Measurement per_item(Measurement m, double divisor) {
  if (!(divisor > 0)) throw InvalidArgument("per_item: divisor must be > 0");
  for (double& s : m.samples_ms) s /= divisor;
  Measurement out = summarize(std::move(m.samples_ms), m.warmup);
  out.kernels = std::move(m.kernels);
  return out;
}

ResourceSummary summarize_resources(const Measurement& m) {
  ResourceSummary r;
  if (m.kernels.empty()) return r;
  const KernelResources* top = &m.kernels.front();
  for (const KernelResources& k : m.kernels)
    if (k.threads_launched > top->threads_launched) top = &k;
  r.kernels = static_cast<double>(m.kernels.size());
  r.block_threads = top->block_threads;
  r.registers = top->registers;
  r.static_smem_bytes = static_cast<double>(top->static_smem_bytes);
  r.dynamic_smem_bytes = static_cast<double>(top->dynamic_smem_bytes);
  r.occupancy_pct = top->occupancy_pct;
  return r;
}

void merge_kernels(Measurement& into, const Measurement& from) {
  for (const KernelResources& k : from.kernels) {
    const auto same = std::find_if(into.kernels.begin(), into.kernels.end(), [&](const auto& e) {
      return e.kernel == k.kernel && e.block.x == k.block.x && e.block.y == k.block.y &&
             e.block.z == k.block.z && e.dynamic_smem_bytes == k.dynamic_smem_bytes;
    });
    if (same == into.kernels.end()) {
      into.kernels.push_back(k);
    } else {
      same->launches += k.launches;
      same->threads_launched += k.threads_launched;
    }
  }
}

}  // namespace mad::bench
