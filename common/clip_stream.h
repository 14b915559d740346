// The byte source under the clip readers (common/clip_reader.h): a file descriptor with one
// reused buffer. Large reads (a frame's luma plane) go straight from read(2) into the caller's
// memory, skips seek on regular files and read into the buffer on pipes, and a few bytes can
// be looked at before they are read (to tell Y4M from raw data on a pipe). Memory is the one
// buffer, whatever the clip's length. A read waiting on a pipe can be cancelled from another
// thread (cancel()).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace mad {

class ClipStream {
 public:
  // Opens `path` for reading; "-" is standard input (not closed by the destructor).
  // InputError naming the file when it is missing, unreadable or a directory.
  explicit ClipStream(const std::string& path);
  ~ClipStream();
  ClipStream(const ClipStream&) = delete;
  ClipStream& operator=(const ClipStream&) = delete;

  // The name used in messages: the path, or "standard input" for "-".
  const std::string& name() const { return name_; }
  // True for a regular file (skips seek; its size tells what is left).
  bool regular() const { return regular_; }

  // Reads up to n bytes into dst; fewer only at the end of the stream.
  std::size_t read(void* dst, std::size_t n);
  // Skips up to n bytes; fewer only at the end of the stream.
  std::uint64_t skip(std::uint64_t n);
  // The next byte, or -1 at the end.
  int get();
  // The next n bytes (fewer at the end) without consuming them; n at most 4096.
  std::string peek(std::size_t n);
  // True when no byte is left.
  bool at_end() { return peek(1).empty(); }
  // Bytes left in a regular file (now), -1 for a pipe or terminal.
  std::int64_t remaining() const;
  // Safe from any thread: a read blocked on a pipe that gets no data (a stalled writer) wakes
  // and throws InputError, and so does every later read, so that a run whose scoring failed
  // can end without waiting for the pipe. A regular file never blocks and reads on.
  void cancel();

 private:
  std::size_t read_some(unsigned char* dst, std::size_t n);  // one read(2); 0 at the end
  void wait_readable();  // a pipe's wait for data, which cancel() ends
  std::size_t fill();  // reads into the buffer's free tail; 0 at the end
  [[noreturn]] void fail(const std::string& what) const;

  std::string name_;
  int fd_ = -1;
  int wake_fd_ = -1;  // an eventfd that cancel() writes, watched beside a pipe's fd
  std::atomic<bool> cancelled_{false};
  bool owned_ = false, regular_ = false;
  std::vector<unsigned char> buffer_;
  std::size_t begin_ = 0, end_ = 0;  // the unread bytes are buffer_[begin_, end_)
};

}  // namespace mad
