// The one concrete ClipReader of files and streams (common/clip_reader.h): Y4M and raw planar
// data differ only in Y4M's per-frame "FRAME" line, so one class reads both.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/clip_reader.h"
#include "common/clip_stream.h"

namespace mad {

class ClipFileReader : public ClipReader {
 public:
  // `stream` positioned at the first frame (after a Y4M stream header).
  ClipFileReader(std::string path, ClipFormat format, std::unique_ptr<ClipStream> stream, bool y4m);

  bool read(LumaFrame& frame) override;
  bool skip() override;
  void cancel() override { stream_->cancel(); }
  void set_count_hint(std::int64_t frames) { set_frame_count_hint(frames); }

 private:
  // Consumes the next frame's start: false at the end exactly between frames.
  bool begin_frame();
  void read_frame_header();
  // Reads `bytes` into v (as raw bytes), growing it as the data arrives until one whole frame
  // has come: a short file claiming huge frames fails on its size, not on an allocation.
  template <class T>
  std::size_t read_plane(std::vector<T>& v, std::size_t bytes);
  void check_samples(const LumaFrame& frame) const;
  // Skips the frame's remaining `bytes` (its chroma, or the whole frame); `got` read so far.
  void skip_rest(std::size_t got, std::uint64_t bytes);
  [[noreturn]] void truncated(std::uint64_t got) const;
  std::string frame_name() const;

  std::unique_ptr<ClipStream> stream_;
  bool y4m_;
  bool whole_frame_seen_ = false;
};

}  // namespace mad
