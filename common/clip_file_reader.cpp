#include "common/clip_file_reader.h"

#include <algorithm>
#include <cstring>

#include "common/error.h"

namespace mad {
namespace {

// A FRAME line holds "FRAME" and a few parameters; 1 KiB leaves room and still stops a
// stream of garbage quickly.
constexpr std::size_t kMaxFrameHeader = 1024;

std::string printable(const std::string& bytes) {
  std::string out;
  for (unsigned char c : bytes) out += (c >= 32 && c < 127) ? static_cast<char>(c) : '?';
  return out;
}

}  // namespace

ClipFileReader::ClipFileReader(std::string path, ClipFormat format,
                               std::unique_ptr<ClipStream> stream, bool y4m)
    : ClipReader(std::move(path), std::move(format)), stream_(std::move(stream)), y4m_(y4m) {}

std::string ClipFileReader::frame_name() const {
  return stream_->name() + ": frame " + std::to_string(frames_read());
}

void ClipFileReader::truncated(std::uint64_t got) const {
  throw InputError(frame_name() + " is truncated: " + std::to_string(got) + " of " +
                   std::to_string(format().frame_bytes()) + " bytes (" + format().pixel_format() +
                   " " + std::to_string(format().width) + "x" + std::to_string(format().height) +
                   ")");
}

bool ClipFileReader::begin_frame() {
  if (stream_->at_end()) return false;
  if (y4m_) read_frame_header();
  return true;
}

void ClipFileReader::read_frame_header() {
  std::string line;
  for (int c = stream_->get(); c != '\n'; c = stream_->get()) {
    // At the end, a whole "FRAME" line is a frame of 0 bytes (truncated), anything else not one.
    if (c < 0) break;
    line += static_cast<char>(c);
    if (line.size() > kMaxFrameHeader) break;
  }
  // "FRAME", then nothing or space-separated parameters (ignored: mad needs none of them).
  if (line.rfind("FRAME", 0) == 0 && (line.size() == 5 || line[5] == ' ')) return;
  const ClipFormat& f = format();
  throw InputError(frame_name() + " does not start with a FRAME header (found '" +
                   printable(line.substr(0, 24)) + "'): the data does not end on a frame " +
                   "boundary of the stream header's format (" + f.pixel_format() + " " +
                   std::to_string(f.width) + "x" + std::to_string(f.height) + ", " +
                   std::to_string(f.frame_bytes()) + " bytes a frame), so the header lies " +
                   "about the size or the file is damaged");
}

template <class T>
std::size_t ClipFileReader::read_plane(std::vector<T>& v, std::size_t bytes) {
  if (whole_frame_seen_) {
    v.resize(bytes / sizeof(T));
    return stream_->read(v.data(), bytes);
  }
  v.clear();
  std::size_t got = 0;
  while (got < bytes) {
    const std::size_t step =
        std::min(bytes - got, std::max<std::size_t>(got, std::size_t{1} << 16));
    v.resize((got + step + sizeof(T) - 1) / sizeof(T));
    const std::size_t r = stream_->read(reinterpret_cast<unsigned char*>(v.data()) + got, step);
    got += r;
    if (r < step) break;
  }
  return got;
}

void ClipFileReader::check_samples(const LumaFrame& frame) const {
  const std::uint16_t largest = static_cast<std::uint16_t>((1u << frame.bit_depth) - 1u);
  const std::uint16_t* s = frame.samples16.data();
  const std::size_t n = frame.samples16.size();
  std::uint16_t high = 0;
  for (std::size_t i = 0; i < n; ++i) high = std::max(high, s[i]);  // vectorizes; no branch
  if (high <= largest) return;
  const std::size_t at = static_cast<std::size_t>(
      std::find_if(s, s + n, [&](std::uint16_t v) { return v > largest; }) - s);
  throw InputError(frame_name() + ": luma sample " + std::to_string(s[at]) + " at (x " +
                   std::to_string(at % frame.width) + ", y " + std::to_string(at / frame.width) +
                   ") exceeds " + std::to_string(largest) + ", the largest " +
                   std::to_string(frame.bit_depth) + "-bit value: the data is not " +
                   std::to_string(frame.bit_depth) + "-bit " + format().pixel_format() +
                   " (check the header's C tag or --pixel-format)");
}

void ClipFileReader::skip_rest(std::size_t got, std::uint64_t bytes) {
  const std::uint64_t skipped = stream_->skip(bytes);
  if (skipped < bytes) truncated(got + skipped);
}

bool ClipFileReader::read(LumaFrame& frame) {
  if (!begin_frame()) return false;
  const ClipFormat& f = format();
  frame.width = f.width;
  frame.height = f.height;
  frame.bit_depth = f.bit_depth;
  std::size_t got;
  if (f.bit_depth <= 8) {
    frame.samples16.clear();
    got = read_plane(frame.samples8, f.luma_bytes());
  } else {
    frame.samples8.clear();
    got = read_plane(frame.samples16, f.luma_bytes());
  }
  if (got < f.luma_bytes()) truncated(got);
  skip_rest(got, f.frame_bytes() - f.luma_bytes());
  if (f.bit_depth > 8) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (auto& s : frame.samples16) s = static_cast<std::uint16_t>((s >> 8) | (s << 8));
#endif
    check_samples(frame);
  }
  whole_frame_seen_ = true;
  counted();
  return true;
}

bool ClipFileReader::skip() {
  if (!begin_frame()) return false;
  skip_rest(0, format().frame_bytes());
  counted();
  return true;
}

}  // namespace mad
