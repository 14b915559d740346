// The worked example of shared/stmad-spec.md §11, built from its integer formulas: an 84x60,
// 40-frame reference clip R (content moving 2 px left and 1 px up a frame) and its distorted
// clip D (4x4-block offsets of -20..+20), 8-bit, chroma all 128. The spec gives the md5 of both
// as yuv420p .yuv and as .y4m, so a test that writes these files and checks those sums proves
// the generator and the writers agree with the spec's bytes; the ST-MAD tests score the frames.
#pragma once

#include <string>
#include <vector>

#include "common/luma_frame.h"

namespace mad::test {

struct StmadExampleClip {
  static constexpr int kWidth = 84, kHeight = 60, kFrames = 40;
  // The Y4M header line the spec's md5 was taken with (without its newline).
  static constexpr const char* kY4mHeader = "YUV4MPEG2 W84 H60 F25:1 Ip A1:1 C420jpeg";
  // md5 sums of §11.
  static constexpr const char* kRefYuvMd5 = "14112e6bf519ae5de248a1224d015860";
  static constexpr const char* kDistYuvMd5 = "edf2c0967083503ed1719623a2716276";
  static constexpr const char* kRefY4mMd5 = "af66f91f8519c4faa573285d400e4dec";
  static constexpr const char* kDistY4mMd5 = "c5befec1cab2b6c322410773e41a23b5";
};

// Frame t (0-based) of the reference R_t and of the distorted clip D_t, as 8-bit luma.
LumaFrame stmad_example_ref_frame(int t);
LumaFrame stmad_example_dist_frame(int t);
// All frames of one clip, in order.
std::vector<LumaFrame> stmad_example_ref_clip();
std::vector<LumaFrame> stmad_example_dist_clip();

// 8-bit 4:2:0 writers of the spec's layout: per frame the Y plane, then U and V of
// ceil(w/2) x ceil(h/2) samples, all `chroma`. The .y4m form starts with `header` + "\n" and
// puts "FRAME\n" before each frame. Throws std::runtime_error when the file cannot be written.
void write_yuv420p(const std::string& path, const std::vector<LumaFrame>& frames,
                   unsigned char chroma = 128);
void write_y4m420(const std::string& path, const std::vector<LumaFrame>& frames,
                  const std::string& header, unsigned char chroma = 128);

// The md5 of a file as 32 lowercase hex digits (coreutils' md5sum; "" when it cannot run).
std::string file_md5(const std::string& path);

}  // namespace mad::test
