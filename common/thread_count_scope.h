// A worker count for one thread's work alone. set_thread_count (common/parallel.h) is the
// process's, right for a command line's --threads; a library caller that runs scorers with
// different counts on several threads (two Python Scorers, threads=1 and threads=8) needs the
// count to follow the work, not the process.
#pragma once

namespace mad {

// While it lives, thread_count() on the constructing thread (and in the workers its
// parallel_for calls start) is `threads`; 0 leaves the process's count in force. Restores the
// previous count of the thread when it ends. Not movable: it belongs to a scope.
class ThreadCountScope {
 public:
  explicit ThreadCountScope(int threads);
  ~ThreadCountScope();
  ThreadCountScope(const ThreadCountScope&) = delete;
  ThreadCountScope& operator=(const ThreadCountScope&) = delete;

 private:
  int previous_;
};

}  // namespace mad
