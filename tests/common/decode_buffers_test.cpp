// The buffers a decoding thread keeps between files (io_detail::thread_file_buffer,
// take_sample_buffer, recycle_samples): a decode into a kept or given-back buffer gives the
// bytes of a decode into fresh memory, whatever the buffer held before, for files larger and
// smaller than the last; and a given-back buffer really is written into (no copy beside it).
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/image_io.h"
#include "tests/common/image_io_test_util.h"
#include "tests/support/test_support.h"

namespace mad {
namespace {

using test::io::TempDir;

RawImage8 random_rgb(int width, int height, unsigned seed) {
  RawImage8 image;
  image.width = width;
  image.height = height;
  image.channels = 3;
  const std::vector<std::uint16_t> values =
      test::io::random_samples(static_cast<std::size_t>(width) * height * 3, 255, seed);
  image.samples.assign(values.begin(), values.end());
  return image;
}

// Runs fn on a thread of its own: its kept buffers start empty and die with it.
template <class Fn>
void on_fresh_thread(Fn fn) {
  std::thread t(fn);
  t.join();
}

std::vector<std::uint8_t> fresh_decode(const std::string& path) {
  std::vector<std::uint8_t> samples;
  on_fresh_thread([&] { samples = load_source_image(path, true).colour.samples; });
  return samples;
}

void check_format(ImageFileFormat format, const char* extension) {
  TempDir dir;
  const std::string large = dir.file(std::string("large") + extension);
  const std::string small = dir.file(std::string("small") + extension);
  save_image8(large, random_rgb(301, 211, 5), format);
  save_image8(small, random_rgb(97, 53, 6), format);
  const std::vector<std::uint8_t> large_fresh = fresh_decode(large);
  const std::vector<std::uint8_t> small_fresh = fresh_decode(small);
  ASSERT_EQ(large_fresh.size(), 301u * 211u * 3u);
  ASSERT_EQ(small_fresh.size(), 97u * 53u * 3u);

  on_fresh_thread([&] {
    // A given-back buffer, poisoned: the next decode writes into it, every byte.
    std::vector<std::uint8_t> poisoned(301 * 211 * 3 + 1000, 0xA5);
    const std::uint8_t* address = poisoned.data();
    recycle_samples(std::move(poisoned));
    EXPECT_TRUE(poisoned.empty());
    SourceImage a = load_source_image(small, true);
    EXPECT_EQ(a.colour.samples.data(), address) << "the given-back buffer was not used";
    EXPECT_EQ(a.colour.samples, small_fresh);
    // Back again, then a larger file: the buffer grows to it; then the small one, the file
    // buffer now larger than its file.
    recycle_samples(std::move(a.colour.samples));
    EXPECT_EQ(load_source_image(large, true).colour.samples, large_fresh);
    EXPECT_EQ(load_source_image(small, true).colour.samples, small_fresh);
    EXPECT_EQ(load_source_image(large, true).colour.samples, large_fresh);
  });
}

#ifdef MAD_HAVE_LIBDEFLATE  // our own PNG reader (libpng's path allocates its own)
TEST(DecodeBuffers, PngIntoKeptBuffersDecodesAsIntoFreshOnes) {
  check_format(ImageFileFormat::kPng, ".png");
}
#endif

#ifdef MAD_HAVE_STB
TEST(DecodeBuffers, BmpIntoKeptBuffersDecodesAsIntoFreshOnes) {
  check_format(ImageFileFormat::kBmp, ".bmp");
}
#endif

// A colour image whose samples went to page-locked memory keeps its shape: it is still colour,
// of the same size, for every reader of SourceImage.
TEST(DecodeBuffers, AnImageWithOnlyAPageLockedCopyIsStillColour) {
  SourceImage image;
  image.colour = random_rgb(40, 36, 7);
  const std::size_t bytes = image.colour.samples.size();
  auto copy = std::make_shared<std::vector<std::uint8_t>>(image.colour.samples);
  image.pinned_colour = std::shared_ptr<const std::uint8_t>(copy, copy->data());
  recycle_samples(std::move(image.colour.samples));
  EXPECT_TRUE(image.colour.samples.empty());
  EXPECT_TRUE(image.has_colour());
  EXPECT_EQ(image.width(), 40);
  EXPECT_EQ(image.height(), 36);
  EXPECT_EQ(image.colour_bytes(), bytes);
  SourceImage gray;
  EXPECT_FALSE(gray.has_colour());
  EXPECT_EQ(gray.colour_bytes(), 0u);
}

// A buffer above the kept limit is dropped, not kept by the thread.
TEST(DecodeBuffers, HugeBuffersAreNotKept) {
  on_fresh_thread([] {
    std::vector<std::uint8_t> huge;
    huge.reserve((std::size_t{64} << 20) + 1);
    recycle_samples(std::move(huge));
    EXPECT_EQ(huge.capacity(), 0u);  // released either way
    TempDir dir;
    const std::string file = dir.file("one.png");
    save_image8(file, random_rgb(34, 34, 8), ImageFileFormat::kPng);
    const SourceImage image = load_source_image(file, true);
    EXPECT_LT(image.colour.samples.capacity(), std::size_t{1} << 20);
  });
}

}  // namespace
}  // namespace mad
