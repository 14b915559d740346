// The CPU appearance stage as an object bound to one image shape (STYLE.md rule 3): FFT plans
// and the log-Gabor bank are built once in the constructor and reused by every call. All
// members are const; their work space is either allocated by the call or the caller's kept
// AppearanceWorkspaceCpu (one per thread that calls), so one instance may serve several
// threads. appear_cpu (appearance.h) uses a small per-shape cache of these.
#pragma once

#include <memory>
#include <vector>

#include "appearance/appearance.h"
#include "appearance/log_gabor.h"
#include "appearance/subband_stats.h"
#include "common/block_grid.h"
#include "common/fft_cpu.h"

namespace mad::appearance {

class AppearanceWorkspaceCpu;

class AppearanceCpu {
 public:
  // Shapes below 16 in a dimension have no blocks; below 34, d_appear is NaN (see compare).
  AppearanceCpu(int width, int height);

  int width() const { return fft_.width(); }
  int height() const { return fft_.height(); }
  const BlockGrid& grid() const { return grid_; }
  const LogGaborBankCpu& bank() const { return bank_; }
  const CpuFft2d& fft() const { return fft_; }

  // Block statistics of all 20 subbands of each image (raw values 0..255, this shape, any
  // pitch). Work is spread over mad::parallel_for by (image, subband); every subband is
  // computed by one thread alone, so the result does not depend on the thread count.
  std::vector<SubbandStats> analyse(const std::vector<ImageView<const double>>& images) const;
  SubbandStats analyse(ImageView<const double> image) const;

  // d_appear and, if asked, map.LO from two images' statistics (§4.5, §4.6).
  AppearanceResult compare(const SubbandStats& ref, const SubbandStats& dst, bool want_map) const;

  // analyse both images (in one parallel pass) and compare them.
  AppearanceResult run(ImageView<const double> ref, ImageView<const double> dst,
                       bool want_map) const;

  // The same three in a workspace kept across pairs (appearance/appearance_workspace_cpu.h),
  // allocating nothing while the shape stays the same (bar a requested map, which the result
  // takes with it). analyse leaves image i's statistics in workspace.stats[i]. Same bits.
  void analyse(const std::vector<ImageView<const double>>& images,
               AppearanceWorkspaceCpu& workspace) const;
  AppearanceResult compare(const SubbandStats& ref, const SubbandStats& dst, bool want_map,
                           AppearanceWorkspaceCpu& workspace) const;
  AppearanceResult run(ImageView<const double> ref, ImageView<const double> dst, bool want_map,
                       AppearanceWorkspaceCpu& workspace) const;

 private:
  void check_shape(ImageView<const double> image) const;

  CpuFft2d fft_;
  LogGaborBankCpu bank_;
  BlockGrid grid_;
};

// The shared instance for a shape, built on first use; the cache keeps the few most recently
// used shapes. Thread-safe.
std::shared_ptr<const AppearanceCpu> appearance_cpu_for_shape(int width, int height);

}  // namespace mad::appearance
