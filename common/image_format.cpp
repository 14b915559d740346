// Reading a file into memory and recognising its format by magic bytes. Decoding from memory
// means a truncated file is seen by every codec the same way: as data that ends too early.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "common/error.h"
#include "common/image_io_detail.h"

namespace mad::io_detail {
namespace {

bool starts_with(const std::vector<std::uint8_t>& bytes, const char* magic, std::size_t n) {
  return bytes.size() >= n && std::memcmp(bytes.data(), magic, n) == 0;
}

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

void throw_input_error(const std::string& path, const std::string& reason) {
  throw InputError("cannot load image '" + path + "': " + reason);
}

void check_header(const std::string& path, long long width, long long height, int channels,
                  int bit_depth) {
  if (width <= 0 || height <= 0)
    throw_input_error(path, "empty image (" + std::to_string(width) + " x " +
                                std::to_string(height) + " pixels)");
  if (static_cast<unsigned long long>(width) * static_cast<unsigned long long>(height) > kMaxPixels)
    throw_input_error(path, "image too large (" + std::to_string(width) + " x " +
                                std::to_string(height) + " pixels; corrupt header?)");
  if (channels < 1 || channels > 4)
    throw_input_error(
        path, "unsupported channel count " + std::to_string(channels) + " (expected 1 to 4)");
  if (bit_depth != 8 && bit_depth != 16)
    throw_input_error(path, "unsupported bit depth " + std::to_string(bit_depth) +
                                " (expected 8 or 16 bits per sample)");
}

std::vector<std::uint8_t> read_file_bytes(const std::string& path) {
  std::vector<std::uint8_t> bytes;
  read_file_bytes(path, bytes);
  return bytes;
}

void read_file_bytes(const std::string& path, std::vector<std::uint8_t>& bytes) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (status.type() == std::filesystem::file_type::not_found)
    throw_input_error(path, "file not found");
  if (status.type() == std::filesystem::file_type::none)  // e.g. a folder we may not enter
    throw_input_error(path, "cannot access file: " + ec.message());
  if (std::filesystem::is_directory(status)) throw_input_error(path, "is a directory, not a file");

  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) throw_input_error(path, std::string("cannot open file: ") + std::strerror(errno));

  // One buffer of the file's size, filled by one read. Growing a vector 64 KiB at a time
  // reallocated a 25 MB 4K BMP 9 times, and each new block's pages faulted in afresh: decoding
  // such a file took 103-107 ms on one thread of the 2-core CI-like machine, 25 ms since, and
  // 55-117 ms an image on the 32-core GPU host's decoding threads, 32-45 ms since (each unmap
  // of a dropped block also stalls the process's other threads). The size is only a hint:
  // reading goes on to the end of the file, so pipes, and files that grow meanwhile, are read
  // whole as before. A kept buffer (thread_file_buffer) is resized to the file's size: within
  // its capacity nothing is allocated, and a shrink writes nothing.
  struct stat info {};
  if (fstat(fileno(file.get()), &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0)
    bytes.resize(static_cast<std::size_t>(info.st_size));
  else
    bytes.clear();
  std::size_t filled = 0;
  for (;;) {
    if (filled == bytes.size()) {  // full: does the file go on?
      const int next = std::fgetc(file.get());
      if (next == EOF) break;
      bytes.resize(std::max<std::size_t>(2 * bytes.size(), 1 << 16));
      bytes[filled++] = static_cast<std::uint8_t>(next);
    }
    const std::size_t n = std::fread(bytes.data() + filled, 1, bytes.size() - filled, file.get());
    filled += n;
    if (filled < bytes.size()) break;  // end of file (or an error, checked below)
  }
  bytes.resize(filled);
  if (std::ferror(file.get()))
    throw_input_error(path, std::string("read error: ") + std::strerror(errno));
  if (bytes.empty()) throw_input_error(path, "file is empty");
}

namespace {
thread_local std::vector<std::uint8_t> t_file_buffer;
thread_local std::vector<std::uint8_t> t_spare_samples;
}  // namespace

std::vector<std::uint8_t>& thread_file_buffer() {
  return t_file_buffer;
}

}  // namespace mad::io_detail

namespace mad {

void recycle_samples(std::vector<std::uint8_t>&& samples) {
  // The larger of the two is kept: a thread decoding one dataset sees one size.
  if (samples.capacity() > io_detail::kKeptBytes ||
      samples.capacity() <= io_detail::t_spare_samples.capacity()) {
    std::vector<std::uint8_t>().swap(samples);
    return;
  }
  samples.resize(samples.capacity());  // take_sample_buffer then shrinks without writing
  io_detail::t_spare_samples.swap(samples);
  std::vector<std::uint8_t>().swap(samples);
}

}  // namespace mad

namespace mad::io_detail {

std::vector<std::uint8_t> take_sample_buffer(std::size_t bytes) {
  std::vector<std::uint8_t> v;
  if (t_spare_samples.capacity() >= bytes) v.swap(t_spare_samples);
  v.resize(bytes);  // within the spare's capacity: no allocation, and a shrink writes nothing
  return v;
}

FileFormat sniff_format(const std::vector<std::uint8_t>& bytes) {
  if (starts_with(bytes, "\x89PNG\r\n\x1a\n", 8)) return FileFormat::kPng;
  if (starts_with(bytes, "\xff\xd8\xff", 3)) return FileFormat::kJpeg;
  // Classic TIFF ("II*\0" / "MM\0*") and BigTIFF ("II+\0" / "MM\0+").
  if (starts_with(bytes, "II*\0", 4) || starts_with(bytes, "MM\0*", 4) ||
      starts_with(bytes, "II+\0", 4) || starts_with(bytes, "MM\0+", 4))
    return FileFormat::kTiff;
  if (starts_with(bytes, "BM", 2)) return FileFormat::kBmp;
  // Binary PGM (P5) and PPM (P6) only; the magic is followed by whitespace.
  if (bytes.size() >= 3 && bytes[0] == 'P' && (bytes[1] == '5' || bytes[1] == '6') &&
      std::strchr(" \t\r\n", bytes[2]) != nullptr && bytes[2] != '\0')
    return FileFormat::kPnm;
  return FileFormat::kUnknown;
}

std::string describe_unknown_format(const std::vector<std::uint8_t>& bytes) {
  if (starts_with(bytes, "GIF87a", 6) || starts_with(bytes, "GIF89a", 6))
    return "GIF images are not supported (use PNG)";
  if (bytes.size() >= 12 && starts_with(bytes, "RIFF", 4) &&
      std::memcmp(bytes.data() + 8, "WEBP", 4) == 0)
    return "WebP images are not supported (use PNG)";
  if (bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] >= '1' && bytes[1] <= '4')
    return "ASCII or 1-bit PNM (P1-P4) is not supported (use binary P5/P6)";
  if (bytes.size() >= 2 && bytes[0] == 'P' && bytes[1] == '7')
    return "PAM (P7) is not supported (use binary P5/P6)";
  return "not an image file, or an unknown format (expected PNG, JPEG, TIFF, BMP or PGM/PPM)";
}

}  // namespace mad::io_detail
