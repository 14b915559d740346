// The reader thread's hand-over to the scoring thread in mad/video/video_scorer.cpp: a queue of
// at most `capacity` frame pairs, so that reading runs ahead of the scoring by a few frames and
// memory does not grow with the clip. The reader pushes pairs, then one end (or its error); the
// scorer pops them in order. stop() (the scorer gave up: a GPU error, an interrupt) wakes a
// reader blocked on a full queue so that it can end.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>

#include "common/luma_frame.h"

namespace mad::video_detail {

struct FramePair {
  std::int64_t frame = 0;  // the frame's number in both clips (0-based)
  LumaFrame ref, dist;
};

// What the reader found when it stopped: the frames read or skipped in each clip, whether each
// clip ended (else the range did), or the error that stopped it.
struct ReadEnd {
  std::int64_t ref_frames = 0, dist_frames = 0;
  bool ref_ended = false, dist_ended = false;
  std::exception_ptr error;
};

class FramePairQueue {
 public:
  explicit FramePairQueue(std::size_t capacity) : capacity_(capacity) {}

  // Blocks while the queue is full; false when the scorer stopped (the pair is dropped).
  bool push(FramePair&& pair) {
    std::unique_lock<std::mutex> lock(mutex_);
    room_.wait(lock, [&] { return stopped_ || pairs_.size() < capacity_; });
    if (stopped_) return false;
    pairs_.push_back(std::move(pair));
    ready_.notify_one();
    return true;
  }
  void finish(ReadEnd end) {
    std::lock_guard<std::mutex> lock(mutex_);
    end_ = std::move(end);
    ended_ = true;
    ready_.notify_one();
  }
  // The next pair (true), or false once the reader has finished and every pair was taken.
  // When none has come for `idle` (the reader waits on a slow or stalled pipe), `on_idle` runs
  // once, unlocked, before the wait goes on: the scorer then finishes the pairs it holds, so
  // that their rows, and a failure among them, do not wait for the pipe.
  template <class Rep, class Period, class OnIdle>
  bool pop(FramePair& pair, std::chrono::duration<Rep, Period> idle, OnIdle&& on_idle) {
    std::unique_lock<std::mutex> lock(mutex_);
    const auto has_pair = [&] { return ended_ || !pairs_.empty(); };
    if (!ready_.wait_for(lock, idle, has_pair)) {
      lock.unlock();
      on_idle();
      lock.lock();
    }
    ready_.wait(lock, has_pair);
    if (pairs_.empty()) return false;
    pair = std::move(pairs_.front());
    pairs_.pop_front();
    room_.notify_one();
    return true;
  }
  // Valid after pop returned false.
  const ReadEnd& end() const { return end_; }
  void stop() {
    std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
    room_.notify_all();
  }
  bool stopped() {
    std::lock_guard<std::mutex> lock(mutex_);
    return stopped_;
  }

 private:
  std::size_t capacity_;
  std::mutex mutex_;
  std::condition_variable room_, ready_;
  std::deque<FramePair> pairs_;
  ReadEnd end_;
  bool ended_ = false, stopped_ = false;
};

}  // namespace mad::video_detail
