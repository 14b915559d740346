#include "common/clip_stream.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/error.h"

namespace mad {
namespace {

// A pipe's buffer: 1 MiB, the size the pipe itself is raised to, so one read takes all the
// writer has put in. Reads of a whole luma plane bypass it either way.
constexpr std::size_t kPipeBufferBytes = std::size_t{1} << 20;
// A regular file's buffer: only the FRAME lines and the bytes after a seek pass through it
// (each fill after a chroma seek copies a buffer's worth of the next luma plane once more), and
// the kernel's read-ahead does the batching, so 64 KiB is enough.
constexpr std::size_t kFileBufferBytes = std::size_t{1} << 16;
constexpr std::size_t kMaxPeek = 4096;

}  // namespace

ClipStream::ClipStream(const std::string& path) : name_(path == "-" ? "standard input" : path) {
  if (path == "-") {
    fd_ = STDIN_FILENO;
  } else {
    do {
      fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    } while (fd_ < 0 && errno == EINTR);
    if (fd_ < 0) fail("cannot open");
    owned_ = true;
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail("cannot read");
  if (S_ISDIR(st.st_mode)) {
    if (owned_) ::close(fd_);
    owned_ = false;
    throw InputError(name_ + ": is a directory, not a clip");
  }
  regular_ = S_ISREG(st.st_mode);
  // A pipe holds 64 KiB by default: a 1080p frame would then take 48 wake-ups of the writer
  // (ffmpeg) and the reader each. A larger pipe (1 MiB is the default limit for any user) lets
  // both move big pieces; where the system refuses, the pipe stays as it was.
  if (S_ISFIFO(st.st_mode)) (void)::fcntl(fd_, F_SETPIPE_SZ, static_cast<int>(kPipeBufferBytes));
  buffer_.resize(regular_ ? kFileBufferBytes : kPipeBufferBytes);
  // A read of a pipe, a terminal or a socket may wait for ever; cancel() wakes it through this.
  if (!regular_) {
    wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (wake_fd_ < 0) {
      if (owned_) ::close(fd_);
      owned_ = false;
      fail("cannot make the event that stops a read");
    }
  }
}

ClipStream::~ClipStream() {
  if (owned_) ::close(fd_);
  if (wake_fd_ >= 0) ::close(wake_fd_);
}

void ClipStream::cancel() {
  cancelled_ = true;
  if (wake_fd_ >= 0) {
    const std::uint64_t one = 1;
    (void)!::write(wake_fd_, &one, sizeof one);  // a full counter is already a wake-up
  }
}

// On a stream that can block: waits until `fd_` has data (or its end, or an error, which the
// read then reports), or throws once cancel() was called.
void ClipStream::wait_readable() {
  for (;;) {
    struct pollfd p[2] = {{fd_, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
    const int ready = ::poll(p, 2, -1);
    if (ready < 0 && errno != EINTR) fail("cannot wait for data");
    if (cancelled_) throw InputError(name_ + ": reading stopped (the run ended)");
    if (ready > 0 && p[0].revents != 0) return;
  }
}

void ClipStream::fail(const std::string& what) const {
  throw InputError(name_ + ": " + what + ": " + std::strerror(errno));
}

std::size_t ClipStream::read_some(unsigned char* dst, std::size_t n) {
  for (;;) {
    if (wake_fd_ >= 0) wait_readable();
    const ssize_t got = ::read(fd_, dst, n);
    if (got >= 0) return static_cast<std::size_t>(got);
    if (errno == EINTR) continue;
    // A non-blocking pipe (a parent may hand one over as standard input): wait for data again.
    if ((errno == EAGAIN || errno == EWOULDBLOCK) && wake_fd_ >= 0) continue;
    fail("cannot read");
  }
}

std::size_t ClipStream::fill() {
  if (begin_ == end_) begin_ = end_ = 0;
  const std::size_t got = read_some(buffer_.data() + end_, buffer_.size() - end_);
  end_ += got;
  return got;
}

std::size_t ClipStream::read(void* dst, std::size_t n) {
  auto* out = static_cast<unsigned char*>(dst);
  std::size_t done = std::min(n, end_ - begin_);
  std::memcpy(out, buffer_.data() + begin_, done);
  begin_ += done;
  while (done < n) {
    if (n - done >= buffer_.size()) {
      // A large read goes straight into the caller's memory: one copy less.
      const std::size_t got = read_some(out + done, n - done);
      if (got == 0) break;
      done += got;
    } else {
      if (fill() == 0) break;
      const std::size_t take = std::min(n - done, end_ - begin_);
      std::memcpy(out + done, buffer_.data() + begin_, take);
      begin_ += take;
      done += take;
    }
  }
  return done;
}

std::uint64_t ClipStream::skip(std::uint64_t n) {
  std::uint64_t done = std::min<std::uint64_t>(n, end_ - begin_);
  begin_ += static_cast<std::size_t>(done);
  if (done == n) return done;
  if (regular_) {
    // Seek no further than the file's end, so that a short file shows as a short skip.
    const std::int64_t left = remaining();
    const std::uint64_t step = std::min<std::uint64_t>(n - done, static_cast<std::uint64_t>(left));
    if (::lseek(fd_, static_cast<off_t>(step), SEEK_CUR) < 0) fail("cannot seek");
    return done + step;
  }
  while (done < n) {
    if (fill() == 0) break;
    const std::size_t take =
        static_cast<std::size_t>(std::min<std::uint64_t>(n - done, end_ - begin_));
    begin_ += take;
    done += take;
  }
  return done;
}

int ClipStream::get() {
  if (begin_ == end_ && fill() == 0) return -1;
  return buffer_[begin_++];
}

std::string ClipStream::peek(std::size_t n) {
  n = std::min(n, kMaxPeek);
  if (end_ - begin_ < n && buffer_.size() - begin_ < n) {
    // Too close to the buffer's end: move the unread bytes to its start.
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  while (end_ - begin_ < n && fill() > 0) {
  }
  const std::size_t have = std::min(n, end_ - begin_);
  return std::string(reinterpret_cast<const char*>(buffer_.data() + begin_), have);
}

std::int64_t ClipStream::remaining() const {
  if (!regular_) return -1;
  struct stat st {};
  const off_t at = ::lseek(fd_, 0, SEEK_CUR);
  if (at < 0 || ::fstat(fd_, &st) != 0) fail("cannot read");
  const std::int64_t left = static_cast<std::int64_t>(st.st_size) - static_cast<std::int64_t>(at) +
                            static_cast<std::int64_t>(end_ - begin_);
  return std::max<std::int64_t>(left, 0);
}

}  // namespace mad
