// The two GPU stages with lent scratch (common/stage_scratch.h), sharing one transient region
// and one cuFFT work area the way mad/backends/pair_slot_cuda.h lends them, against stages that own
// their scratch: the same bits, also when the reference side is reused for a second distorted
// image after the other stage has overwritten the shared region. Skips without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "appearance/appearance_stage_cuda.h"
#include "common/error.h"
#include "detection/detection_stage_cuda.h"
#include "tests/support/cuda_test_util.h"
#include "tests/support/test_support.h"

namespace mad {
namespace {

// The default rows, as the pair slot is given them.
const appearance::A5Row& default_a5_row() { return appearance::a5_variants().default_row(); }
const detection::BlockStatsRow& default_det_row() {
  return detection::detection_stats_variants().default_row();
}

template <class Real>
struct Outputs {
  std::vector<double> sums;  // [hi 1, lo 1, hi 2, lo 2]
  std::vector<Real> maps;    // map.HI 1 | map.LO 1 | map.HI 2 | map.LO 2
};

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// One reference, two distorted images, in the order PairSlot::submit issues the calls.
template <class Real>
Outputs<Real> run_pairs(detection::DetectionStageCuda<Real>& det,
                        appearance::AppearanceStageCuda<Real>& app, int width, int height,
                        cudaStream_t s) {
  const std::size_t n = static_cast<std::size_t>(width) * height;
  const auto ref = test::upload<Real>(test::random_image(width, height, 31).cview(), s);
  const auto dst1 = test::upload<Real>(test::random_image(width, height, 32).cview(), s);
  const auto dst2 = test::upload<Real>(test::random_image(width, height, 33).cview(), s);
  cuda::DeviceBuffer<double> sums(4);
  cuda::DeviceBuffer<Real> maps(4 * n);
  det.prepare_reference(ref.get(), true, s);
  app.prepare_reference(ref.get(), s);
  det.run_distorted(ref.get(), dst1.get(), true, sums.get(), maps.get(), s);
  app.run_distorted(dst1.get(), sums.get() + 1, maps.get() + n, s);
  det.run_distorted(ref.get(), dst2.get(), true, sums.get() + 2, maps.get() + 2 * n, s);
  app.run_distorted(dst2.get(), sums.get() + 3, maps.get() + 3 * n, s);
  return {test::download(sums.get(), 4, s), test::download(maps.get(), 4 * n, s)};
}

template <class Real>
void check_shared_scratch(int width, int height) {
  SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) +
               (sizeof(Real) == 8 ? " double" : " float"));
  cuda::Stream stream;
  const cudaStream_t s = stream.get();
  detection::DetectionStageCuda<Real> det_own(width, height, s);
  appearance::AppearanceStageCuda<Real> app_own(width, height, s);
  const Outputs<Real> want = run_pairs(det_own, app_own, width, height, s);

  detection::DetectionStageCuda<Real> det(width, height, s, default_det_row(), ScratchMode::Lent);
  appearance::AppearanceStageCuda<Real> app(app_own.bank(), default_a5_row(), ScratchMode::Lent);
  EXPECT_EQ(app.device_memory().subbands, 0u);  // lent, not owned
  cuda::DeviceBuffer<unsigned char> scratch(std::max(det.transient_bytes(), app.transient_bytes()));
  cuda::DeviceBuffer<unsigned char> work(
      std::max({det.fft_work_bytes(), app.fft_work_bytes(), cuda::StageScratch::kMinWork}));
  // Garbage in the shared region: nothing may depend on what a previous user left there.
  MAD_CUDA_CHECK(cudaMemsetAsync(scratch.get(), 0xFF, scratch.bytes(), s));
  det.lend_scratch(scratch.get(), work.get());
  app.lend_scratch(scratch.get(), work.get());
  const Outputs<Real> got = run_pairs(det, app, width, height, s);
  EXPECT_TRUE(same_bits(got.sums, want.sums));
  EXPECT_TRUE(same_bits(got.maps, want.maps));
}

TEST(StageScratchCuda, LentScratchSharedByBothStagesGivesTheSameBits) {
  MAD_REQUIRE_GPU();
  for (auto [w, h] : {std::pair{34, 34}, std::pair{61, 47}, std::pair{512, 384}}) {
    check_shared_scratch<double>(w, h);
    check_shared_scratch<float>(w, h);
  }
}

// What the slot lends, by stage: detection's transient planes fit in the appearance stage's
// region (so sharing it costs nothing extra), and the cuFFT work areas.
TEST(StageScratchCuda, DetectionFitsInTheAppearanceRegion) {
  MAD_REQUIRE_GPU();
  cuda::Stream stream;
  const cudaStream_t s = stream.get();
  auto report = [&](auto real, int w, int h) {
    using Real = decltype(real);
    detection::DetectionStageCuda<Real> det(w, h, s, default_det_row(), ScratchMode::Lent);
    const appearance::AppearanceStageCuda<Real> app(
        std::make_shared<const appearance::LogGaborBankCuda<Real>>(w, h, s), default_a5_row(),
        ScratchMode::Lent);
    std::cout << "[ memory   ] " << w << "x" << h << (sizeof(Real) == 8 ? " double" : " float")
              << ": transient detection " << det.transient_bytes() << " B, appearance "
              << app.transient_bytes() << " B; cuFFT work detection " << det.fft_work_bytes()
              << " B, appearance " << app.fft_work_bytes() << " B\n";
    EXPECT_LE(det.transient_bytes(), app.transient_bytes()) << w << "x" << h;
  };
  for (auto [w, h] : {std::pair{34, 34}, std::pair{512, 384}, std::pair{512, 512},
                      std::pair{1031, 769}, std::pair{1920, 1080}, std::pair{2048, 1536}}) {
    report(double{}, w, h);
    report(float{}, w, h);
  }
}

TEST(StageScratchCuda, RefusesMisuse) {
  MAD_REQUIRE_GPU();
  cuda::Stream stream;
  const cudaStream_t s = stream.get();
  cuda::DeviceBuffer<double> img(64 * 64), sum(1);
  cuda::DeviceBuffer<unsigned char> region(1 << 20);
  // Lent stages refuse to run before they are lent their scratch, and a null region.
  detection::DetectionStageCuda<double> det(64, 64, s, default_det_row(), ScratchMode::Lent);
  EXPECT_THROW(det.prepare_reference(img.get(), true, s), InvalidArgument);
  EXPECT_THROW(det.lend_scratch(nullptr, region.get()), InvalidArgument);
  appearance::AppearanceStageCuda<double> owner(64, 64, s);
  appearance::AppearanceStageCuda<double> app(owner.bank(), default_a5_row(), ScratchMode::Lent);
  EXPECT_THROW(app.prepare_reference(img.get(), s), InvalidArgument);
  EXPECT_THROW(app.lend_scratch(region.get(), nullptr), InvalidArgument);
  // Stages that own their scratch take no other.
  detection::DetectionStageCuda<double> det_own(64, 64, s);
  EXPECT_THROW(det_own.lend_scratch(region.get(), region.get()), InvalidArgument);
  EXPECT_THROW(owner.lend_scratch(region.get(), region.get()), InvalidArgument);
}

}  // namespace
}  // namespace mad
