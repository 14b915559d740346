// Opening a clip: by its content (Y4M or raw), with the Y4M header read from the stream.
#include "common/clip_reader.h"

#include <utility>

#include "common/clip_file_reader.h"
#include "common/clip_stream.h"
#include "common/error.h"
#include "common/y4m_header.h"

namespace mad {
namespace {

// A stream header is one short line; 4 KiB stops a file of garbage without a newline early.
constexpr std::size_t kMaxHeaderLine = 4096;

std::string read_header_line(ClipStream& stream) {
  std::string line;
  for (int c = stream.get(); c != '\n'; c = stream.get()) {
    if (c < 0) throw InputError(stream.name() + ": the Y4M stream header ends without a newline");
    line += static_cast<char>(c);
    if (line.size() > kMaxHeaderLine)
      throw InputError(stream.name() + ": no newline in the first 4096 bytes: not a Y4M header");
  }
  return line;
}

std::unique_ptr<ClipReader> y4m_reader(const std::string& path,
                                       std::unique_ptr<ClipStream> stream) {
  if (stream->peek(9) != "YUV4MPEG2")
    throw InputError(stream->name() +
                     ": not a YUV4MPEG2 (Y4M) stream: it does not start with "
                     "'YUV4MPEG2 '");
  const ClipFormat format = parse_y4m_header(read_header_line(*stream), stream->name());
  // The count is known when the rest is a whole number of frames with plain "FRAME\n" lines.
  const std::int64_t left = stream->remaining();
  const std::int64_t framed = static_cast<std::int64_t>(format.frame_bytes()) + 6;
  auto reader = std::make_unique<ClipFileReader>(path, format, std::move(stream), true);
  if (left >= 0 && left % framed == 0) reader->set_count_hint(left / framed);
  return reader;
}

std::unique_ptr<ClipReader> raw_reader(const std::string& path, const ClipFormat& format,
                                       std::unique_ptr<ClipStream> stream) {
  const std::int64_t left = stream->remaining();
  const std::int64_t frame = static_cast<std::int64_t>(format.frame_bytes());
  if (left >= 0 && left % frame != 0)
    throw InputError(stream->name() + ": " + std::to_string(left) +
                     " bytes is not a whole number of " + format.pixel_format() + " " +
                     std::to_string(format.width) + "x" + std::to_string(format.height) +
                     " frames of " + std::to_string(frame) + " bytes (" +
                     std::to_string(left / frame) + " frames and " + std::to_string(left % frame) +
                     " bytes): check --width, --height and --pixel-format");
  ClipFormat raw = format;
  raw.fps_num = raw.fps_den = 0;
  raw.y4m_colorspace.clear();
  auto reader = std::make_unique<ClipFileReader>(path, raw, std::move(stream), false);
  if (left >= 0) reader->set_count_hint(left / frame);
  return reader;
}

}  // namespace

ClipReader::ClipReader(std::string path, ClipFormat format)
    : path_(std::move(path)), format_(std::move(format)) {}

std::unique_ptr<ClipReader> ClipReader::open_y4m(const std::string& path) {
  return y4m_reader(path, std::make_unique<ClipStream>(path));
}

std::unique_ptr<ClipReader> ClipReader::open_raw(const std::string& path,
                                                 const ClipFormat& format) {
  return raw_reader(path, raw_clip_format(format.pixel_format(), format.width, format.height),
                    std::make_unique<ClipStream>(path));
}

std::unique_ptr<ClipReader> ClipReader::open(const std::string& path, const ClipFormat* raw) {
  auto stream = std::make_unique<ClipStream>(path);
  const bool y4m = stream->peek(10) == kY4mMagic;
  if (y4m && raw)
    throw InvalidArgument(stream->name() +
                          " is a Y4M clip: its header gives the size and pixel "
                          "format, so leave out --width, --height and --pixel-format");
  if (y4m) return y4m_reader(path, std::move(stream));
  if (!raw)
    throw InvalidArgument(stream->name() +
                          " is not a Y4M clip (it does not start with "
                          "'YUV4MPEG2 '): for a raw .yuv file give --width, --height and "
                          "--pixel-format");
  return raw_reader(path, *raw, std::move(stream));
}

}  // namespace mad
