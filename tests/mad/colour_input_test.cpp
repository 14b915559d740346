// 8-bit colour images that reach the scorer as their RGB(A) samples (SourceImage::colour, issue
// 12 goal 4): on the GPU the gray kernel converts them on the device, on the CPU the host does;
// and 8-bit gray images that reach it as their uint8 plane alone (SourceImage::gray8_only, issue
// 26), widened on the device or, on the CPU, on the host. Either way the score must be
// bit-identical to scoring the host-converted gray image, including when the GPU reuses a
// reference and when a reference changes form between pairs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "common/image_io.h"
#include "mad/batch_scorer.h"
#ifdef MAD_HAVE_CUDA
#include "mad/engine/pinned_copies.h"
#endif
#include "mad/score.h"
#include "tests/support/test_support.h"
#include "tools/bench/bench_images.h"

namespace mad {
namespace {

// A colour image whose channels differ (so the weighting matters) built around a bench image's
// gray plane; `channels` 3 or 4 (the alpha samples are random: they must be ignored).
SourceImage colour_image(const GrayImage& base, int channels, std::uint32_t seed) {
  std::mt19937 rng(seed);
  SourceImage s;
  s.gray.bit_depth = 8;
  s.gray.source_channels = channels;
  if (channels == 4) s.gray.notes.push_back("alpha channel ignored");
  s.colour.width = base.pixels.width();
  s.colour.height = base.pixels.height();
  s.colour.channels = channels;
  for (int y = 0; y < s.colour.height; ++y)
    for (int x = 0; x < s.colour.width; ++x) {
      const int g = static_cast<int>(base.pixels(y, x));
      const int jitter = static_cast<int>(rng() % 41) - 20;
      s.colour.samples.push_back(static_cast<std::uint8_t>(std::clamp(g + jitter, 0, 255)));
      s.colour.samples.push_back(static_cast<std::uint8_t>(g));
      s.colour.samples.push_back(static_cast<std::uint8_t>(255 - g / 2));
      if (channels == 4) s.colour.samples.push_back(static_cast<std::uint8_t>(rng()));
    }
  return s;
}

ScoreOptions options(Backend backend, Precision precision) {
  ScoreOptions o;
  o.backend = backend;
  o.precision = precision;
  return o;
}

void expect_same_bits(const ScoreResult& got, const ScoreResult& want, const std::string& what) {
  EXPECT_TRUE(test::same_bits(got.mad, want.mad)) << what << ": " << got.mad << " vs " << want.mad;
  EXPECT_TRUE(test::same_bits(got.hi, want.hi)) << what;
  EXPECT_TRUE(test::same_bits(got.lo, want.lo)) << what;
}

// The files of the SourceImage test: 8-bit PNGs of 1 to 4 channels, an 8-bit gray TIFF and PGM
// where this build reads them, and a 16-bit gray PNG; all 37x41.
std::vector<std::string> source_image_files(const std::filesystem::path& dir) {
  std::vector<std::string> paths;
  for (int channels : {1, 2, 3, 4}) {
    paths.push_back((dir / ("c" + std::to_string(channels) + ".png")).string());
    test::write_random_png(paths.back(), 37, 41, 7u + channels, channels);
  }
  const RawImage8 gray = load_raw_image8(paths[0]);
  if (tiff_supported()) {
    paths.push_back((dir / "g.tif").string());
    save_tiff8(paths.back(), gray);
  }
  const std::vector<std::string> formats = supported_formats();
  if (std::find(formats.begin(), formats.end(), "pnm") != formats.end()) {
    paths.push_back((dir / "g.pgm").string());
    std::ofstream pgm(paths.back(), std::ios::binary);
    pgm << "P5\n37 41\n255\n";
    pgm.write(reinterpret_cast<const char*>(gray.samples.data()),
              static_cast<std::streamsize>(gray.samples.size()));
  }
  paths.push_back((dir / "g16.png").string());
  save_png16_scaled(paths.back(), test::random_image(37, 41, 9u).cview());
  return paths;
}

// A file decoded for a GPU worker (keep_8bit) keeps its 8-bit samples: colour ones in `colour`,
// gray ones (alpha dropped) as the uint8 plane alone, with no double plane; a 16-bit file gets
// its double plane. Decoded for a CPU worker, every file is load_gray_image's gray image. Either
// way gray_of gives back exactly what load_gray_image makes of the file (planes, bit depth,
// channels, notes).
TEST(SourceImage, KeepsEightBitSamplesAndConvertsLikeTheGrayLoader) {
  const auto dir = test::fresh_scratch_dir("source_image");
  for (const std::string& path : source_image_files(dir)) {
    SCOPED_TRACE(path);
    const SourceImage kept = load_source_image(path, true);
    const SourceImage converted = load_source_image(path, false);
    const GrayImage gray = load_gray_image(path);
    const bool eight_bit = gray.bit_depth == 8, colour = gray.source_channels >= 3;
    EXPECT_EQ(kept.has_colour(), eight_bit && colour);
    EXPECT_EQ(kept.gray8_only(), eight_bit && !colour);
    if (kept.gray8_only()) {
      EXPECT_TRUE(kept.gray.pixels.empty());
      EXPECT_EQ(kept.gray.gray8, gray.gray8);
      EXPECT_EQ(kept.gray.notes, gray.notes);
    }
    if (!eight_bit) EXPECT_EQ(test::max_abs_diff(kept.gray.pixels.cview(), gray.pixels.cview()), 0.0);
    EXPECT_FALSE(converted.has_colour() || converted.gray8_only());
    EXPECT_EQ(test::max_abs_diff(converted.gray.pixels.cview(), gray.pixels.cview()), 0.0);
    EXPECT_EQ(converted.gray.gray8, gray.gray8);
    for (const SourceImage* s : {&kept, &converted}) {
      EXPECT_EQ(s->width(), 37);
      EXPECT_EQ(s->height(), 41);
      EXPECT_EQ(s->bit_depth(), gray.bit_depth);
      const GrayImage g = gray_of(*s);
      EXPECT_EQ(g.gray8, gray.gray8);
      EXPECT_EQ(g.bit_depth, gray.bit_depth);
      EXPECT_EQ(g.source_channels, gray.source_channels);
      EXPECT_EQ(g.notes, gray.notes);
      EXPECT_EQ(test::max_abs_diff(g.pixels.cview(), gray.pixels.cview()), 0.0);
    }
  }
}

// The uint8 plane alone of an 8-bit gray image, as load_source_image keeps it for a GPU worker.
SourceImage gray8_only(const GrayImage& gray) {
  SourceImage s;
  s.gray = gray;
  s.gray.pixels = Image<double>();
  s.gray8_width = gray.pixels.width();
  s.gray8_height = gray.pixels.height();
  return s;
}

// The pairs of the batch tests: (reference, distorted) indices into the images below, with a
// reference repeated (reused on the GPU), changing form (colour -> gray -> colour with alpha ->
// uint8 plane alone) and changing content.
struct Plan {
  int ref, dst;
};
const std::vector<Plan> kPlan = {{0, 1}, {0, 2}, {3, 2}, {0, 1}, {4, 1}, {4, 2},
                                 {5, 1}, {0, 5}, {6, 7}, {6, 1}, {3, 7}, {7, 6}};

// `attach` (optional) is applied to images 1, 4 and 5 (page-locked copies on the GPU: then
// distorted images 1 and 5 travel from their copies, 2 from the staging, in one batch).
void check_batch(Backend backend, Precision precision, int width, int height,
                 const std::function<void(SourceImage&)>& attach = {}) {
  const bench::BenchPair a = bench::make_bench_pair(width, height, 11u);
  const bench::BenchPair b = bench::make_bench_pair(width, height, 12u);
  // 0, 1, 2: colour; 3: the gray form of 0 (same gray pixels); 4: RGBA; 5: colour of b's ref;
  // 6: 3's uint8 plane alone; 7: a.dst's uint8 plane alone.
  std::vector<std::shared_ptr<SourceImage>> made;
  made.push_back(std::make_shared<SourceImage>(colour_image(a.ref, 3, 1u)));
  made.push_back(std::make_shared<SourceImage>(colour_image(a.dst, 3, 2u)));
  made.push_back(std::make_shared<SourceImage>(colour_image(b.dst, 3, 3u)));
  auto gray0 = std::make_shared<SourceImage>();
  gray0->gray = gray_of(*made[0]);
  made.push_back(gray0);
  made.push_back(std::make_shared<SourceImage>(colour_image(a.ref, 4, 4u)));
  made.push_back(std::make_shared<SourceImage>(colour_image(b.ref, 3, 5u)));
  made.push_back(std::make_shared<SourceImage>(gray8_only(gray0->gray)));
  made.push_back(std::make_shared<SourceImage>(gray8_only(a.dst)));
  if (attach)
    for (int i : {1, 4, 5}) attach(*made[i]);
  const std::vector<std::shared_ptr<const SourceImage>> images(made.begin(), made.end());

  // Expected: the host-converted gray images through the CPU scorer... or, on the GPU, through
  // the same backend and precision one pair at a time (the conversion is what is tested).
  Scorer single(options(backend, precision));
  BatchScorer batch(options(backend, precision), ResolvedBackend(backend));
  std::vector<BatchScorer::Finished> done;
  for (std::size_t t = 0; t < kPlan.size(); ++t)
    for (auto& f : batch.submit(t, images[kPlan[t].ref], images[kPlan[t].dst]))
      done.push_back(std::move(f));
  for (auto& f : batch.drain()) done.push_back(std::move(f));
  ASSERT_EQ(done.size(), kPlan.size());
  for (std::size_t t = 0; t < done.size(); ++t) {
    ASSERT_EQ(done[t].tag, t);
    ASSERT_TRUE(done[t].ok) << done[t].error;
    const ScoreResult want =
        single.score(gray_of(*images[kPlan[t].ref]), gray_of(*images[kPlan[t].dst]));
    expect_same_bits(done[t].result, want,
                     "pair " + std::to_string(t) + " at " + std::to_string(width) + "x" +
                         std::to_string(height));
  }
  if (backend == Backend::Cuda) EXPECT_GT(batch.reference_reuses(), 0u);
}

TEST(ColourInput, CpuBatchScoresTheHostConversion) {
  check_batch(Backend::Cpu, Precision::Double, 41, 37);
}

class ColourInputCuda : public ::testing::TestWithParam<Precision> {};

// The 34x34 minimum, odd and prime sides, a non-square shape and a 16-byte-aligned row.
TEST_P(ColourInputCuda, DeviceConversionIsBitIdenticalToTheHost) {
  MAD_REQUIRE_GPU();
  for (const auto& s : std::vector<std::pair<int, int>>{{34, 34}, {61, 37}, {131, 97}, {256, 96}})
    check_batch(Backend::Cuda, GetParam(), s.first, s.second);
}

#ifdef MAD_HAVE_CUDA
// Distorted images with page-locked copies (mad/engine/pinned_copies.h: the GPU engine's decoders
// attach them) travel to the device from those copies, mixed with staged ones in one batch.
TEST_P(ColourInputCuda, PageLockedCopiesScoreAsStagedImages) {
  MAD_REQUIRE_GPU();
  PinnedCopies copies(std::size_t{1} << 26);
  for (const auto& s : std::vector<std::pair<int, int>>{{34, 34}, {61, 37}})
    check_batch(Backend::Cuda, GetParam(), s.first, s.second,
                [&](SourceImage& image) { copies.attach(image); });
  EXPECT_GT(copies.allocated_bytes(), 0u);
}

// The copy is what travels, not the samples: a copy overwritten with another image's samples
// scores as that image.
TEST_P(ColourInputCuda, ThePageLockedCopyIsWhatTheDeviceReads) {
  MAD_REQUIRE_GPU();
  const bench::BenchPair a = bench::make_bench_pair(61, 37, 21u);
  const bench::BenchPair b = bench::make_bench_pair(61, 37, 22u);
  PinnedCopies copies(std::size_t{1} << 26);
  auto ref = std::make_shared<SourceImage>(colour_image(a.ref, 3, 1u));
  auto dst = std::make_shared<SourceImage>(colour_image(a.dst, 3, 2u));
  const SourceImage other = colour_image(b.dst, 3, 3u);
  copies.attach(*dst);
  ASSERT_NE(dst->pinned_colour, nullptr);
  EXPECT_EQ(copies.allocated_bytes(), dst->colour.samples.size());
  std::memcpy(const_cast<std::uint8_t*>(dst->pinned_colour.get()), other.colour.samples.data(),
              other.colour.samples.size());
  BatchScorer batch(options(Backend::Cuda, GetParam()), ResolvedBackend(Backend::Cuda));
  std::vector<BatchScorer::Finished> done = batch.submit(0, ref, dst);
  for (auto& f : batch.drain()) done.push_back(std::move(f));
  ASSERT_EQ(done.size(), 1u);
  ASSERT_TRUE(done[0].ok) << done[0].error;
  Scorer single(options(Backend::Cuda, GetParam()));
  expect_same_bits(done[0].result, single.score(gray_of(*ref), gray_of(other)), "altered copy");
}
#endif

INSTANTIATE_TEST_SUITE_P(BothPrecisions, ColourInputCuda,
                         ::testing::Values(Precision::Double, Precision::Float),
                         [](const auto& info) { return to_string(info.param); });

}  // namespace
}  // namespace mad
