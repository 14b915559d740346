#include "common/progress_bar.h"

#include <unistd.h>

#include <cmath>

namespace mad {

std::string format_duration(double s) {
  if (!std::isfinite(s) || s < 0) return "--";
  const long t = static_cast<long>(s + 0.5);
  char buf[32];
  if (t >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, (t / 60) % 60);
  else if (t >= 60)
    std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
  else
    std::snprintf(buf, sizeof buf, "%lds", t);
  return buf;
}

ProgressBar::ProgressBar(std::optional<std::size_t> total, std::string unit, std::FILE* out)
    : total_(total),
      unit_(std::move(unit)),
      out_(out),
      enabled_(out != nullptr && isatty(fileno(out))),
      start_(std::chrono::steady_clock::now()),
      last_draw_(start_) {}

ProgressBar::~ProgressBar() {
  finish();
}

double ProgressBar::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ProgressBar::tick(bool failed) {
  ++done_;
  if (failed) ++failed_;
  draw(total_ && done_ == *total_);
}

void ProgressBar::clear() {
  if (enabled_) std::fprintf(out_, "\r\033[2K");
}

void ProgressBar::finish() {
  if (finished_) return;
  finished_ = true;
  if (enabled_) {
    draw(true);
    std::fputc('\n', out_);
    std::fflush(out_);
  }
}

void ProgressBar::draw(bool force) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  const double elapsed = elapsed_seconds();
  const double rate = elapsed > 0 ? done_ / elapsed : 0.0;
  if (total_) {
    const std::size_t total = *total_;
    const double eta = rate > 0 ? (total - done_) / rate : NAN;
    constexpr int kWidth = 30;
    const int filled = total ? static_cast<int>(kWidth * done_ / total) : kWidth;
    std::string bar(filled, '#');
    bar.resize(kWidth, '.');
    std::fprintf(out_, "\r\033[2K[%s] %zu/%zu  %.1f %s  ETA %s", bar.c_str(), done_, total, rate,
                 unit_.c_str(), format_duration(eta).c_str());
  } else {
    std::fprintf(out_, "\r\033[2K%zu done  %.1f %s  %s so far", done_, rate, unit_.c_str(),
                 format_duration(elapsed).c_str());
  }
  if (failed_) std::fprintf(out_, "  (%zu failed)", failed_);
  std::fflush(out_);
}

}  // namespace mad
