#include "common/text_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/error.h"

namespace mad {
namespace {

std::string reason(int err) { return err ? std::strerror(err) : "an unknown write error"; }

}  // namespace

void write_text_file(const std::string& path, const std::string& text) {
  // stdio rather than a stream: fwrite and fclose leave the system's reason in errno.
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) throw InputError("cannot write '" + path + "': " + reason(errno));
  const bool written = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const int write_err = errno;
  errno = 0;
  const bool closed = std::fclose(f) == 0;  // flushes: a full disk shows here
  if (!written || !closed)
    throw InputError("cannot write '" + path + "': " + reason(written ? errno : write_err));
}

void require_writable(const std::string& path, const std::string& option) {
  if (path.empty()) return;
  // O_APPEND without O_TRUNC: an existing file keeps its bytes until the run replaces it.
  errno = 0;
  int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  const bool created = fd >= 0;
  if (!created && errno == EEXIST) fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0)
    throw InputError(option + " '" + path + "' cannot be written: " + reason(errno));
  ::close(fd);
  if (created) ::unlink(path.c_str());
}

}  // namespace mad
