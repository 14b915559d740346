// Internals shared by the image codec files (image_io.cpp, image_format.cpp, gray_convert.cpp,
// image_write.cpp, png_read.cpp, png_write.cpp, jpeg_io.cpp, tiff_read.cpp, tiff_write.cpp,
// stb_io.cpp, bmp_direct_read.cpp). Not part of the public API: include common/image_io.h
// instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/image_io.h"

namespace mad::io_detail {

// File formats recognised by their first bytes (never by extension).
enum class FileFormat { kPng, kJpeg, kTiff, kBmp, kPnm, kUnknown };

// Samples exactly as a codec delivered them, before any gray conversion. Exactly one of
// `samples8` (bit_depth 8, values 0..255) or `samples16` (bit_depth 16, values 0..65535) is
// filled; both are interleaved, row-major, width*height*channels long.
struct DecodedImage {
  int width = 0, height = 0, channels = 0;
  int bit_depth = 8;
  std::vector<std::uint8_t> samples8;
  std::vector<std::uint16_t> samples16;
  std::vector<std::string> notes;
};

// Largest image accepted (pixels). A corrupt header may claim any size; refusing absurd ones
// turns a would-be std::bad_alloc into a clear InputError. 2^28 pixels is a 16384 x 16384
// image, far beyond any quality-assessment dataset.
constexpr std::size_t kMaxPixels = std::size_t{1} << 28;

// Throws InputError "cannot load image '<path>': <reason>".
[[noreturn]] void throw_input_error(const std::string& path, const std::string& reason);
// Checks a decoded header: positive size, at most kMaxPixels, 1..4 channels, 8 or 16 bits.
void check_header(const std::string& path, long long width, long long height, int channels,
                  int bit_depth);

// Checks an 8-bit image handed to a writer: non-empty, `channels` within [1, max_channels] and
// a sample buffer of width*height*channels. Throws InvalidArgument "<writer>: <problem> for
// '<path>'".
void check_image8_for_write(const char* writer, const std::string& path, const RawImage8& image,
                            int max_channels);

// Whole file contents. Missing file, directory, unreadable and empty files throw InputError.
std::vector<std::uint8_t> read_file_bytes(const std::string& path);
// The same into `bytes`, whose capacity is reused (its size becomes the file's).
void read_file_bytes(const std::string& path, std::vector<std::uint8_t>& bytes);

// Buffers a decoding thread keeps from one file to the next. A 4K RGB image is a 25 MB file and
// 25 MB of samples; taken afresh for every image, their pages faulted in on the decoding
// thread and were unmapped by whichever thread dropped them last: on the 32-core two-GPU host
// (eval-goal's 4K BMP set, issue 26) the decoders spent about as long in the kernel as in
// decoding, and the page-table traffic slowed the threads feeding the GPUs. Buffers above
// kKeptBytes are never kept: a thread then keeps at most two (file and samples) of a 4K RGBA
// image's size, and none of an 8K image's (100 MB in RGB) beyond its use, so a host of many
// decoding threads does not hold gigabytes between files.
constexpr std::size_t kKeptBytes = std::size_t{64} << 20;
// This thread's file buffer (read_file_bytes(path, ...) fills it; decode_file trims it).
std::vector<std::uint8_t>& thread_file_buffer();
// A vector of `bytes` samples for a codec to overwrite whole: the buffer this thread was given
// back (recycle_samples, image_io.h) when it is large enough, else a new one. Its contents are
// whatever the buffer held: a codec must write every sample.
std::vector<std::uint8_t> take_sample_buffer(std::size_t bytes);
// Format from magic bytes; kUnknown when nothing matches.
FileFormat sniff_format(const std::vector<std::uint8_t>& bytes);
// For an unrecognised file, a precise reason (e.g. "GIF images are not supported").
std::string describe_unknown_format(const std::vector<std::uint8_t>& bytes);

// Codecs. Each throws InputError naming `path` on corrupt, truncated or unsupported data.
DecodedImage decode_png(const std::string& path, const std::vector<std::uint8_t>& bytes);
// decode_png's two paths, for the tests that hold them to the same samples: libpng's, which
// reads every PNG, and (built with libdeflate) the direct reader of 8-bit non-interlaced
// gray/gray+alpha/RGB/RGBA files, which returns nothing for any file it does not handle
// completely (png_direct_read.cpp) and never throws InputError.
DecodedImage decode_png_libpng(const std::string& path, const std::vector<std::uint8_t>& bytes);
#ifdef MAD_HAVE_LIBDEFLATE
std::optional<DecodedImage> decode_png_direct(const std::vector<std::uint8_t>& bytes);
#endif
DecodedImage decode_jpeg(const std::string& path, const std::vector<std::uint8_t>& bytes);
// Throws InputError "TIFF support not built" when MAD_HAVE_TIFF is not defined.
DecodedImage decode_tiff(const std::string& path, const std::vector<std::uint8_t>& bytes);
// BMP and binary PGM/PPM through stb_image; throws InputError "... support not built" without
// MAD_HAVE_STB. A BMP is offered to decode_bmp_direct first.
DecodedImage decode_stb(const std::string& path, const std::vector<std::uint8_t>& bytes,
                        FileFormat format);
#ifdef MAD_HAVE_STB
// The direct BMP reader (bmp_direct_read.cpp): uncompressed 24-bit, 32-bit (BI_RGB or standard
// BI_BITFIELDS) and all-gray-palette 8-bit files under a 40/108/124-byte header, either row
// order. Returns exactly what stbi_load_from_memory(..., 0) returns for the file (8-bit palette
// files as 3 channels, as stb gives them), or nothing for any file it does not handle
// completely, including every corrupt or truncated one; never throws InputError and never reads
// outside `bytes`. Built with libstb only: without it no BMP is read at all.
std::optional<DecodedImage> decode_bmp_direct(const std::vector<std::uint8_t>& bytes);
// How many BMPs decode_stb has returned from decode_bmp_direct in this process (for the tests
// that check which path a file took).
std::size_t bmp_direct_decodes();
#endif

#ifdef MAD_HAVE_TIFF
// libtiff reports problems through process-wide handlers that print to stderr. Ours keep the
// latest error of the calling thread instead: call tiff_clear_error() before a libtiff call
// and tiff_last_error() after a failure (tiff_messages.cpp).
void tiff_clear_error();
std::string tiff_last_error();
#endif

// Gray plane of a decoded image (spec §2, §14): see common/image_io.h.
GrayImage to_gray(DecodedImage&& decoded);
// The uint8 gray plane alone of an 8-bit image of 1 or 2 channels (`gray8` set, `pixels` left
// empty; metadata and notes as to_gray sets them): to_gray's gray8 without its doubles, for
// load_source_image's GPU form. Throws InternalError for any other image.
GrayImage to_gray8_only(DecodedImage&& decoded);

}  // namespace mad::io_detail
