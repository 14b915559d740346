// Public entry points of common/image_io.h: read the file, pick the codec from the content,
// then convert. The codecs themselves live in png_read.cpp / png_write.cpp, jpeg_io.cpp,
// tiff_read.cpp / tiff_write.cpp and stb_io.cpp; image_write.cpp picks a writer by extension.
#include "common/image_io.h"

#include <string>
#include <utility>
#include <vector>

#include "common/image_io_detail.h"

namespace mad {
namespace {

io_detail::DecodedImage decode_file(const std::string& path) {
  using io_detail::FileFormat;
  std::vector<std::uint8_t>& bytes = io_detail::thread_file_buffer();
  // A huge file's buffer is not kept past this decode, whatever way it ends.
  struct Trim {
    std::vector<std::uint8_t>& bytes;
    ~Trim() {
      if (bytes.capacity() > io_detail::kKeptBytes) std::vector<std::uint8_t>().swap(bytes);
    }
  } trim{bytes};
  io_detail::read_file_bytes(path, bytes);
  const FileFormat format = io_detail::sniff_format(bytes);
  io_detail::DecodedImage decoded;
  switch (format) {
    case FileFormat::kPng: decoded = io_detail::decode_png(path, bytes); break;
    case FileFormat::kJpeg: decoded = io_detail::decode_jpeg(path, bytes); break;
    case FileFormat::kTiff: decoded = io_detail::decode_tiff(path, bytes); break;
    case FileFormat::kBmp:
    case FileFormat::kPnm: decoded = io_detail::decode_stb(path, bytes, format); break;
    case FileFormat::kUnknown:
      io_detail::throw_input_error(path, io_detail::describe_unknown_format(bytes));
  }
  // Every codec checks its header; this guards the invariant the converters rely on.
  const std::size_t expected =
      static_cast<std::size_t>(decoded.width) * decoded.height * decoded.channels;
  const std::size_t have =
      decoded.bit_depth == 16 ? decoded.samples16.size() : decoded.samples8.size();
  if (have != expected) io_detail::throw_input_error(path, "decoder returned inconsistent data");
  return decoded;
}

}  // namespace

GrayImage load_gray_image(const std::string& path) {
  return io_detail::to_gray(decode_file(path));
}

SourceImage load_source_image(const std::string& path, bool keep_8bit) {
  io_detail::DecodedImage decoded = decode_file(path);
  SourceImage out;
  if (!keep_8bit || decoded.bit_depth != 8) {
    out.gray = io_detail::to_gray(std::move(decoded));
    return out;
  }
  if (decoded.channels < 3) {
    out.gray8_width = decoded.width;
    out.gray8_height = decoded.height;
    out.gray = io_detail::to_gray8_only(std::move(decoded));
    return out;
  }
  out.gray.bit_depth = 8;
  out.gray.source_channels = decoded.channels;
  out.gray.notes = std::move(decoded.notes);
  if (decoded.channels == 4) out.gray.notes.push_back("alpha channel ignored");
  out.colour.width = decoded.width;
  out.colour.height = decoded.height;
  out.colour.channels = decoded.channels;
  out.colour.samples = std::move(decoded.samples8);
  return out;
}

GrayImage gray_of(const SourceImage& source) {
  if (source.gray8_only()) {
    GrayImage out = source.gray;
    out.pixels = widen_gray8(out.gray8.data(), source.gray8_width, source.gray8_height);
    return out;
  }
  if (!source.has_colour()) return source.gray;
  const RawImage8& c = source.colour;
  GrayImage out = gray_from_samples(c.width, c.height, c.channels, c.samples, "image");
  out.notes = source.gray.notes;
  return out;
}

RawImage8 load_raw_image8(const std::string& path) {
  io_detail::DecodedImage decoded = decode_file(path);
  if (decoded.bit_depth != 8)
    io_detail::throw_input_error(path, "has " + std::to_string(decoded.bit_depth) +
                                           "-bit samples; 8-bit samples are required here");
  RawImage8 raw;
  raw.width = decoded.width;
  raw.height = decoded.height;
  raw.channels = decoded.channels;
  raw.samples = std::move(decoded.samples8);
  return raw;
}

bool tiff_supported() {
#ifdef MAD_HAVE_TIFF
  return true;
#else
  return false;
#endif
}

std::vector<std::string> supported_formats() {
  std::vector<std::string> formats = {"png", "jpeg"};
  if (tiff_supported()) formats.push_back("tiff");
#ifdef MAD_HAVE_STB
  formats.push_back("bmp");
  formats.push_back("pnm");
#endif
  return formats;
}

}  // namespace mad
