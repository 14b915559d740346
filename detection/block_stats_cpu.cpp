#include "detection/block_stats.h"

#include <algorithm>
#include <cmath>

#include "common/error.h"
#include "common/parallel.h"
#include "common/workspace_cpu.h"

namespace mad::detection {
namespace {

// Direct two-pass statistics (mean first, then squared deviations) of a window whose side is a
// multiple of 4, well conditioned for the small contrasts the mask compares. Four interleaved
// partial sums break the add latency chain; the order is fixed, so results are deterministic.
double window_mean(ImageView<const double> img, int y0, int x0, int side) {
  double acc[4] = {0.0, 0.0, 0.0, 0.0};
  for (int y = y0; y < y0 + side; ++y) {
    const double* r = img.row(y) + x0;
    for (int x = 0; x < side; x += 4)
      for (int k = 0; k < 4; ++k) acc[k] += r[x + k];
  }
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) / (side * side);
}

double window_unbiased_std(ImageView<const double> img, int y0, int x0, int side, double mean) {
  double acc[4] = {0.0, 0.0, 0.0, 0.0};
  for (int y = y0; y < y0 + side; ++y) {
    const double* r = img.row(y) + x0;
    for (int x = 0; x < side; x += 4)
      for (int k = 0; k < 4; ++k) {
        const double d = r[x + k] - mean;
        acc[k] += d * d;
      }
  }
  return std::sqrt(((acc[0] + acc[1]) + (acc[2] + acc[3])) / (side * side - 1));
}

static_assert(kBlockSize % 4 == 0 && kMinStdWindow % 4 == 0, "windows are summed 4 wide");

}  // namespace

void error_image_cpu(ImageView<const double> csf_ref, ImageView<const double> csf_dst,
                     ImageView<double> error) {
  if (csf_ref.width != csf_dst.width || csf_ref.height != csf_dst.height ||
      error.width != csf_ref.width || error.height != csf_ref.height)
    throw InvalidArgument("error_image_cpu: shapes differ");
  parallel_for(error.height, [&](int y) {
    const double* r = csf_ref.row(y);
    const double* d = csf_dst.row(y);
    double* e = error.row(y);
    for (int x = 0; x < error.width; ++x) e[x] = d[x] - r[x];
  });
}

std::vector<double> window8_std_cpu(ImageView<const double> image, const BlockGrid& grid) {
  std::vector<double> s8;
  window8_std_cpu(image, grid, s8);
  return s8;
}

void window8_std_cpu(ImageView<const double> image, const BlockGrid& grid,
                     std::vector<double>& s8) {
  fit_buffer(s8, grid.count());
  parallel_for(grid.rows, [&](int i) {
    for (int j = 0; j < grid.cols; ++j) {
      const int y0 = i * kBlockStride, x0 = j * kBlockStride;
      const double m = window_mean(image, y0, x0, kMinStdWindow);
      s8[static_cast<std::size_t>(i) * grid.cols + j] =
          window_unbiased_std(image, y0, x0, kMinStdWindow, m);
    }
  });
}

double min_std_of_block(const std::vector<double>& s8, const BlockGrid& grid, int i, int j) {
  // Candidates at offsets {0,4}x{0,4}: they cover only the top-left 12x12 of the block.
  const bool down = min_std_next_available(i * kBlockStride, grid.image_height);
  const bool right = min_std_next_available(j * kBlockStride, grid.image_width);
  auto at = [&](int r, int c) { return s8[static_cast<std::size_t>(r) * grid.cols + c]; };
  double m = at(i, j);
  if (down) m = std::min(m, at(i + 1, j));
  if (right) m = std::min(m, at(i, j + 1));
  if (down && right) m = std::min(m, at(i + 1, j + 1));
  return m;
}

DetectionBlockStats detection_block_stats_cpu(ImageView<const double> csf_ref,
                                              ImageView<const double> error) {
  DetectionBlockStats st;
  std::vector<double> s8;
  detection_block_stats_cpu(csf_ref, error, st, s8);
  return st;
}

void detection_block_stats_cpu(ImageView<const double> csf_ref, ImageView<const double> error,
                               DetectionBlockStats& st, std::vector<double>& s8) {
  if (csf_ref.width != error.width || csf_ref.height != error.height)
    throw InvalidArgument("detection_block_stats_cpu: shapes differ");
  st.grid = BlockGrid(csf_ref.width, csf_ref.height);
  const BlockGrid& g = st.grid;
  // Every block's three values are written below: no fill needed on reuse.
  fit_buffer(st.mean_ref, g.count());
  fit_buffer(st.std_err, g.count());
  fit_buffer(st.std_min_ref, g.count());
  window8_std_cpu(csf_ref, g, s8);
  parallel_for(g.rows, [&](int i) {
    for (int j = 0; j < g.cols; ++j) {
      const std::size_t b = static_cast<std::size_t>(i) * g.cols + j;
      const int y0 = i * kBlockStride, x0 = j * kBlockStride;
      st.mean_ref[b] = window_mean(csf_ref, y0, x0, kBlockSize);
      const double err_mean = window_mean(error, y0, x0, kBlockSize);
      st.std_err[b] = window_unbiased_std(error, y0, x0, kBlockSize, err_mean);
      st.std_min_ref[b] = min_std_of_block(s8, g, i, j);
    }
  });
}

}  // namespace mad::detection
