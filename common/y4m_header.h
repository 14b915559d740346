// The YUV4MPEG2 stream header and frame header (the mjpegtools yuv4mpeg(5) layout that ffmpeg
// reads and writes): "YUV4MPEG2" and space-separated tags up to a newline, then per frame
// "FRAME", optional space-separated parameters and a newline before the planes.
#pragma once

#include <string>

#include "common/clip_reader.h"

namespace mad {

// The magic that starts every Y4M stream, with its separating space.
inline constexpr const char* kY4mMagic = "YUV4MPEG2 ";

// The stream header's line (without its newline) as a format, for the file `name`.
// InputError naming the file: not YUV4MPEG2, W/H missing or not positive integers, F not two
// positive integers, interlaced or unknown field order, a C tag mad does not read.
ClipFormat parse_y4m_header(const std::string& line, const std::string& name);

// The C tags mad reads, space-separated (for messages and docs).
std::string y4m_colorspaces();

}  // namespace mad
