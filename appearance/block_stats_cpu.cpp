// Block statistics (spec §4.4), the hot spot of the CPU path: 256 samples x 16 overlapping
// blocks per pixel, 40 subband images per pair.
//
// Strategy: every sum is kept in independent SIMD lanes and the lanes are added at the end in
// one fixed tree, so nothing is reassociated behind our back (no -ffast-math): the SSE2 and
// AVX2 clones give the same bits.
// - Pass 1 (the mean): lane j of a block is the sum of its column j, top to bottom. That is
//   exactly the column sum of image column 4*bc + j over the block row's 16 rows, so the
//   column sums are computed once per block row and shared by its blocks without changing a
//   bit.
// - Pass 2 (the central moments about that mean) is direct, 256 samples per block: every block
//   has its own mean, and the spec (§11) rules out raw-moment or integral-image shortcuts,
//   which lose the 3rd and 4th moments to cancellation.
#include "appearance/block_stats.h"
#include "appearance/simd_dispatch.h"

#include <cmath>
#include <cstring>
#include <vector>

#include "common/error.h"

namespace mad::appearance {
namespace {

constexpr int kLanes = kBlockSize;
constexpr double kSamples = kBlockSize * kBlockSize;  // 256

// Fixed pairwise sum of 16 lanes: ((l0+l8)+(l4+l12)) + ... the same on every code path.
inline double reduce_lanes(double* v) {
  for (int w = kLanes / 2; w >= 1; w /= 2)
    for (int j = 0; j < w; ++j) v[j] += v[j + w];
  return v[0];
}

// Central moment sums S2, S3, S4 of the block whose rows start at rows[0..15] (already offset
// to the block's first column), about the mean m.
struct Moments {
  double s2, s3, s4;
};

// Pass 2 runs on eight lanes held in GCC/Clang vector types (two 4-double vectors per sum):
// lane j takes columns j and j + 8 of every row, in that order. Written out this way the
// compiler keeps the six accumulators in registers (SSE2: 12 xmm, AVX2: 6 ymm); left to the
// auto-vectoriser, the 16-lane loop spilled and half of it came out scalar. Vector arithmetic
// is element-wise IEEE, so every lane rounds exactly as scalar code would.
typedef double v4d __attribute__((vector_size(4 * sizeof(double))));

// Lanes (a0..a3, b0..b3) summed as ((a0+b0)+(a2+b2)) + ((a1+b1)+(a3+b3)).
inline double reduce8(const v4d& a, const v4d& b) {
  const v4d t = a + b;
  return (t[0] + t[2]) + (t[1] + t[3]);
}

inline Moments central_moments(const double* const* rows, double m) {
  const v4d mv = {m, m, m, m};
  v4d s2a = {}, s2b = {}, s3a = {}, s3b = {}, s4a = {}, s4b = {};
  for (int i = 0; i < kBlockSize; ++i) {
    for (int half = 0; half < 2; ++half) {
      const double* r = rows[i] + half * 8;
      v4d da, db;
      std::memcpy(&da, r, sizeof da);  // unaligned loads
      std::memcpy(&db, r + 4, sizeof db);
      da -= mv;
      db -= mv;
      const v4d da2 = da * da, db2 = db * db;
      s2a += da2;
      s2b += db2;
      s3a += da2 * da;
      s3b += db2 * db;
      s4a += da2 * da2;
      s4b += db2 * db2;
    }
  }
  return {reduce8(s2a, s2b), reduce8(s3a, s3b), reduce8(s4a, s4b)};
}

// One block row: 16 image rows starting at `rows`, column sums in `colsum` (image width).
// Cloned for AVX2 with runtime dispatch: the build targets baseline x86-64 (SSE2), and the
// 4-wide form is about twice as fast. No FMA in either clone, so both round identically.
MAD_CLONE_AVX2
void block_row_stats(const double* const* rows, int width, int block_cols, double* colsum,
                     double* std_out, double* skew_out, double* kurt_out) {
  for (int x = 0; x < width; ++x) colsum[x] = rows[0][x];
  for (int i = 1; i < kBlockSize; ++i) {
    const double* r = rows[i];
    for (int x = 0; x < width; ++x) colsum[x] += r[x];
  }
  const double* block_rows[kBlockSize];
  for (int bc = 0; bc < block_cols; ++bc) {
    const int x0 = bc * kBlockStride;
    double lanes[kLanes];
    for (int j = 0; j < kLanes; ++j) lanes[j] = colsum[x0 + j];
    const double m = reduce_lanes(lanes) / kSamples;

    for (int i = 0; i < kBlockSize; ++i) block_rows[i] = rows[i] + x0;
    const Moments mo = central_moments(block_rows, m);

    std_out[bc] = std::sqrt(mo.s2 / (kSamples - 1));
    const double sigma_b = std::sqrt(mo.s2 / kSamples);
    if (sigma_b != 0.0) {
      const double sigma2 = sigma_b * sigma_b;
      skew_out[bc] = (mo.s3 / kSamples) / (sigma2 * sigma_b);
      kurt_out[bc] = (mo.s4 / kSamples) / (sigma2 * sigma2);
    } else {
      // A constant block: 0/0 in the formulas; the original reports 0 for both.
      skew_out[bc] = 0.0;
      kurt_out[bc] = 0.0;
    }
  }
}

}  // namespace

void subband_block_stats_cpu(ImageView<const double> a, const BlockGrid& grid, double* std,
                             double* skew, double* kurt) {
  if (a.width != grid.image_width || a.height != grid.image_height)
    throw InvalidArgument("subband_block_stats_cpu: image and grid shapes differ");
  if (grid.count() == 0) return;
  std::vector<double> colsum(static_cast<std::size_t>(a.width));
  const double* rows[kBlockSize];
  for (int br = 0; br < grid.rows; ++br) {
    for (int i = 0; i < kBlockSize; ++i) rows[i] = a.row(br * kBlockStride + i);
    const std::size_t off = static_cast<std::size_t>(br) * grid.cols;
    block_row_stats(rows, a.width, grid.cols, colsum.data(), std + off, skew + off, kurt + off);
  }
}

}  // namespace mad::appearance
