#include "detection/local_mse.h"

#include <algorithm>
#include <vector>

#include "common/error.h"
#include "common/parallel.h"
#include "common/workspace_cpu.h"

namespace mad::detection {
namespace {

constexpr int kLmseAfter = kLmseWindow - 1 - kLmseBefore;  // +8
// A running sum is restarted from a direct 16-term sum every this many outputs, so non-integer
// input (the 2011 rule for >8-bit files) cannot accumulate drift along a long line.
constexpr int kReanchorPeriod = 32;
constexpr int kColumnChunk = 64;  // columns per task of the vertical pass

}  // namespace

int symmetric_index(int i, int n) {
  const int period = 2 * n;
  int m = i % period;
  if (m < 0) m += period;
  return m < n ? m : period - 1 - m;
}

void local_mse_cpu(ImageView<const double> ref, ImageView<const double> dst,
                   ImageView<double> out) {
  Image<double> row_sums;
  local_mse_cpu(ref, dst, out, row_sums);
}

void local_mse_cpu(ImageView<const double> ref, ImageView<const double> dst, ImageView<double> out,
                   Image<double>& row_sums) {
  const int w = ref.width, h = ref.height;
  if (dst.width != w || dst.height != h || out.width != w || out.height != h)
    throw InvalidArgument("local_mse_cpu: shapes differ");
  if (w == 0 || h == 0) return;

  // Mirrored column indices of the padded line: padded position t reads column col[t].
  std::vector<int> col(static_cast<std::size_t>(w) + kLmseWindow - 1);
  for (int t = 0; t < static_cast<int>(col.size()); ++t)
    col[t] = symmetric_index(t - kLmseBefore, w);

  // Horizontal pass: hsum(y,x) = Σ_j Δ²(y, x+j), j = -7..8.
  fit_image(row_sums, w, h);
  Image<double>& hsum = row_sums;
  parallel_for(h, [&](int y) {
    const double* r = ref.row(y);
    const double* d = dst.row(y);
    std::vector<double> sq(w);
    for (int x = 0; x < w; ++x) sq[x] = (r[x] - d[x]) * (r[x] - d[x]);
    double* o = hsum.row(y);
    double acc = 0.0;
    for (int x = 0; x < w; ++x) {
      if (x % kReanchorPeriod == 0) {
        acc = 0.0;
        for (int t = x; t < x + kLmseWindow; ++t) acc += sq[col[t]];
      } else {
        acc += sq[col[x + kLmseWindow - 1]] - sq[col[x - 1]];
      }
      o[x] = acc;
    }
  });

  // Vertical pass over column chunks, a running row of sums per chunk.
  const int chunks = (w + kColumnChunk - 1) / kColumnChunk;
  parallel_for(chunks, [&](int c) {
    const int x0 = c * kColumnChunk, x1 = std::min(w, x0 + kColumnChunk);
    std::vector<double> acc(x1 - x0);
    for (int y = 0; y < h; ++y) {
      if (y % kReanchorPeriod == 0) {
        std::fill(acc.begin(), acc.end(), 0.0);
        for (int i = -kLmseBefore; i <= kLmseAfter; ++i) {
          const double* s = hsum.row(symmetric_index(y + i, h));
          for (int x = x0; x < x1; ++x) acc[x - x0] += s[x];
        }
      } else {
        const double* add = hsum.row(symmetric_index(y + kLmseAfter, h));
        const double* sub = hsum.row(symmetric_index(y - kLmseBefore - 1, h));
        for (int x = x0; x < x1; ++x) acc[x - x0] += add[x] - sub[x];
      }
      double* o = out.row(y);
      for (int x = x0; x < x1; ++x) o[x] = acc[x - x0] / (kLmseWindow * kLmseWindow);
    }
  });
}

}  // namespace mad::detection
