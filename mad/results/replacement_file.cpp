#include "mad/results/replacement_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <utility>

#include "common/error.h"

namespace mad::results {
namespace {

std::string random_suffix(std::mt19937_64& rng) {
  static const char kChars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string s(6, 'x');
  for (char& c : s) c = kChars[rng() % (sizeof kChars - 1)];
  return s;
}

}  // namespace

ReplacementFile::ReplacementFile(std::string path) : path_(std::move(path)) {
  // mkstemp's way (a random name, created with O_EXCL so no existing file is reused), but with
  // the mode an ordinary new file gets (0666 less the umask), not mkstemp's 0600: the result
  // replaces a file that others may read.
  std::random_device seed;
  std::mt19937_64 rng((static_cast<std::uint64_t>(seed()) << 32) ^ seed() ^
                      static_cast<std::uint64_t>(::getpid()));
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::string name = path_ + ".tmp." + random_suffix(rng);
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      temp_ = name;
      return;
    }
    if (errno != EEXIST)
      throw InputError("cannot write '" + name + "' (the temporary file replacing '" + path_ +
                       "'): " + std::strerror(errno));
  }
  throw InputError("cannot find a free temporary name beside '" + path_ + "'");
}

ReplacementFile::ReplacementFile(ReplacementFile&& other) noexcept
    : path_(std::move(other.path_)), temp_(std::exchange(other.temp_, {})) {}

ReplacementFile& ReplacementFile::operator=(ReplacementFile&& other) noexcept {
  if (this != &other) {
    if (!temp_.empty()) std::remove(temp_.c_str());
    path_ = std::move(other.path_);
    temp_ = std::exchange(other.temp_, {});
  }
  return *this;
}

ReplacementFile::~ReplacementFile() {
  if (!temp_.empty()) std::remove(temp_.c_str());
}

void ReplacementFile::commit() {
  std::error_code ec;
  std::filesystem::rename(temp_, path_, ec);
  if (ec) throw InputError("cannot replace '" + path_ + "': " + ec.message());
  temp_.clear();
}

}  // namespace mad::results
