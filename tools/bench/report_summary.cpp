// The goal figures of issue 5, read off a finished report (also one loaded from bench.json by
// `mad bench --summary-from`, which tools/gpu-check.sh prints). Every figure is a ratio or
// value of measured rows; a figure whose rows are missing says "n/a" and why.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>

#include "tools/bench/report.h"

namespace mad::bench {
namespace {

using Pred = std::function<bool(const BenchRow&)>;

// pyiqa's MAD per pair as quoted by issue 5, timed on an H100 80GB HBM3 (not measured by mad):
// on another device the comparison crosses devices, and the line says which mad ran on.
constexpr double kPyiqa512x384Ms = 141.0;
constexpr double kPyiqa1080x800Ms = 475.0;

const BenchRow* find(const BenchReport& r, const Pred& p) {
  for (const BenchRow& row : r.rows)
    if (p(row) && present(row.median_ms)) return &row;
  return nullptr;
}

// The fastest (smallest median) row matching p.
const BenchRow* fastest(const BenchReport& r, const Pred& p) {
  const BenchRow* best = nullptr;
  for (const BenchRow& row : r.rows)
    if (p(row) && present(row.median_ms) && (!best || row.median_ms < best->median_ms)) best = &row;
  return best;
}

std::string n(double v) {
  return format_number(v);
}
std::string pct(double share) {
  return present(share) ? format_number(100 * share) + "%" : "-";
}
std::string mib(double bytes) {
  return present(bytes) ? format_number(bytes / 1048576.0) + " MiB" : "-";
}

// The largest size (by pixels) among rows matching p.
bool largest_size(const BenchReport& r, const Pred& p, int& w, int& h) {
  long long best = -1;
  for (const BenchRow& row : r.rows)
    if (p(row) && static_cast<long long>(row.width) * row.height > best)
      best = static_cast<long long>(row.width) * row.height, w = row.width, h = row.height;
  return best >= 0;
}

Pred gpu_in(const std::string& group) {
  return [group](const BenchRow& x) { return x.group == group && x.backend == "cuda"; };
}

std::string a5_line(const BenchReport& r, const std::string& prec) {
  int w = 512, h = 512;
  // The 40-subband statistics rows (not the thesis's one-subband mean rows).
  const Pred in_group = [&](const BenchRow& x) {
    return gpu_in("a5")(x) && x.precision == prec && x.case_name == "40_subbands";
  };
  if (!find(r,
            [&](const BenchRow& x) { return in_group(x) && x.width == 512 && x.height == 512; }) &&
      !largest_size(r, in_group, w, h))
    return "A5 " + prec + ": n/a (no GPU rows)";
  auto at = [&](const BenchRow& x) { return in_group(x) && x.width == w && x.height == h; };
  const BenchRow* orig =
      find(r, [&](const BenchRow& x) { return at(x) && x.variant == "a5-original"; });
  const BenchRow* best =
      fastest(r, [&](const BenchRow& x) { return at(x) && x.variant != "a5-original"; });
  if (!orig || !best) return "A5 " + prec + ": n/a (a5-original or another variant missing)";
  return "A5 " + prec + " " + format_size(w, h) + " (40 subbands): fastest " + best->variant + " " +
         n(best->median_ms) + " ms vs a5-original " + n(orig->median_ms) +
         " ms = " + n(orig->median_ms / best->median_ms) + "x (goal >= 10x)";
}

const BenchRow* pipeline_row(const BenchReport& r, int w, int h, const std::string& variant,
                             const std::string& prec) {
  return find(r, [&](const BenchRow& x) {
    return x.group == "pipeline" && x.width == w && x.height == h && x.variant == variant &&
           x.precision == prec;
  });
}

std::string pipeline_ms(const BenchReport& r, int w, int h) {
  const BenchRow* g = pipeline_row(r, w, h, "single", "double");
  const BenchRow* c = pipeline_row(r, w, h, "cpu-all", "double");
  std::string s = format_size(w, h) + " ";
  s += g ? n(g->median_ms) + " ms" : std::string("n/a");
  if (c) s += " (CPU " + std::to_string(c->threads) + " threads " + n(c->median_ms) + " ms)";
  return s;
}

std::string bandwidth_lines(const BenchReport& r) {
  int w = 8192, h = 8192;
  const Pred pre = [](const BenchRow& x) {
    return x.backend == "cuda" &&
           (x.group == "gray" || x.group == "darken" || x.group == "histogram" ||
            x.group == "smooth" || x.group == "nick");
  };
  if (!largest_size(r, pre, w, h))
    return "copy-bandwidth share of the preprocessing kernels: n/a (no GPU rows)";
  std::string s = "copy-bandwidth share at " + format_size(w, h) +
                  " (goal >= 70%, histogram 75%, of " + n(r.device.copy_bandwidth_gbps) +
                  " GB/s), best variant:";
  const std::pair<const char*, const char*> cases[] = {{"gray", "rgb"},
                                                       {"darken", "rgb"},
                                                       {"histogram", "uniform_random"},
                                                       {"smooth", "1ch"},
                                                       {"nick", "w=15"}};
  for (const auto& entry : cases) {
    // Plain locals: C++17 lambdas may not capture structured bindings (clang rejects it).
    const std::string group = entry.first, case_name = entry.second;
    const BenchRow* best = fastest(r, [&](const BenchRow& x) {
      return pre(x) && x.group == group && x.case_name == case_name && x.width == w &&
             x.height == h;
    });
    s += std::string(" ") + group + " " +
         (best ? pct(best->bw_share) + " (" + best->variant + ")" : "n/a") + ";";
  }
  return s;
}

// The general NxN convolution (group convolve): per element type and filter side, the best
// variant's share of the copy bandwidth at the largest size measured. The goal (>= 70%) holds
// where the convolution is memory-bound; large N is bound by its N^2 taps (see
// kernels/convolve_regblock_cuda.cu).
std::string convolve_line(const BenchReport& r) {
  int w = 8192, h = 8192;
  const Pred pre = [](const BenchRow& x) { return x.backend == "cuda" && x.group == "convolve"; };
  if (!largest_size(r, pre, w, h)) return "convolve copy-bandwidth share: n/a (no GPU rows)";
  std::string s = "convolve copy-bandwidth share at " + format_size(w, h) +
                  " (goal >= 70% where memory-bound), best variant:";
  for (const char* precision : {"u8", "float"}) {
    s += std::string(" ") + precision;
    for (const int n_taps : {3, 5, 9, 17}) {
      const std::string case_name = "N=" + std::to_string(n_taps) + " " + precision;
      const BenchRow* best = fastest(r, [&](const BenchRow& x) {
        return pre(x) && x.precision == precision && x.case_name == case_name && x.width == w &&
               x.height == h;
      });
      s += " N=" + std::to_string(n_taps) + " " +
           (best ? pct(best->bw_share) + " (" + best->variant + ")" : "n/a") + ";";
    }
  }
  return s;
}

std::string histogram_line(const BenchReport& r) {
  int w = 0, h = 0;
  if (!largest_size(r, gpu_in("histogram"), w, h))
    return "histogram monochrome/random: n/a (no GPU rows)";
  std::string s =
      "histogram " + format_size(w, h) + " monochrome/random (goal <= 2x; seed 001: 21x):";
  std::set<std::string> seen;
  for (const BenchRow& x : r.rows) {
    if (!gpu_in("histogram")(x) || x.width != w || x.height != h || !seen.insert(x.variant).second)
      continue;
    auto at = [&](const char* c) {
      return find(r, [&](const BenchRow& y) {
        return gpu_in("histogram")(y) && y.variant == x.variant && y.width == w && y.height == h &&
               y.case_name == c;
      });
    };
    const BenchRow *mono = at("monochrome"), *rnd = at("uniform_random");
    s += " " + x.variant + (x.note.rfind("(default)", 0) == 0 ? "*" : "") + " " +
         (mono && rnd ? n(mono->median_ms / rnd->median_ms) + "x" : std::string("n/a")) + ";";
  }
  return s;
}

std::string nick_line(const BenchReport& r) {
  // The sweep size: the largest size at which more than one window was timed on the GPU.
  std::map<std::pair<int, int>, std::set<int>> windows;
  for (const BenchRow& x : r.rows)
    if (gpu_in("nick")(x)) windows[{x.width, x.height}].insert(std::atoi(x.case_name.c_str() + 2));
  int w = 0, h = 0, lo = 0, hi = 0;
  for (const auto& [size, set] : windows)
    if (set.size() >= 2 &&
        static_cast<long long>(size.first) * size.second >= static_cast<long long>(w) * h)
      w = size.first, h = size.second, lo = *set.begin(), hi = *set.rbegin();
  if (hi <= lo) return "nick window sweep: n/a (no GPU sweep rows)";
  auto ratio = [&](const std::string& variant) {
    auto at = [&](int win) {
      return find(r, [&](const BenchRow& x) {
        return gpu_in("nick")(x) && x.variant == variant && x.width == w && x.height == h &&
               x.case_name == "w=" + std::to_string(win);
      });
    };
    const BenchRow *a = at(lo), *b = at(hi);
    return a && b ? n(b->median_ms / a->median_ms) + "x" : std::string("n/a");
  };
  const double w2 = double(hi) * hi / (double(lo) * lo);
  return "nick " + format_size(w, h) + " time(w=" + std::to_string(hi) +
         ")/time(w=" + std::to_string(lo) + "): integral " + ratio("integral") +
         ", sliding_columns " + ratio("sliding_columns") + ", warp_scan " + ratio("warp_scan") +
         " (goal: flat), method1_16x16 " + ratio("method1_16x16") + ", method1_32x32 " +
         ratio("method1_32x32") + " (w^2 grows " + n(w2) + "x)";
}

// The detection block statistics (reference + error launches) of the fastest variant against
// the thesis-form "det-original" one, double, at 512x512 or the largest size run.
std::string detection_line(const BenchReport& r) {
  int w = 512, h = 512;
  const Pred stats = [](const BenchRow& x) {
    return x.group == "detection" && x.backend == "cuda" && x.case_name == "block_stats" &&
           x.precision == "double";
  };
  if (!find(r, [&](const BenchRow& x) { return stats(x) && x.width == w && x.height == h; }) &&
      !largest_size(r, stats, w, h))
    return "detection block statistics: n/a (no GPU rows)";
  auto at = [&](const BenchRow& x) { return stats(x) && x.width == w && x.height == h; };
  const BenchRow* best = fastest(r, at);
  const BenchRow* orig =
      find(r, [&](const BenchRow& x) { return at(x) && x.variant == "det-original"; });
  const BenchRow* cpu = find(r, [&](const BenchRow& x) {
    return x.group == "detection" && x.case_name == "block_stats" && x.variant == "cpu-all" &&
           x.width == w && x.height == h;
  });
  return "detection block statistics double " + format_size(w, h) + ": fastest " + best->variant +
         " " + n(best->median_ms) + " ms" +
         (orig ? ", det-original " + n(orig->median_ms) + " ms" : std::string()) +
         (cpu ? ", CPU " + std::to_string(cpu->threads) + " threads " + n(cpu->median_ms) + " ms"
              : std::string());
}

// Host<->device copy rates of the largest transfer measured.
std::string transfer_line(const BenchReport& r) {
  const BenchRow* big = nullptr;
  for (const BenchRow& x : r.rows)
    if (present(x.h2d_pinned_ms) && present(x.bytes_in) && x.h2d_pinned_ms > 0 &&
        (!big || x.bytes_in > big->bytes_in))
      big = &x;
  if (!big) return "transfers: n/a (no GPU rows)";
  auto rate = [&](double ms) {
    return present(ms) && ms > 0 ? n(big->bytes_in / (ms * 1e-3) * 1e-9) : std::string("-");
  };
  return "host to device, " + mib(big->bytes_in) + ": pinned " + rate(big->h2d_pinned_ms) +
         " GB/s, pageable " + rate(big->h2d_pageable_ms) + " GB/s";
}

std::string pyiqa_line(const BenchReport& r) {
  const std::string& gpu = r.device.name;
  const std::string where = gpu.find("H100") != std::string::npos ? "the same kind of GPU"
                            : gpu.empty()                         ? "mad on no GPU"
                                                                  : "mad on " + gpu;
  std::string s =
      "pipeline vs pyiqa (pyiqa's times quoted by issue 5 from an H100; " + where + "):";
  for (const auto& [w, h, ms] :
       {std::tuple<int, int, double>{512, 384, kPyiqa512x384Ms}, {1080, 800, kPyiqa1080x800Ms}}) {
    const BenchRow* g = pipeline_row(r, w, h, "single", "double");
    s += " " + format_size(w, h) + " " +
         (g ? n(g->median_ms) + " ms vs " + n(ms) + " ms = " + n(ms / g->median_ms) + "x faster"
            : "n/a") +
         ";";
  }
  return s;
}

}  // namespace

std::vector<const BenchRow*> rows_of(const BenchReport& report, const std::string& group) {
  std::vector<const BenchRow*> out;
  for (const BenchRow& r : report.rows)
    if (r.group == group) out.push_back(&r);
  return out;
}

std::vector<std::string> goal_summary(const BenchReport& r) {
  std::vector<std::string> lines;
  const DeviceInfo& d = r.device;
  lines.push_back(d.gpu ? "device: " + d.name + ", copy bandwidth " + n(d.copy_bandwidth_gbps) +
                              " GB/s measured (" + n(d.peak_bandwidth_gbps) +
                              " theoretical), peak FP64 " + n(d.peak_fp64_gflops) + " / FP32 " +
                              n(d.peak_fp32_gflops) + " GFLOP/s (estimates)"
                        : "device: none, CPU columns only (" + d.cpu_name + ", " +
                              std::to_string(d.cpu_threads) + " threads)");
  lines.push_back(a5_line(r, "double"));
  lines.push_back(a5_line(r, "float"));
  lines.push_back(detection_line(r));
  // Issue 12's goals in parentheses: one pair at 512x512 <= 0.40 ms (double) and <= 0.25 ms
  // (float); batched distinct references >= 3500 (double) and >= 5000 (float) pairs/s; <= 64 MiB
  // for one 512x512 double pair; >= 70% (histogram 75%) of the copy bandwidth at 8192x8192.
  lines.push_back("pipeline double, one pair (goal <= 0.40 ms at 512x512): " +
                  pipeline_ms(r, 512, 512) + "; " + pipeline_ms(r, 1080, 800));
  std::string fast = "pipeline float, one pair (goal <= 0.25 ms at 512x512):";
  for (const auto& [w, h] : {std::pair<int, int>{512, 512}, {1080, 800}}) {
    const BenchRow* g = pipeline_row(r, w, h, "single", "float");
    fast +=
        " " + format_size(w, h) + " " + (g ? n(g->median_ms) + " ms" : std::string("n/a")) + ";";
  }
  lines.push_back(fast);
  const BenchRow* distinct = pipeline_row(r, 512, 384, "batch-distinct-refs", "float");
  for (const char* precision : {"float", "double"}) {
    const BenchRow* s = pipeline_row(r, 512, 384, "batch-shared-ref", precision);
    const BenchRow* d = pipeline_row(r, 512, 384, "batch-distinct-refs", precision);
    lines.push_back(std::string("batched 512x384 ") + precision +
                    " (goal >= " + (std::string(precision) == "float" ? "5000" : "3500") +
                    " distinct): " + (s ? n(s->pairs_per_s) : std::string("n/a")) +
                    " pairs/s shared reference, " + (d ? n(d->pairs_per_s) : std::string("n/a")) +
                    " pairs/s distinct references");
  }
  std::string mem = "device memory per pair (one-pair scorer, double; goal <= 64 MiB at 512x512):";
  for (const auto& [w, h] : {std::pair<int, int>{512, 384}, {512, 512}, {1080, 800}}) {
    const BenchRow* g = pipeline_row(r, w, h, "single", "double");
    mem += " " + format_size(w, h) + " " +
           (g ? mib(g->device_bytes_per_pair) : std::string("n/a")) + ";";
  }
  if (distinct) mem += " 512x384 float batch total " + mib(distinct->device_bytes);
  lines.push_back(mem);
  lines.push_back(bandwidth_lines(r));
  lines.push_back(convolve_line(r));
  lines.push_back(histogram_line(r));
  lines.push_back(nick_line(r));
  lines.push_back(pyiqa_line(r));
  lines.push_back(transfer_line(r));
  std::size_t gpu_rows = 0;
  for (const BenchRow& x : r.rows) gpu_rows += x.backend == "cuda";
  std::size_t skipped = 0;
  for (const std::string& note : r.notes) skipped += note.find(": skipped: ") != std::string::npos;
  lines.push_back("rows: " + std::to_string(r.rows.size()) + " (" + std::to_string(gpu_rows) +
                  " GPU), " + std::to_string(skipped) + " measurements skipped, " + n(r.elapsed_s) +
                  " s" + (r.quick ? " (--quick)" : ""));
  return lines;
}

}  // namespace mad::bench
