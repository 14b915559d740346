// A one-line progress bar with rate and ETA for long batch jobs. It draws only when the stream
// is a terminal (so logs and pipes stay clean) and at most ~10 times a second. Without a total
// (a clip on a pipe: its length is known when it ends) it counts, with the rate and the time so
// far, instead of a bar and an ETA that would be made up.
#pragma once

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>

namespace mad {

class ProgressBar {
 public:
  // `total` items (nullopt: not known); `unit` names them in the rate ("pairs/s"). Draws on
  // `out` (stderr).
  ProgressBar(std::optional<std::size_t> total, std::string unit, std::FILE* out = stderr);
  ~ProgressBar();
  // Records one finished item (failed or not) and redraws when due.
  void tick(bool failed = false);
  // Clears the line (call before printing other text); the next tick redraws.
  void clear();
  void finish();
  bool enabled() const { return enabled_; }
  std::size_t done() const { return done_; }
  std::size_t failed() const { return failed_; }
  double elapsed_seconds() const;

 private:
  void draw(bool force);
  std::optional<std::size_t> total_;
  std::string unit_;
  std::FILE* out_;
  bool enabled_;
  bool finished_ = false;
  std::size_t done_ = 0, failed_ = 0;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

// "1h02m", "3m05s", "12s".
std::string format_duration(double seconds);

}  // namespace mad
