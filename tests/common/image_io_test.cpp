// Image loading: the reference images, format detection by content, and the InputError
// contract for missing, empty, unknown, truncated and corrupt files (never a crash).
#include <gtest/gtest.h>

#include <zlib.h>

#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "common/error.h"
#include "common/image_io.h"
#include "tests/common/image_io_test_util.h"
#include "tests/support/test_support.h"

namespace mad {
namespace {

using test::io::TempDir;

// Runs `fn`, which must throw InputError whose message names `path` and contains `fragment`.
template <class Fn>
void expect_input_error(Fn fn, const std::string& path, const std::string& fragment) {
  try {
    fn();
    ADD_FAILURE() << "no InputError for " << path;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find(path), std::string::npos) << what;
    EXPECT_NE(what.find(fragment), std::string::npos) << "'" << fragment << "' not in: " << what;
    EXPECT_EQ(e.exit_code(), kExitInput);
  }
}

std::uint64_t position_weighted_sum(const GrayImage& g) {
  std::uint64_t s = 0;
  const int w = g.pixels.width();
  for (int y = 0; y < g.pixels.height(); ++y)
    for (int x = 0; x < w; ++x)
      s += static_cast<std::uint64_t>(y * w + x + 1) * static_cast<std::uint64_t>(g.pixels(y, x));
  return s;
}

// Checksums computed by an independent decoder (Python's zlib plus the PNG filter rules).
TEST(ImageIo, ReferenceImagesMatchIndependentDecode) {
  struct Expected {
    const char* name;
    int width, height;
    double sum, first, last, probe;  // probe: pixel (height/2, width/3)
    std::uint64_t weighted;
  };
  const Expected cases[] = {
      {"camera_512.png", 512, 512, 33832495, 200, 149, 27, 3887750363765ULL},
      {"rocket_333x257.png", 257, 333, 6139367, 45, 78, 70, 297499662182ULL},
      {"coffee_512__jpeg_q10.png", 512, 512, 25351014, 28, 135, 38, 2604548881834ULL},
  };
  for (const Expected& e : cases) {
    const GrayImage g = load_gray_image(test::data_path(std::string("reference/images/") + e.name));
    ASSERT_EQ(g.pixels.width(), e.width) << e.name;
    ASSERT_EQ(g.pixels.height(), e.height) << e.name;
    double sum = 0;
    for (int y = 0; y < e.height; ++y)
      for (int x = 0; x < e.width; ++x) sum += g.pixels(y, x);
    EXPECT_EQ(sum, e.sum) << e.name;
    EXPECT_EQ(g.pixels(0, 0), e.first) << e.name;
    EXPECT_EQ(g.pixels(e.height - 1, e.width - 1), e.last) << e.name;
    EXPECT_EQ(g.pixels(e.height / 2, e.width / 3), e.probe) << e.name;
    EXPECT_EQ(position_weighted_sum(g), e.weighted) << e.name;
  }
}

TEST(ImageIo, AllReferenceImagesLoadAsEightBitGray) {
  const char* stems[] = {"camera_512", "coffee_512", "gravel_512"};
  const char* suffixes[] = {"",           "__awgn_s15",  "__awgn_s5",
                            "__blur_s1",  "__blur_s2.5", "__contrast_0.5",
                            "__jpeg_q10", "__jpeg_q50"};
  std::vector<std::pair<std::string, int>> files;  // name, expected width
  for (const char* stem : stems)
    for (const char* suffix : suffixes) files.push_back({std::string(stem) + suffix, 512});
  files.push_back({"camera_512__identical", 512});
  for (const char* s : {"", "__awgn_s10", "__blur_s1.5", "__jpeg_q30"})
    files.push_back({std::string("rocket_333x257") + s, 257});

  for (const auto& [name, width] : files) {
    const GrayImage g = load_gray_image(test::data_path("reference/images/" + name + ".png"));
    EXPECT_EQ(g.pixels.width(), width) << name;
    EXPECT_EQ(g.pixels.height(), width == 512 ? 512 : 333) << name;
    EXPECT_EQ(g.bit_depth, 8) << name;
    EXPECT_TRUE(g.is_8bit()) << name;
    EXPECT_EQ(g.source_channels, 1) << name;
    EXPECT_TRUE(g.notes.empty()) << name;
    const RawImage8 raw = load_raw_image8(test::data_path("reference/images/" + name + ".png"));
    ASSERT_EQ(raw.channels, 1);
    for (int y = 0; y < raw.height; y += 37)
      for (int x = 0; x < raw.width; x += 29)
        ASSERT_EQ(raw.samples[static_cast<std::size_t>(y) * raw.width + x], g.pixels(y, x));
  }
}

TEST(ImageIo, MissingFileDirectoryAndEmptyFile) {
  TempDir dir;
  const std::string missing = dir.file("no_such_image.png");
  expect_input_error([&] { load_gray_image(missing); }, missing, "file not found");
  expect_input_error([&] { load_raw_image8(missing); }, missing, "file not found");
  expect_input_error([&] { load_gray_image(dir.dir()); }, dir.dir(), "directory");
  const std::string empty = dir.file("empty.png");
  test::io::write_bytes(empty, {});
  expect_input_error([&] { load_gray_image(empty); }, empty, "empty");
}

// A file is read in one buffer of the size the file system reports; a pipe, which reports
// none, grows its buffer as it reads. Both must give every byte: a noisy PNG of about 300 KB (so
// the pipe's buffer doubles several times past its first 64 KiB) decodes to the same pixels
// from a regular file and from a FIFO fed by another thread.
TEST(ImageIo, PipesAndFilesReadWhole) {
  TempDir dir;
  test::io::PngSpec spec;
  spec.width = 601, spec.height = 499;  // 300 KB of incompressible samples
  spec.samples = test::io::random_samples(601 * 499, 255, 11);
  const std::string file = dir.file("noise.png");
  test::io::write_png_file(file, spec);
  const std::vector<std::uint8_t> bytes = test::io::read_bytes(file);
  ASSERT_GT(bytes.size(), std::size_t{4} << 16);
  const GrayImage from_file = load_gray_image(file);

  const std::string fifo = dir.file("noise.fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::atomic<bool> written{false};
  std::thread writer([&] {
    // A reader that stops early must fail the test, not kill the process: with SIGPIPE blocked
    // in this thread, writing to a FIFO nobody reads fails with EPIPE instead.
    sigset_t pipe_signal;
    sigemptyset(&pipe_signal);
    sigaddset(&pipe_signal, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
    {
      std::ofstream out(fifo, std::ios::binary);  // blocks until a reader opens the FIFO
      out.write(reinterpret_cast<const char*>(bytes.data()),
                static_cast<std::streamsize>(bytes.size()));
    }
    written = true;
  });
  GrayImage from_pipe;
  EXPECT_NO_THROW(from_pipe = load_gray_image(fifo));
  // A reader that failed before reading everything (or before opening the FIFO at all, maybe
  // before the writer reached its open) must not leave the writer waiting: hold a read end open
  // and drain it until the writer is done. Once the reader has read the whole file, it is.
  const int drain = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  char sink[1 << 12];
  while (!written && drain >= 0) {
    if (::read(drain, sink, sizeof sink) <= 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (drain >= 0) ::close(drain);
  writer.join();
  ASSERT_EQ(from_pipe.pixels.width(), 601);
  ASSERT_EQ(from_pipe.pixels.height(), 499);
  for (int r = 0; r < 499; ++r)
    for (int c = 0; c < 601; ++c)
      ASSERT_EQ(from_pipe.pixels(r, c), from_file.pixels(r, c)) << r << "," << c;
  EXPECT_EQ(from_file.pixels(498, 600), spec.samples.back());
}

TEST(ImageIo, UnknownFormatsAreNamed) {
  TempDir dir;
  const std::string noise = dir.file("noise.png");  // the extension must not matter
  const std::vector<std::uint16_t> r = test::io::random_samples(1000, 255, 7);
  test::io::write_bytes(noise, std::vector<std::uint8_t>(r.begin(), r.end()));
  expect_input_error([&] { load_gray_image(noise); }, noise, "unknown format");

  const std::string gif = dir.file("a.gif");
  test::io::write_bytes(gif, {'G', 'I', 'F', '8', '9', 'a', 1, 0, 1, 0});
  expect_input_error([&] { load_gray_image(gif); }, gif, "GIF");
  const std::string ascii = dir.file("a.pgm");
  test::io::write_bytes(ascii, {'P', '2', '\n', '1', ' ', '1', '\n', '9', '\n', '5', '\n'});
  expect_input_error([&] { load_gray_image(ascii); }, ascii, "P1-P4");
}

TEST(ImageIo, ContentDecidesTheFormatNotTheExtension) {
  TempDir dir;
  const std::string path = dir.file("really_a_png.jpg");
  test::io::PngSpec spec;
  spec.width = 3, spec.height = 2, spec.samples = {1, 2, 3, 4, 5, 6};
  test::io::write_png_file(path, spec);
  const GrayImage g = load_gray_image(path);
  EXPECT_EQ(g.pixels(1, 2), 6.0);
}

// Every prefix of a valid PNG is an InputError: libpng stops at the cut and the reader also
// requires the chunks after the image data.
TEST(ImageIo, TruncatedPngAtEveryLengthIsInputError) {
  TempDir dir;
  const std::string full = dir.file("full.png");
  test::io::PngSpec spec;
  spec.width = 11, spec.height = 7, spec.color_type = PNG_COLOR_TYPE_RGB;
  spec.samples = test::io::random_samples(11 * 7 * 3, 255, 11);
  test::io::write_png_file(full, spec);
  const std::vector<std::uint8_t> bytes = test::io::read_bytes(full);
  const std::string cut = dir.file("cut.png");
  test::io::expect_every_prefix_is_input_error(bytes, cut);
  expect_input_error([&] { load_gray_image(cut); }, cut, "truncated");
}

TEST(ImageIo, CorruptPngChunksAreInputError) {
  TempDir dir;
  const std::string full = dir.file("full.png");
  test::io::PngSpec spec;
  spec.width = 40, spec.height = 30;
  spec.samples = test::io::random_samples(40 * 30, 255, 12);
  test::io::write_png_file(full, spec);
  std::vector<std::uint8_t> bytes = test::io::read_bytes(full);
  // Flip one byte inside the image data: the chunk CRC no longer matches.
  bytes[bytes.size() / 2] ^= 0x5a;
  const std::string bad = dir.file("bad_crc.png");
  test::io::write_bytes(bad, bytes);
  expect_input_error([&] { load_gray_image(bad); }, bad, "invalid PNG data");
  // A PNG signature followed by noise.
  std::vector<std::uint8_t> noise = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  for (std::uint16_t v : test::io::random_samples(500, 255, 13))
    noise.push_back(static_cast<std::uint8_t>(v));
  test::io::write_bytes(bad, noise);
  expect_input_error([&] { load_gray_image(bad); }, bad, "invalid PNG data");
}

// An IHDR announcing 1,000,000 x 1,000,000 pixels (with a valid CRC) is refused before any
// allocation instead of failing with bad_alloc.
TEST(ImageIo, AbsurdPngDimensionsAreRefused) {
  std::vector<std::uint8_t> b = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 13};
  const std::uint8_t ihdr[] = {'I',  'H',  'D',  'R', 0, 0x0f, 0x42, 0x40, 0,
                               0x0f, 0x42, 0x40, 8,   0, 0,    0,    0};
  b.insert(b.end(), std::begin(ihdr), std::end(ihdr));
  const uLong crc = crc32(0L, ihdr, sizeof ihdr);
  for (int shift = 24; shift >= 0; shift -= 8) b.push_back(static_cast<std::uint8_t>(crc >> shift));
  // The start of an IDAT chunk: libpng stops reading the header there and reports the size.
  const std::uint8_t idat[] = {0, 0, 0, 16, 'I', 'D', 'A', 'T', 0x78, 0x9c, 0, 0};
  b.insert(b.end(), std::begin(idat), std::end(idat));
  TempDir dir;
  const std::string path = dir.file("huge.png");
  test::io::write_bytes(path, b);
  expect_input_error([&] { load_gray_image(path); }, path, "too large");
}

TEST(ImageIo, SupportedFormatsReflectTheBuild) {
  const std::vector<std::string> f = supported_formats();
  auto has = [&](const char* n) { return std::find(f.begin(), f.end(), n) != f.end(); };
  EXPECT_TRUE(has("png"));
  EXPECT_TRUE(has("jpeg"));
  EXPECT_EQ(has("tiff"), tiff_supported());
#ifdef MAD_HAVE_TIFF
  EXPECT_TRUE(tiff_supported());
#else
  EXPECT_FALSE(tiff_supported());
#endif
#ifdef MAD_HAVE_STB
  EXPECT_TRUE(has("bmp") && has("pnm"));
#else
  EXPECT_FALSE(has("bmp") || has("pnm"));
#endif
}

}  // namespace
}  // namespace mad
