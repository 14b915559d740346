// Decoded samples -> the one gray plane MAD works on (spec §2, §14).
//
// 8-bit files become exactly the uint8 array the original saw after imread (+ rgb2gray for
// colour). 16-bit files become non-integer doubles on the 0..255 scale.
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

#include "common/error.h"
#include "common/image_io_detail.h"

namespace mad {
namespace {

// MATLAB's rgb2gray weights (spec §2). Octave's rounded 6-digit set is deliberately not used.
constexpr double kRed = 0.298936021293775;
constexpr double kGreen = 0.587043074451121;
constexpr double kBlue = 0.114020904255103;

// Weighted sum in double, evaluated left to right as MATLAB does (rgb2gray on a double array
// stops here).
double weighted_sum(double r, double g, double b) {
  return kRed * r + kGreen * g + kBlue * b;
}

// The sum rounded half away from zero (it is never negative, so floor(v + 0.5)) and saturated
// to `max_value`: rgb2gray on an integer array. Exhaustive checking over all 2^24 8-bit
// triples shows no sum closer than 4.6e-6 to a .5 tie, so double rounding error (~1e-13) can
// never flip a result.
double weighted_round(double r, double g, double b, double max_value) {
  const double v = weighted_sum(r, g, b);
  const double rounded = std::floor(v + 0.5);
  return rounded > max_value ? max_value : rounded;
}

// The checks check_header applies to a file, worded for an in-memory image.
void check_samples(int width, int height, int channels, std::size_t count,
                   const std::string& what) {
  if (width <= 0 || height <= 0)
    throw InputError(what + ": empty image (" + std::to_string(width) + " x " +
                     std::to_string(height) + " pixels)");
  if (static_cast<std::size_t>(width) * static_cast<std::size_t>(height) > io_detail::kMaxPixels)
    throw InputError(what + ": image too large (" + std::to_string(width) + " x " +
                     std::to_string(height) + " pixels)");
  if (channels < 1 || channels > 4)
    throw InputError(what + ": unsupported channel count " + std::to_string(channels) +
                     " (expected 1 to 4)");
  if (count != static_cast<std::size_t>(width) * height * channels)
    throw InvalidArgument(what + ": sample count does not match the shape");
}

}  // namespace

namespace {
// A decoded-image record of in-memory samples, checked, for to_gray.
io_detail::DecodedImage decoded(int width, int height, int channels, std::size_t count,
                                int bit_depth, const std::string& what) {
  check_samples(width, height, channels, count, what);
  io_detail::DecodedImage d;
  d.width = width, d.height = height, d.channels = channels, d.bit_depth = bit_depth;
  return d;
}
}  // namespace

GrayImage gray_from_samples(int width, int height, int channels, std::vector<std::uint8_t> samples,
                            const std::string& what) {
  auto d = decoded(width, height, channels, samples.size(), 8, what);
  d.samples8 = std::move(samples);
  return io_detail::to_gray(std::move(d));
}

GrayImage gray_from_samples(int width, int height, int channels, std::vector<std::uint16_t> samples,
                            const std::string& what) {
  auto d = decoded(width, height, channels, samples.size(), 16, what);
  d.samples16 = std::move(samples);
  return io_detail::to_gray(std::move(d));
}

GrayImage gray_from_real_samples(int width, int height, int channels,
                                 const std::vector<double>& samples, int bit_depth,
                                 const std::string& what) {
  check_samples(width, height, channels, samples.size(), what);
  GrayImage out;
  out.bit_depth = bit_depth;
  out.source_channels = channels;
  if (channels == 2 || channels == 4) out.notes.push_back("alpha channel ignored");
  out.pixels = Image<double>(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const double* s = samples.data() + (static_cast<std::size_t>(y) * width + x) * channels;
      const double gray = channels >= 3 ? weighted_sum(s[0], s[1], s[2]) : s[0];
      if (!std::isfinite(gray))
        throw InputError(what + ": value at (" + std::to_string(y) + ", " + std::to_string(x) +
                         ") is not finite");
      out.pixels(y, x) = gray;
    }
  return out;
}

std::uint8_t rgb_to_gray_matlab(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  return static_cast<std::uint8_t>(weighted_round(r, g, b, 255.0));
}

Image<double> widen_gray8(const std::uint8_t* gray8, int width, int height) {
  Image<double> out(width, height);
  for (int y = 0; y < height; ++y) {
    const std::uint8_t* in = gray8 + static_cast<std::size_t>(y) * width;
    double* row = out.row(y);
    for (int x = 0; x < width; ++x) row[x] = in[x];
  }
  return out;
}

namespace io_detail {

GrayImage to_gray(DecodedImage&& decoded) {
  GrayImage out;
  out.bit_depth = decoded.bit_depth;
  out.source_channels = decoded.channels;
  out.notes = std::move(decoded.notes);
  out.pixels = Image<double>(decoded.width, decoded.height);

  const int c = decoded.channels;
  const bool colour = c >= 3;
  if (c == 2 || c == 4) out.notes.push_back("alpha channel ignored");

  // 16-bit samples are mapped to 0..255 by value * 255 / 65535 (spec §14). Colour is first
  // reduced exactly as MATLAB's rgb2gray does on a uint16 array (weighted sum rounded to
  // uint16), then scaled like a gray sample, so 8- and 16-bit files follow one rule.
  const bool wide = decoded.bit_depth == 16;
  const double max_sample = wide ? 65535.0 : 255.0;
  if (!wide) out.gray8.resize(static_cast<std::size_t>(decoded.width) * decoded.height);

  for (int y = 0; y < decoded.height; ++y) {
    double* row = out.pixels.row(y);
    const std::size_t base = static_cast<std::size_t>(y) * decoded.width * c;
    for (int x = 0; x < decoded.width; ++x) {
      const std::size_t i = base + static_cast<std::size_t>(x) * c;
      auto sample = [&](int k) -> double {
        return wide ? decoded.samples16[i + k] : decoded.samples8[i + k];
      };
      const double gray =
          colour ? weighted_round(sample(0), sample(1), sample(2), max_sample) : sample(0);
      row[x] = wide ? gray * 255.0 / 65535.0 : gray;  // as written in §14, no precomputed ratio
      if (!wide)
        out.gray8[static_cast<std::size_t>(y) * decoded.width + x] =
            static_cast<std::uint8_t>(gray);
    }
  }
  return out;
}

GrayImage to_gray8_only(DecodedImage&& decoded) {
  if (decoded.bit_depth != 8 || decoded.channels < 1 || decoded.channels > 2)
    throw InternalError("to_gray8_only: needs an 8-bit image of 1 or 2 channels");
  GrayImage out;
  out.bit_depth = 8;
  out.source_channels = decoded.channels;
  out.notes = std::move(decoded.notes);
  if (decoded.channels == 1) {
    // The samples are the plane: to_gray's gray8 is each sample as it came.
    out.gray8 = std::move(decoded.samples8);
    return out;
  }
  out.notes.push_back("alpha channel ignored");
  const std::size_t pixels = static_cast<std::size_t>(decoded.width) * decoded.height;
  out.gray8.resize(pixels);
  for (std::size_t i = 0; i < pixels; ++i) out.gray8[i] = decoded.samples8[2 * i];
  return out;
}

}  // namespace io_detail
}  // namespace mad
