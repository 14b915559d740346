#include "datasets/correlation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>

#include "common/error.h"

namespace mad::datasets {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void check_sizes(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) throw InvalidArgument("correlation: samples of different lengths");
}

// Pairs within runs of equal values of v[order[i]]: sum of t(t-1)/2 over the runs.
std::int64_t tied_pairs(const std::vector<std::size_t>& order, const std::vector<double>& v) {
  std::int64_t ties = 0, run = 1;
  for (std::size_t i = 1; i <= order.size(); ++i) {
    if (i < order.size() && v[order[i]] == v[order[i - 1]]) {
      ++run;
    } else {
      ties += run * (run - 1) / 2;
      run = 1;
    }
  }
  return ties;
}

// Stable merge sort of `idx` by y, returning the number of strict inversions (i < j with
// y[i] > y[j]) it undoes.
std::int64_t sort_counting_inversions(std::vector<std::size_t>& idx, const std::vector<double>& y) {
  std::vector<std::size_t> buf(idx.size());
  std::int64_t swaps = 0;
  for (std::size_t width = 1; width < idx.size(); width *= 2) {
    for (std::size_t lo = 0; lo < idx.size(); lo += 2 * width) {
      const std::size_t mid = std::min(lo + width, idx.size());
      const std::size_t hi = std::min(lo + 2 * width, idx.size());
      std::size_t a = lo, b = mid, k = lo;
      while (a < mid && b < hi) {
        if (y[idx[b]] < y[idx[a]]) {
          swaps += static_cast<std::int64_t>(mid - a);  // idx[b] passes every left element left
          buf[k++] = idx[b++];
        } else {
          buf[k++] = idx[a++];
        }
      }
      while (a < mid) buf[k++] = idx[a++];
      while (b < hi) buf[k++] = idx[b++];
    }
    idx.swap(buf);
  }
  return swaps;
}

}  // namespace

std::vector<double> average_ranks(const std::vector<double>& v) {
  std::vector<std::size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return v[a] < v[b]; });
  std::vector<double> ranks(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i + 1;
    while (j < order.size() && v[order[j]] == v[order[i]]) ++j;
    const double mean_rank = 0.5 * static_cast<double>(i + 1 + j);  // ranks i+1 .. j
    for (std::size_t k = i; k < j; ++k) ranks[order[k]] = mean_rank;
    i = j;
  }
  return ranks;
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
  check_sizes(x, y);
  const std::size_t n = x.size();
  if (n < 2) return kNaN;
  const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n;
  const double my = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxy = 0, sxx = 0, syy = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = x[i] - mx, dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx == 0 || syy == 0) return kNaN;
  return std::clamp(sxy / std::sqrt(sxx * syy), -1.0, 1.0);
}

double spearman(const std::vector<double>& x, const std::vector<double>& y) {
  check_sizes(x, y);
  return pearson(average_ranks(x), average_ranks(y));
}

double kendall_tau_b(const std::vector<double>& x, const std::vector<double>& y) {
  check_sizes(x, y);
  const std::size_t n = x.size();
  if (n < 2) return kNaN;
  std::vector<std::size_t> idx(n);
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    return x[a] < x[b] || (x[a] == x[b] && y[a] < y[b]);
  });
  const std::int64_t n1 = tied_pairs(idx, x);
  // Pairs tied in both x and y: runs of equal (x, y) in this order.
  std::int64_t n3 = 0, run = 1;
  for (std::size_t i = 1; i <= n; ++i) {
    if (i < n && x[idx[i]] == x[idx[i - 1]] && y[idx[i]] == y[idx[i - 1]]) {
      ++run;
    } else {
      n3 += run * (run - 1) / 2;
      run = 1;
    }
  }
  // Within an x tie the order is by y, so every strict inversion left is a discordant pair.
  const std::int64_t discordant = sort_counting_inversions(idx, y);
  const std::int64_t n2 = tied_pairs(idx, y);
  const std::int64_t n0 = static_cast<std::int64_t>(n) * (static_cast<std::int64_t>(n) - 1) / 2;
  if (n0 == n1 || n0 == n2) return kNaN;
  const double numerator = static_cast<double>(n0 - n1 - n2 + n3 - 2 * discordant);
  return numerator / std::sqrt(static_cast<double>(n0 - n1) * static_cast<double>(n0 - n2));
}

double rmse(const std::vector<double>& a, const std::vector<double>& b) {
  check_sizes(a, b);
  if (a.empty()) return kNaN;
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(s / static_cast<double>(a.size()));
}

}  // namespace mad::datasets
