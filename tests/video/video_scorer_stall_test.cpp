// A failure on the scoring side while the reader thread waits on a stalled pipe (issue 40's
// loose end): the distorted clip comes through a named pipe whose writer sends a few frames and
// then keeps the pipe open without writing, as a stuck ffmpeg would. The frame log fails on the
// first row; the run must end with that error at once, not when the writer goes away.
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
#include <thread>

#include "common/error.h"
#include "mad/video/video_scorer.h"
#include "tests/support/test_support.h"
#include "tests/video/video_test_clips.h"

namespace mad {
namespace {

constexpr int kW = 48, kH = 40;

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

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The rows of the frames before a stall and a failure among them: the frame log fails on row
// `failing_row` of the three frames the pipe delivers; the run must end with that error within
// seconds, whatever the pipe does.
void expect_a_prompt_failure(int failing_row) {
  const auto dir = test::fresh_scratch_dir("video_stall_" + std::to_string(failing_row));
  const std::string ref_path = (dir / "ref.y4m").string();
  const std::string sent_path = (dir / "sent.y4m").string();
  const std::string fifo = (dir / "dist.y4m").string();
  test::write_clip(ref_path, test::clip_frames(kW, kH, 8, false), true);
  // Three frames reach the pipe; the reader then waits there for the fourth.
  test::write_clip(sent_path, test::clip_frames(kW, kH, 3, true), true);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  StalledWriter writer(fifo, file_bytes(sent_path));

  const auto ref = ClipReader::open_y4m(ref_path);
  const auto dist = ClipReader::open_y4m(fifo);
  VideoOptions o;
  o.score.backend = Backend::Cpu;
  VideoScorer scorer(o, ResolvedBackend(Backend::Cpu));
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

// Row 0 fails while frame 1 is scored: the error is thrown at once, and the reader, waiting on
// the pipe for frame 3, is cancelled rather than waited for.
TEST(VideoScorerStall, AScoringFailureEndsTheRunWithoutWaitingForAStalledPipe) {
  expect_a_prompt_failure(0);
}

// Row 2 is the last frame before the stall: no later frame comes to push it out of the scorer,
// so the scoring finishes the pairs it holds once the reader has been idle a while.
TEST(VideoScorerStall, AFailureInTheLastFrameBeforeAStallIsFoundWithoutMoreFrames) {
  expect_a_prompt_failure(2);
}

// The cancel itself, on the reader alone: a read waiting on a pipe that gets no data ends with
// an InputError when another thread cancels it, and so does every later read.
TEST(VideoScorerStall, CancelEndsAReadWaitingOnAPipe) {
  const auto dir = test::fresh_scratch_dir("video_stall_cancel");
  const std::string sent_path = (dir / "sent.y4m").string();
  const std::string fifo = (dir / "dist.y4m").string();
  test::write_clip(sent_path, test::clip_frames(kW, kH, 1, true), true);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  StalledWriter writer(fifo, file_bytes(sent_path));
  const auto dist = ClipReader::open_y4m(fifo);
  LumaFrame frame;
  ASSERT_TRUE(dist->read(frame));
  auto waiting = std::async(std::launch::async, [&] {
    return test::thrown_message<InputError>([&] { dist->read(frame); });
  });
  EXPECT_EQ(waiting.wait_for(std::chrono::milliseconds(200)), std::future_status::timeout)
      << "the pipe has no second frame yet: the read waits";
  dist->cancel();
  const bool ended = waiting.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  EXPECT_TRUE(ended) << "cancel() did not wake the read";
  writer.release();
  EXPECT_NE(waiting.get().find("reading stopped"), std::string::npos);
  EXPECT_NE(test::thrown_message<InputError>([&] { dist->skip(); }).find("reading stopped"),
            std::string::npos);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace mad
