// Helpers for the kernels tests: seeded random byte images (seeds are printed so a failure
// can be replayed), the sizes issue 4 asks for, and an exact image comparison that reports
// the first differing sample. Header-only because the test folder compiles only *_test.cpp.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "common/image.h"
#include "common/image_io.h"
#include "kernels/gray.h"
#include "kernels/kernel_request.h"

namespace mad::kernels::test {

struct Size {
  int width, height;
};

// The sizes every kernel is checked at: one pixel, tiny odd, prime-ish odd, full HD, and a
// very wide short strip (wider than any block row, shorter than a 32-row block).
inline std::vector<Size> issue_sizes() {
  return {{1, 1}, {7, 3}, {61, 47}, {1920, 1080}, {8193, 17}};
}

inline std::string size_name(Size s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height);
}

// A seed derived from the test's position, printed once so the run can be reproduced.
inline std::uint32_t announce_seed(const std::string& what, std::uint32_t seed) {
  std::cout << "seed " << seed << " for " << what << '\n';
  return seed;
}

// Uniform random bytes; `width` counts samples, `pitch` (0 = width) pads rows with 0xEE.
inline Image<std::uint8_t> random_bytes(int width, int height, std::uint32_t seed,
                                        std::ptrdiff_t pitch = 0) {
  Image<std::uint8_t> img(width, height, 0xEE, pitch);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(0, 255);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) img(y, x) = static_cast<std::uint8_t>(dist(rng));
  return img;
}

// A decoded-image stand-in: `channels` interleaved samples of seeded random bytes.
inline RawImage8 random_raw(int width, int height, int channels, std::uint32_t seed) {
  const Image<std::uint8_t> img = random_bytes(width * channels, height, seed);
  RawImage8 raw;
  raw.width = width;
  raw.height = height;
  raw.channels = channels;
  raw.samples.assign(img.data(), img.data() + img.pixel_count());
  return raw;
}

// The samples of `raw` as an image view (width = pixels * channels).
inline ImageView<const std::uint8_t> raw_view(const RawImage8& raw) {
  return {raw.samples.data(), raw.width * raw.channels, raw.height};
}

// A CPU request for the chain `name` ("gray,smooth,nick") with these parameters.
inline KernelRequest cpu_chain_request(const std::string& name, const NickParams& nick,
                                       SmoothBorder border) {
  KernelRequest r;
  r.chain = parse_kernel_chain(name);
  r.kind = r.chain.back();
  r.backend = Backend::Cpu;
  r.nick = nick;
  r.border = border;
  return r;
}

// The two values a GPU test fills a kernel's output with before the run: a byte the kernel
// leaves unwritten shows as a mismatch under at least one of them.
inline constexpr std::uint8_t kPoisons[] = {0x5A, 0xA5};

// Pitch choices: tight (odd widths give unaligned rows), and padded by 13 bytes (odd, so the
// row starts shift their alignment from row to row).
inline std::vector<std::ptrdiff_t> pitches_for(int row_bytes) {
  return {row_bytes, row_bytes + 13};
}

// Exact equality of two byte images; on failure names the first differing sample and the
// number of differing samples.
inline ::testing::AssertionResult images_equal(ImageView<const std::uint8_t> expected,
                                               ImageView<const std::uint8_t> actual) {
  if (expected.width != actual.width || expected.height != actual.height)
    return ::testing::AssertionFailure()
           << "shape " << actual.width << "x" << actual.height << " != expected " << expected.width
           << "x" << expected.height;
  long long bad = 0;
  std::ostringstream first;
  for (int y = 0; y < expected.height; ++y)
    for (int x = 0; x < expected.width; ++x)
      if (expected(y, x) != actual(y, x)) {
        if (bad++ == 0)
          first << "first at (y=" << y << ", x=" << x << "): expected " << int(expected(y, x))
                << ", got " << int(actual(y, x));
      }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " differing samples; " << first.str();
}

// Owns the bytes of one RgbView8 test input.
struct RgbInput {
  std::string name;
  std::vector<std::uint8_t> bytes;
  RgbView8 view;
};

// Every RGB layout of a seeded random s-sized image: RGB and RGBA with each of pitches_for's
// pitches, and planar with an odd pitch and plane stride.
inline std::vector<RgbInput> rgb_inputs_for(Size s, std::uint32_t seed) {
  std::vector<RgbInput> out;
  for (int channels : {3, 4})
    for (std::ptrdiff_t pitch : pitches_for(s.width * channels)) {
      const Image<std::uint8_t> img = random_bytes(s.width * channels, s.height, seed++, pitch);
      RgbInput in{(channels == 3 ? "rgb" : "rgba") + std::string(" pitch ") + std::to_string(pitch),
                  std::vector<std::uint8_t>(img.data(), img.data() + img.pitch() * img.height()),
                  {}};
      in.view = interleaved_rgb(
          ImageView<const std::uint8_t>(in.bytes.data(), s.width * channels, s.height, pitch),
          channels);
      out.push_back(std::move(in));
    }
  // Planar, with an odd plane stride so the planes' alignments differ.
  const std::ptrdiff_t pitch = s.width + 13, stride = pitch * s.height + 7;
  const Image<std::uint8_t> planes = random_bytes(static_cast<int>(stride), 3, seed, stride);
  RgbInput in{"planar pitch " + std::to_string(pitch),
              std::vector<std::uint8_t>(planes.data(), planes.data() + 3 * stride),
              {}};
  in.view = planar_rgb(in.bytes.data(), s.width, s.height, pitch, stride);
  out.push_back(std::move(in));
  return out;
}

}  // namespace mad::kernels::test
