#include "tests/support/stmad_example_clip.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>

namespace mad::test {
namespace {

// The non-negative remainder of §11 (C++'s % keeps the sign of a negative dividend).
int mod(int k, int p) {
  return ((k % p) + p) % p;
}

int tri(int k, int p) {
  const int d = mod(k, p) - p / 2;
  return d < 0 ? -d : d;
}

// P(u, v) of §11: the moving texture (integers 60..136).
int pattern(int u, int v) {
  return 60 + 3 * tri(u, 24) + 2 * tri(v, 18) + 2 * tri(u + v, 10) + 3 * mod(7 * u + 13 * v, 5);
}

int ref_value(int t, int y, int x) {
  return pattern(x + 2 * t, y + t);
}

// D_t(y, x): R_t plus an even offset of -20..+20 per 4x4 block, clamped (never reached).
int dist_value(int t, int y, int x) {
  const int offset = 2 * (mod(37 * (x / 4) + 91 * (y / 4) + 53 * t, 21) - 10);
  return std::clamp(ref_value(t, y, x) + offset, 0, 255);
}

template <class Value>
LumaFrame make_frame(int t, Value value) {
  LumaFrame frame;
  frame.width = StmadExampleClip::kWidth;
  frame.height = StmadExampleClip::kHeight;
  frame.bit_depth = 8;
  frame.samples8.resize(frame.pixels());
  for (int y = 0; y < frame.height; ++y)
    for (int x = 0; x < frame.width; ++x)
      frame.samples8[static_cast<std::size_t>(y) * frame.width + x] =
          static_cast<std::uint8_t>(value(t, y, x));
  return frame;
}

template <class Frame>
std::vector<LumaFrame> make_clip(Frame frame) {
  std::vector<LumaFrame> clip;
  for (int t = 0; t < StmadExampleClip::kFrames; ++t) clip.push_back(frame(t));
  return clip;
}

void write_frames(std::ofstream& out, const std::vector<LumaFrame>& frames, const char* prefix,
                  unsigned char chroma) {
  for (const LumaFrame& f : frames) {
    out << prefix;
    out.write(reinterpret_cast<const char*>(f.samples8.data()),
              static_cast<std::streamsize>(f.samples8.size()));
    const std::size_t plane =
        static_cast<std::size_t>((f.width + 1) / 2) * static_cast<std::size_t>((f.height + 1) / 2);
    const std::string uv(2 * plane, static_cast<char>(chroma));
    out.write(uv.data(), static_cast<std::streamsize>(uv.size()));
  }
}

std::ofstream open_out(const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw std::runtime_error("cannot write " + path);
  return out;
}

void close_out(std::ofstream& out, const std::string& path) {
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace

LumaFrame stmad_example_ref_frame(int t) {
  return make_frame(t, ref_value);
}
LumaFrame stmad_example_dist_frame(int t) {
  return make_frame(t, dist_value);
}
std::vector<LumaFrame> stmad_example_ref_clip() {
  return make_clip(stmad_example_ref_frame);
}
std::vector<LumaFrame> stmad_example_dist_clip() {
  return make_clip(stmad_example_dist_frame);
}

void write_yuv420p(const std::string& path, const std::vector<LumaFrame>& frames,
                   unsigned char chroma) {
  std::ofstream out = open_out(path);
  write_frames(out, frames, "", chroma);
  close_out(out, path);
}

void write_y4m420(const std::string& path, const std::vector<LumaFrame>& frames,
                  const std::string& header, unsigned char chroma) {
  std::ofstream out = open_out(path);
  out << header << '\n';
  write_frames(out, frames, "FRAME\n", chroma);
  close_out(out, path);
}

std::string file_md5(const std::string& path) {
  // The path goes to the shell in single quotes; the tests' scratch paths hold none.
  FILE* pipe = ::popen(("md5sum '" + path + "'").c_str(), "r");
  if (!pipe) return "";
  char digest[33] = {};
  const std::size_t got = std::fread(digest, 1, 32, pipe);
  ::pclose(pipe);
  return got == 32 ? std::string(digest, 32) : "";
}

}  // namespace mad::test
