// Clip files for the clip reader tests (tests/common/clip_*_test.cpp): a writer of Y4M and raw
// planar clips in any ClipFormat with known luma and chroma, and a writer thread that feeds
// a pipe or a FIFO as ffmpeg would.
#pragma once

#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "common/clip_reader.h"

namespace mad::test {

// Luma sample (x, y) of frame t: every value of the bit depth occurs, and the neighbours differ.
inline std::uint32_t clip_luma(const ClipFormat& f, int x, int y, int t) {
  return static_cast<std::uint32_t>(x * 7 + y * 131 + t * 29 + 3) % (1u << f.bit_depth);
}
// Chroma samples differ from every nearby luma value, so a reader that misplaces a plane by
// any amount reads wrong luma.
inline std::uint32_t clip_chroma(const ClipFormat& f, std::size_t i) {
  return static_cast<std::uint32_t>(i * 5 + 77) % (1u << f.bit_depth);
}

// The bytes of `frames` frames: with a Y4M header line when `y4m_header` is not empty (newline
// added) and `frame_header` (e.g. "FRAME\n") before each frame, else raw planes.
std::string clip_bytes(const ClipFormat& f, int frames, const std::string& y4m_header,
                       const std::string& frame_header = "FRAME\n");
// "YUV4MPEG2 W.. H.. F25:1 Ip A1:1 C<tag>" for the format (tag: f.y4m_colorspace).
std::string y4m_header_for(const ClipFormat& f);
void write_bytes(const std::string& path, const std::string& bytes);

// Checks that `frame` holds frame t of clip_luma (gtest expectations).
void expect_clip_frame(const ClipFormat& f, const LumaFrame& frame, int t);
// Reads every frame and checks each against clip_luma; the end comes exactly after `frames`.
void expect_whole_clip(ClipReader& reader, const ClipFormat& f, int frames);
// Follows `plan`, one letter a frame (s: skip, r: read and check against clip_luma), then
// expects the end, with every frame counted.
void expect_plan(ClipReader& reader, const ClipFormat& f, const std::string& plan);

// Writes `bytes` to fd (closing it) on its own thread, as a producer on the other end of a pipe.
class PipeWriter {
 public:
  PipeWriter(int fd, std::string bytes, int delay_ms = 0);
  // Opens `fifo` for writing on the thread (it blocks until a reader opens it).
  PipeWriter(const std::string& fifo, std::string bytes);
  ~PipeWriter();

 private:
  std::thread thread_;
};

// Standard input replaced by the read end of a pipe for the object's life; the write end is
// fed `bytes` by a PipeWriter.
// With `nonblocking`, the read end is O_NONBLOCK and the writer starts 50 ms late, so the
// reader meets an empty non-blocking pipe (EAGAIN) first.
class StdinFromPipe {
 public:
  explicit StdinFromPipe(std::string bytes, bool nonblocking = false);
  ~StdinFromPipe();

 private:
  int saved_ = -1;
  std::unique_ptr<PipeWriter> writer_;
};

namespace clip_detail {

inline void put_sample(std::string& out, const ClipFormat& f, std::uint32_t v) {
  out += static_cast<char>(v & 0xff);
  if (f.bit_depth > 8) out += static_cast<char>(v >> 8);  // little-endian
}

inline void write_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) break;  // the reader closed early (a test of an error): stop
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
}

}  // namespace clip_detail

inline std::string clip_bytes(const ClipFormat& f, int frames, const std::string& y4m_header,
                              const std::string& frame_header) {
  std::string out;
  if (!y4m_header.empty()) out += y4m_header + "\n";
  const std::size_t sample = f.bit_depth > 8 ? 2 : 1;
  const std::size_t chroma = (f.frame_bytes() - f.luma_bytes()) / sample;
  for (int t = 0; t < frames; ++t) {
    if (!y4m_header.empty()) out += frame_header;
    for (int y = 0; y < f.height; ++y)
      for (int x = 0; x < f.width; ++x) clip_detail::put_sample(out, f, clip_luma(f, x, y, t));
    for (std::size_t i = 0; i < chroma; ++i) clip_detail::put_sample(out, f, clip_chroma(f, i));
  }
  return out;
}

inline std::string y4m_header_for(const ClipFormat& f) {
  return "YUV4MPEG2 W" + std::to_string(f.width) + " H" + std::to_string(f.height) +
         " F25:1 Ip A1:1 C" + f.y4m_colorspace;
}

inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << path;
}

inline void expect_clip_frame(const ClipFormat& f, const LumaFrame& frame, int t) {
  ASSERT_EQ(frame.width, f.width);
  ASSERT_EQ(frame.height, f.height);
  ASSERT_EQ(frame.bit_depth, f.bit_depth);
  ASSERT_EQ(f.bit_depth > 8 ? frame.samples16.size() : frame.samples8.size(), frame.pixels());
  int wrong = 0;
  for (int y = 0; y < f.height; ++y)
    for (int x = 0; x < f.width; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * f.width + x;
      const std::uint32_t got = f.bit_depth > 8 ? frame.samples16[i] : frame.samples8[i];
      if (got != clip_luma(f, x, y, t) && ++wrong <= 3)
        ADD_FAILURE() << f.pixel_format() << " frame " << t << " (" << x << ", " << y
                      << "): " << got << " != " << clip_luma(f, x, y, t);
    }
  EXPECT_EQ(wrong, 0);
}

inline void expect_whole_clip(ClipReader& reader, const ClipFormat& f, int frames) {
  LumaFrame frame;
  for (int t = 0; t < frames; ++t) {
    ASSERT_TRUE(reader.read(frame)) << f.y4m_colorspace << " frame " << t;
    expect_clip_frame(f, frame, t);
  }
  EXPECT_FALSE(reader.read(frame));
  EXPECT_FALSE(reader.read(frame)) << "the end stays the end";
  EXPECT_EQ(reader.frames_read(), frames);
}

inline void expect_plan(ClipReader& reader, const ClipFormat& f, const std::string& plan) {
  LumaFrame frame;
  for (std::size_t t = 0; t < plan.size(); ++t) {
    if (plan[t] == 's') {
      ASSERT_TRUE(reader.skip()) << "frame " << t;
      continue;
    }
    ASSERT_TRUE(reader.read(frame)) << "frame " << t;
    expect_clip_frame(f, frame, static_cast<int>(t));
  }
  EXPECT_FALSE(reader.skip());
  EXPECT_FALSE(reader.read(frame));
  EXPECT_EQ(reader.frames_read(), static_cast<std::int64_t>(plan.size()));
}

inline PipeWriter::PipeWriter(int fd, std::string bytes, int delay_ms)
    : thread_([fd, bytes = std::move(bytes), delay_ms] {
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        clip_detail::write_all(fd, bytes);
      }) {}

inline PipeWriter::PipeWriter(const std::string& fifo, std::string bytes)
    : thread_([fifo, bytes = std::move(bytes)] {
        const int fd = ::open(fifo.c_str(), O_WRONLY);
        if (fd >= 0) clip_detail::write_all(fd, bytes);
      }) {}

inline PipeWriter::~PipeWriter() {
  thread_.join();
}

inline StdinFromPipe::StdinFromPipe(std::string bytes, bool nonblocking) {
  // A reader that stops early closes nothing, so the writer sees EPIPE, not a signal.
  ::signal(SIGPIPE, SIG_IGN);
  int fds[2];
  if (::pipe(fds) != 0) ADD_FAILURE() << "pipe";
  saved_ = ::dup(STDIN_FILENO);
  ::dup2(fds[0], STDIN_FILENO);
  ::close(fds[0]);
  if (nonblocking) ::fcntl(STDIN_FILENO, F_SETFL, ::fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
  writer_ = std::make_unique<PipeWriter>(fds[1], std::move(bytes), nonblocking ? 50 : 0);
}

inline StdinFromPipe::~StdinFromPipe() {
  // Restoring stdin closes the pipe's last read end: a writer still blocked gets EPIPE.
  ::dup2(saved_, STDIN_FILENO);
  ::close(saved_);
  writer_.reset();
}

}  // namespace mad::test
