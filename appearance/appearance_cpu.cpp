// The CPU appearance stage (spec §4): spectra -> 20 subband magnitudes per image -> block
// statistics -> weighted differences -> crop RMS.
//
// Parallel plan: the (image, subband) pairs are independent tasks. A few workers (one per
// thread, each with its own scratch from the workspace) pull task numbers from a shared counter;
// every task writes only its own statistics planes. The maps are combined afterwards in the
// fixed §4.5 order on one thread, so the bits never depend on the thread count or schedule.
#include "appearance/appearance_cpu.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>
#include <utility>

#include "appearance/appearance_workspace_cpu.h"

#include "appearance/block_stats.h"
#include "appearance/stat_difference.h"
#include "appearance/subband_magnitude.h"
#include "common/error.h"
#include "common/parallel.h"
#include "common/workspace_cpu.h"

namespace mad::appearance {

AppearanceCpu::AppearanceCpu(int width, int height)
    : fft_(width, height), bank_(width, height), grid_(width, height) {}

void AppearanceCpu::check_shape(ImageView<const double> image) const {
  if (image.width != width() || image.height != height())
    throw InvalidArgument("appearance: image is " + std::to_string(image.width) + "x" +
                          std::to_string(image.height) + ", stage built for " +
                          std::to_string(width()) + "x" + std::to_string(height()));
}

std::vector<SubbandStats> AppearanceCpu::analyse(
    const std::vector<ImageView<const double>>& images) const {
  AppearanceWorkspaceCpu workspace;
  analyse(images, workspace);
  return std::move(workspace.stats);
}

void AppearanceCpu::analyse(const std::vector<ImageView<const double>>& images,
                            AppearanceWorkspaceCpu& ws) const {
  for (const auto& im : images) check_shape(im);
  const int n_images = static_cast<int>(images.size());
  const int tasks = n_images * kSubbands;
  const int workers = std::max(1, std::min(thread_count(), tasks));
  ws.prepare(width(), height(), n_images, workers);

  // §4.1: unshifted, unpadded spectra of the raw values.
  parallel_for(n_images, [&](int i) {
    fft_.forward_real(images[i], ws.spectra[i].data(), ws.fft[i]);
  });

  // Worker w uses only its own scratch and magnitude plane: parallel_for runs each index on
  // one thread.
  std::atomic<int> next{0};
  parallel_for(workers, [&](int w) {
    SubbandScratch& scratch = *ws.scratch[w];
    Image<double>& magnitude = ws.magnitude[w];
    for (int t = next++; t < tasks; t = next++) {
      const int image = t / kSubbands, k = t % kSubbands;
      subband_magnitude_cpu(fft_, bank_, k / kOrientations, k % kOrientations,
                            ws.spectra[image].data(), scratch, magnitude.view());
      SubbandStats& st = ws.stats[image];
      subband_block_stats_cpu(magnitude.cview(), grid_, st.std_plane(k), st.skew_plane(k),
                              st.kurt_plane(k));
    }
  });
}

SubbandStats AppearanceCpu::analyse(ImageView<const double> image) const {
  return std::move(analyse(std::vector<ImageView<const double>>{image}).front());
}

AppearanceResult AppearanceCpu::compare(const SubbandStats& ref, const SubbandStats& dst,
                                        bool want_map) const {
  AppearanceWorkspaceCpu workspace;
  return compare(ref, dst, want_map, workspace);
}

AppearanceResult AppearanceCpu::compare(const SubbandStats& ref, const SubbandStats& dst,
                                        bool want_map, AppearanceWorkspaceCpu& ws) const {
  fit_buffer(ws.eta, grid_.count());
  fit_image(ws.plane, width(), height());
  stat_difference_cpu(ref, dst, ws.eta.data());
  AppearanceResult result;
  result.d_appear = pool_appearance_cpu(ws.eta.data(), grid_, ws.plane.view());
  // The result takes the plane's memory (a moved-from Image keeps its shape, so the
  // workspace's is reset: the next pair of the shape allocates a new one).
  if (want_map) result.map = std::exchange(ws.plane, Image<double>());
  return result;
}

AppearanceResult AppearanceCpu::run(ImageView<const double> ref, ImageView<const double> dst,
                                    bool want_map) const {
  AppearanceWorkspaceCpu workspace;
  return run(ref, dst, want_map, workspace);
}

AppearanceResult AppearanceCpu::run(ImageView<const double> ref, ImageView<const double> dst,
                                    bool want_map, AppearanceWorkspaceCpu& ws) const {
  analyse({ref, dst}, ws);
  return compare(ws.stats[0], ws.stats[1], want_map, ws);
}

std::shared_ptr<const AppearanceCpu> appearance_cpu_for_shape(int width, int height) {
  // A dataset usually has one or two shapes; each entry holds 9 M*N doubles of filters.
  constexpr std::size_t kMaxShapes = 4;
  static std::mutex mutex;
  static std::vector<std::shared_ptr<const AppearanceCpu>> cache;  // most recent first
  auto find = [&]() -> std::shared_ptr<const AppearanceCpu> {
    for (std::size_t i = 0; i < cache.size(); ++i) {
      if (cache[i]->width() == width && cache[i]->height() == height) {
        std::rotate(cache.begin(), cache.begin() + i, cache.begin() + i + 1);
        return cache.front();
      }
    }
    return nullptr;
  };
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto hit = find()) return hit;
  }
  // Built outside the lock so other shapes are not held up; a racing builder of the same
  // shape just loses its copy.
  auto built = std::make_shared<const AppearanceCpu>(width, height);
  std::lock_guard<std::mutex> lock(mutex);
  if (auto hit = find()) return hit;
  cache.insert(cache.begin(), built);
  if (cache.size() > kMaxShapes) cache.pop_back();
  return built;
}

AppearanceResult appear_cpu(ImageView<const double> ref, ImageView<const double> dst,
                            bool want_map) {
  AppearanceWorkspaceCpu workspace;
  return appear_cpu(ref, dst, want_map, workspace);
}

AppearanceResult appear_cpu(ImageView<const double> ref, ImageView<const double> dst,
                            bool want_map, AppearanceWorkspaceCpu& workspace) {
  if (ref.width != dst.width || ref.height != dst.height)
    throw InputError("appearance: reference and distorted images differ in size");
  if (ref.width < kMinImageSide || ref.height < kMinImageSide)
    throw InputError("appearance: images must be at least 34x34 (the pooling crop is empty)");
  return appearance_cpu_for_shape(ref.width, ref.height)->run(ref, dst, want_map, workspace);
}

}  // namespace mad::appearance
