// Clips for the tests of `mad video` (tests/video, tests/tools/cli_video_test.cpp): frames made
// from integer formulas (a textured reference, a distortion that MAD sees), a ClipReader over
// frames held in memory (the protected constructor is meant for such readers), and writers of
// the frames as Y4M, raw .yuv and 8-bit PGM files.
#pragma once

#include <cstdint>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/clip_reader.h"
#include "common/error.h"
#include "common/luma_frame.h"

namespace mad::test {

// Frame t of the reference (distorted: `distorted`), width x height, 8-bit: smooth ramps that
// move with t (a textured reference would mask the distortion: HI would be 0), the distortion
// noise of +-(24 + t) that MAD's detection sees.
inline LumaFrame make_clip_frame(int width, int height, int t, bool distorted) {
  LumaFrame f;
  f.width = width;
  f.height = height;
  f.bit_depth = 8;
  f.samples8.resize(f.pixels());
  std::uint32_t noise = 2463534242u + 977u * static_cast<std::uint32_t>(t);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      int v = (y * 120) / height + ((x + 2 * t) * 60) / width + 40;
      if (distorted) {
        noise ^= noise << 13;
        noise ^= noise >> 17;
        noise ^= noise << 5;
        const int amplitude = 24 + t;
        v += static_cast<int>(noise % static_cast<std::uint32_t>(2 * amplitude + 1)) - amplitude;
      }
      f.samples8[static_cast<std::size_t>(y) * width + x] =
          static_cast<std::uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
    }
  return f;
}

inline ClipFormat gray8_format(int width, int height) {
  ClipFormat f;
  f.width = width;
  f.height = height;
  f.chroma = ChromaSubsampling::k420;
  f.bit_depth = 8;
  return f;
}

// A clip of frames made on demand by `make(t)` for t < frames (memory holds one at a time);
// `truncated_at` >= 0 makes read() of that frame throw InputError, as a cut file does. Counts
// the frames it has handed out (the read-ahead test).
class MemoryClip : public ClipReader {
 public:
  MemoryClip(std::string name, ClipFormat format, int frames,
             std::function<LumaFrame(int)> make, int truncated_at = -1)
      : ClipReader(std::move(name), format),
        frames_(frames),
        make_(std::move(make)),
        truncated_at_(truncated_at) {}
  bool read(LumaFrame& frame) override {
    if (next_ >= frames_) return false;
    if (next_ == truncated_at_)
      throw InputError(path() + ": frame " + std::to_string(next_) + " is truncated");
    frame = make_(next_++);
    counted();
    return true;
  }
  bool skip() override {
    if (next_ >= frames_) return false;
    ++next_;
    counted();
    return true;
  }
  void tell_length() { set_frame_count_hint(frames_); }

 private:
  int frames_, next_ = 0;
  std::function<LumaFrame(int)> make_;
  int truncated_at_;
};

// Writes frames as 4:2:0 8-bit Y4M (chroma 128) or raw yuv420p.
inline void write_clip(const std::string& path, const std::vector<LumaFrame>& frames, bool y4m,
                       int fps_num = 25) {
  std::ofstream out(path, std::ios::binary);
  if (frames.empty()) throw std::runtime_error("no frames");
  const int w = frames[0].width, h = frames[0].height;
  if (y4m)
    out << "YUV4MPEG2 W" << w << " H" << h << " F" << fps_num << ":1 Ip A1:1 C420jpeg\n";
  const std::string chroma(2 * static_cast<std::size_t>((w + 1) / 2) * ((h + 1) / 2), '\x80');
  for (const LumaFrame& f : frames) {
    if (y4m) out << "FRAME\n";
    out.write(reinterpret_cast<const char*>(f.samples8.data()),
              static_cast<std::streamsize>(f.samples8.size()));
    out << chroma;
  }
  if (!out) throw std::runtime_error("cannot write " + path);
}

inline std::vector<LumaFrame> clip_frames(int width, int height, int frames, bool distorted) {
  std::vector<LumaFrame> out;
  for (int t = 0; t < frames; ++t) out.push_back(make_clip_frame(width, height, t, distorted));
  return out;
}

// One frame's luma as an 8-bit binary PGM (what `mad score` reads as one gray image).
inline void write_pgm(const std::string& path, const LumaFrame& f) {
  std::ofstream out(path, std::ios::binary);
  out << "P5\n" << f.width << " " << f.height << "\n255\n";
  out.write(reinterpret_cast<const char*>(f.samples8.data()),
            static_cast<std::streamsize>(f.samples8.size()));
}

}  // namespace mad::test
