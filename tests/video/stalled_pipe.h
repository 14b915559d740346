// A named pipe whose writer stalls, for the tests of a failure while the video scorer's reader
// waits on it (tests/video/video_scorer_stall_test.cpp, video_scorer_stall_cuda_test.cpp): the
// writer sends a few frames and then keeps the pipe open without writing, as a stuck ffmpeg
// would.
#pragma once

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <memory>
#include <string>
#include <thread>

#include "common/error.h"
#include "mad/video/video_scorer.h"
#include "tests/support/test_support.h"
#include "tests/video/video_test_clips.h"

namespace mad::test {

constexpr int kStallW = 48, kStallH = 40;

// Writes `bytes` into `fifo` (opening it blocks until the reader opens it), then holds the pipe
// open without writing until release() or the destructor.
class StalledWriter {
 public:
  StalledWriter(const std::string& fifo, std::string bytes)
      : fifo_(fifo),
        thread_([this, fifo, bytes = std::move(bytes)] {
          const int fd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
          if (fd < 0) return;
          for (std::size_t done = 0; done < bytes.size();) {
            const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
            if (n <= 0) break;
            done += static_cast<std::size_t>(n);
          }
          released_.get_future().wait();
          ::close(fd);
        }) {}
  ~StalledWriter() {
    release();
    // A test that failed before opening the pipe leaves the writer waiting in open(): this
    // read end lets it through.
    const int unblock = ::open(fifo_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    thread_.join();
    if (unblock >= 0) ::close(unblock);
  }
  void release() {
    if (!released_once_) released_.set_value();
    released_once_ = true;
  }

 private:
  std::string fifo_;
  std::promise<void> released_;
  bool released_once_ = false;
  std::thread thread_;
};

inline std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The rows of the frames before a stall and a failure among them: the frame log fails on row
// `failing_row` of the three frames the pipe delivers; the run must end with that error within
// seconds, whatever the pipe does.
inline void expect_a_prompt_failure(Backend backend, int failing_row) {
  const auto dir = test::fresh_scratch_dir("video_stall_" + std::to_string(failing_row));
  const std::string ref_path = (dir / "ref.y4m").string();
  const std::string sent_path = (dir / "sent.y4m").string();
  const std::string fifo = (dir / "dist.y4m").string();
  test::write_clip(ref_path, test::clip_frames(kStallW, kStallH, 8, false), true);
  // Three frames reach the pipe; the reader then waits there for the fourth.
  test::write_clip(sent_path, test::clip_frames(kStallW, kStallH, 3, true), true);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  StalledWriter writer(fifo, file_bytes(sent_path));

  const auto ref = ClipReader::open_y4m(ref_path);
  const auto dist = ClipReader::open_y4m(fifo);
  VideoOptions o;
  o.score.backend = backend;
  VideoScorer scorer(o, ResolvedBackend(backend));
  auto run = std::async(std::launch::async, [&] {
    return test::thrown_message<InputError>([&] {
      scorer.score(*ref, *dist, [&](const FrameRow& row) {
        if (row.frame == failing_row) throw InputError("log.json: No space left on device");
      });
    });
  });
  const bool ended = run.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  EXPECT_TRUE(ended) << "the run waited for the stalled pipe (failing row " << failing_row << ")";
  writer.release();  // lets a run that waited end, so that the test does
  const std::string message = run.get();
  EXPECT_NE(message.find("No space left on device"), std::string::npos) << message;
  std::filesystem::remove_all(dir);
}

}  // namespace mad::test
