// A failure on the scoring side while the reader thread waits on a stalled pipe (issue 40's
// loose end), on the CPU: the distorted clip comes through a named pipe whose writer sends
// three frames and then keeps the pipe open without writing (tests/video/stalled_pipe.h). The
// frame log fails; the run must end with that error at once, not when the writer goes away.
// The CUDA variant (pairs in flight) is video_scorer_stall_cuda_test.cpp.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <future>
#include <thread>

#include "common/error.h"
#include "mad/video/video_scorer.h"
#include "mad/video/video_scorer_queue.h"
#include "tests/support/test_support.h"
#include "tests/video/stalled_pipe.h"
#include "tests/video/video_test_clips.h"

namespace mad {
namespace {

using test::expect_a_prompt_failure;
using test::file_bytes;
using test::StalledWriter;

// Row 0 fails while frame 1 is scored: the error is thrown at once, and the reader, waiting on
// the pipe for frame 3, is cancelled rather than waited for.
TEST(VideoScorerStall, AScoringFailureEndsTheRunWithoutWaitingForAStalledPipe) {
  expect_a_prompt_failure(Backend::Cpu, 0);
}

// Row 2, the last frame before the stall (on the CPU a row comes out as its pair goes in; the
// GPU's pairs in flight, which the idle drain pushes out, are the CUDA variant's).
TEST(VideoScorerStall, AFailureInTheLastFrameBeforeAStallEndsTheRun) {
  expect_a_prompt_failure(Backend::Cpu, 2);
}

// The scorer's side of a quiet reader: pop() runs its idle hook once when no pair has come for
// the idle time (the scorer then finishes the pairs it holds), and never when a pair is ready.
TEST(VideoScorerStall, TheQueueCallsItsIdleHookOnlyWhenTheReaderIsQuiet) {
  video_detail::FramePairQueue queue(4);
  int idle_calls = 0;
  const auto idle = [&] { ++idle_calls; };
  video_detail::FramePair pair;
  pair.frame = 7;
  ASSERT_TRUE(queue.push(std::move(pair)));
  ASSERT_TRUE(queue.pop(pair, std::chrono::milliseconds(50), idle));
  EXPECT_EQ(pair.frame, 7);
  EXPECT_EQ(idle_calls, 0) << "a pair was ready: no reason to finish the pairs in flight";
  std::thread late([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    video_detail::FramePair next;
    next.frame = 8;
    queue.push(std::move(next));
  });
  ASSERT_TRUE(queue.pop(pair, std::chrono::milliseconds(50), idle));
  late.join();
  EXPECT_EQ(pair.frame, 8);
  EXPECT_EQ(idle_calls, 1) << "the reader was quiet for 300 ms: the hook runs once";
}

// The cancel itself, on the reader alone: a read waiting on a pipe that gets no data ends with
// an InputError when another thread cancels it, and so does every later read.
TEST(VideoScorerStall, CancelEndsAReadWaitingOnAPipe) {
  const auto dir = test::fresh_scratch_dir("video_stall_cancel");
  const std::string sent_path = (dir / "sent.y4m").string();
  const std::string fifo = (dir / "dist.y4m").string();
  test::write_clip(sent_path, test::clip_frames(test::kStallW, test::kStallH, 1, true), true);
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
