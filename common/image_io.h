// Image files in and out. Decoding goes through Debian's well-kept libraries: libpng, libjpeg
// (turbo), libtiff (optional at build time) and stb_image for BMP and PGM/PPM (optional).
//
// Everything MAD reads becomes one gray plane of raw values on the 0..255 scale:
//  * 8-bit gray: as is.
//  * 8-bit RGB/RGBA: MATLAB's rgb2gray with uint8 rounding (spec §2, §14); alpha is ignored
//    (reported in `notes`).
//  * more than 8 bits (16-bit PNG/TIFF/PGM): scaled to 0..255 as non-integer doubles; such
//    images use the direct luminance formula (the 2011 rule, spec §14).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/image.h"

namespace mad {

struct GrayImage {
  Image<double> pixels;            // 0..255 scale
  int bit_depth = 8;               // bits per sample of the file (8 or 16)
  int source_channels = 1;         // 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA
  std::vector<std::string> notes;  // non-fatal remarks (e.g. "alpha channel ignored")
  // The same gray plane as uint8 (width*height, tightly packed) when the image is 8-bit, else
  // empty. The GPU backend uploads this: an eighth of the bytes, and no scan of the doubles.
  std::vector<std::uint8_t> gray8;
  bool is_8bit() const { return bit_depth <= 8; }
};

// Interleaved 8-bit image as decoded (channels 1..4), before any gray conversion.
struct RawImage8 {
  int width = 0, height = 0, channels = 0;
  std::vector<std::uint8_t> samples;  // width*height*channels, row-major, interleaved
};

// An image as the pair engine carries it from the decoder to the scorer, in one of three forms:
//  * the gray plane (`gray.pixels`, and `gray.gray8` for an 8-bit file), as load_gray_image
//    makes it;
//  * for an 8-bit colour file decoded for a GPU worker, its RGB(A) samples (`colour`): the GPU
//    converts them with the gray kernel, which is bit-identical to the host's rgb2gray
//    (kernels/gray_formula.h), so 8-bit RGB travels once and no core spends time on the
//    conversion (issue 12, goal 4);
//  * for an 8-bit gray file decoded for a GPU worker, its uint8 plane alone (`gray.gray8`, shape
//    in gray8_width x gray8_height, `gray.pixels` empty): the GPU uploads and widens only that
//    plane, so the doubles (8 bytes a pixel: 66 MB at 3840x2160) would only take decoding time
//    and the decoding budget (issue 26).
// `gray` always carries the file's metadata (bit depth, channels, notes). The CPU backend and
// gray_of turn either 8-bit form into the gray plane load_gray_image makes, the same values.
struct SourceImage {
  GrayImage gray;
  RawImage8 colour;  // 3 or 4 channels when set
  // Optional: the same colour samples in page-locked host memory, which the GPU copies from
  // directly (set by the GPU engine's decoding threads; mad/engine/pinned_copies.h). The engine then
  // gives `colour.samples` back to its decoding thread (recycle_samples): `colour` keeps the
  // shape with no samples, and the page-locked copy is the image's only one.
  std::shared_ptr<const std::uint8_t> pinned_colour;
  // The shape of `gray.gray8` when it alone holds the gray plane; 0 x 0 otherwise.
  int gray8_width = 0, gray8_height = 0;
  bool has_colour() const { return !colour.samples.empty() || pinned_colour != nullptr; }
  bool gray8_only() const { return gray8_width > 0; }
  // The colour samples' bytes, pageable or page-locked (0 without colour).
  std::size_t colour_bytes() const {
    return has_colour() ? static_cast<std::size_t>(colour.width) *
                              static_cast<std::size_t>(colour.height) *
                              static_cast<std::size_t>(colour.channels)
                        : 0;
  }
  int width() const {
    return has_colour() ? colour.width : gray8_only() ? gray8_width : gray.pixels.width();
  }
  int height() const {
    return has_colour() ? colour.height : gray8_only() ? gray8_height : gray.pixels.height();
  }
  int bit_depth() const { return gray.bit_depth; }
};

// Decodes like load_gray_image. With `keep_8bit` (for a GPU worker) an 8-bit file keeps its
// samples instead of becoming doubles: 3 or 4 channels in `colour`, 1 or 2 (alpha dropped) as
// the uint8 plane alone (SourceImage::gray8_only). Files of more than 8 bits get the double
// plane either way. Throws as load_gray_image does.
SourceImage load_source_image(const std::string& path, bool keep_8bit);
// Gives a decoded image's sample buffer to the calling thread's next decode (8-bit BMP and PNG
// files through our own readers write into it instead of fresh memory; see
// io_detail::take_sample_buffer). The thread keeps one such buffer, the largest it was given,
// up to 64 MiB (io_detail::kKeptBytes); `samples` is left empty.
void recycle_samples(std::vector<std::uint8_t>&& samples);
// The gray image of `source`, as load_gray_image makes it of the same file: a copy of `gray`,
// the host conversion of `colour`, or `gray.gray8` with its double plane.
GrayImage gray_of(const SourceImage& source);
// The double plane of a uint8 gray plane (width*height bytes, tightly packed): each byte's value,
// as load_gray_image sets GrayImage::pixels beside GrayImage::gray8.
Image<double> widen_gray8(const std::uint8_t* gray8, int width, int height);

// MATLAB rgb2gray on one 8-bit pixel: 0.298936021293775 R + 0.587043074451121 G +
// 0.114020904255103 B, rounded half away from zero to uint8.
std::uint8_t rgb_to_gray_matlab(std::uint8_t r, std::uint8_t g, std::uint8_t b);

// Gray plane of samples held in memory (e.g. a numpy array), by the rules load_gray_image
// applies to a decoded file: `samples` are interleaved, row-major, width*height*channels long,
// channels 1..4 (2 and 4 carry an ignored alpha). 8-bit samples follow the 8-bit file rule
// (rgb2gray with uint8 rounding, bit_depth 8), 16-bit ones the 16-bit file rule (bit_depth 16).
// Throws InputError naming `what` for an empty image, one above 2^28 pixels or a channel count
// outside 1..4.
GrayImage gray_from_samples(int width, int height, int channels, std::vector<std::uint8_t> samples,
                            const std::string& what);
GrayImage gray_from_samples(int width, int height, int channels, std::vector<std::uint16_t> samples,
                            const std::string& what);
// Floating-point samples already on the 0..255 scale (as MATLAB's double(imread(...))): gray
// as is; colour by MATLAB's rgb2gray on a double array (the weighted sum, not rounded).
// `bit_depth` (32 or 64) is recorded, so InputClass::Auto resolves to Double as for 16-bit
// files. Throws InputError as above and for a value that is not finite.
GrayImage gray_from_real_samples(int width, int height, int channels,
                                 const std::vector<double>& samples, int bit_depth,
                                 const std::string& what);

// Decodes PNG, JPEG, BMP, TIFF, PGM/PPM (chosen by content, not extension) into gray.
// Throws InputError naming the file on any failure (missing, unreadable, unsupported, empty).
GrayImage load_gray_image(const std::string& path);
// Decodes an 8-bit file without gray conversion (for the preprocessing kernels).
RawImage8 load_raw_image8(const std::string& path);

// Writes an 8-bit image (1 to 4 channels) as PNG.
void save_png8(const std::string& path, const RawImage8& image);
// Writes an 8-bit image (1 to 4 channels; 2 and 4 carry alpha) as uncompressed TIFF. Throws
// Error when TIFF support was not built.
void save_tiff8(const std::string& path, const RawImage8& image);
// Writes an 8-bit gray or RGB image (1 or 3 channels) as a 24-bit BMP through libstb's
// stb_image_write (gray repeated in the three channels). Throws Error without libstb.
void save_bmp8(const std::string& path, const RawImage8& image);

// Formats an 8-bit image can be written in; the output file's extension chooses one.
enum class ImageFileFormat { kPng, kTiff, kBmp };
// The extension of the file name in `path`, lowercase, with its dot (".png"); "" when none.
std::string lowercase_extension(const std::string& path);
// The format named by the extension of `path` (case-insensitive .png, .tif, .tiff, .bmp) when
// this build writes it; any other extension (or none) throws InvalidArgument naming the ones
// it writes.
ImageFileFormat output_format_for_path(const std::string& path);
// Writes `image` to `path` in `format` (usually output_format_for_path(path)).
void save_image8(const std::string& path, const RawImage8& image, ImageFileFormat format);
// Writes `map` as a 16-bit gray PNG scaled so that its maximum maps to 65535; returns the scale
// (value = pixel / scale). A map whose maximum is 0 is written as zeros with scale 1.
double save_png16_scaled(const std::string& path, ImageView<const double> map);
// Writes `map` as a 32-bit float gray TIFF. Throws Error when TIFF support was not built.
void save_tiff_float(const std::string& path, ImageView<const double> map);
// True when this build can read and write TIFF.
bool tiff_supported();
// Names of the formats this build decodes, e.g. {"png","jpeg","tiff","bmp","pnm"}.
std::vector<std::string> supported_formats();

}  // namespace mad
