// libFuzzer target: the clip readers of `mad video` (common/clip_reader.h) on a file of any
// bytes, opened by content (a Y4M stream; anything else is refused for want of a raw format).
// A clip must give frames of exactly its format's size, with high-bit-depth samples within the
// depth and values on 0..255, or a mad::Error; read() and skip() alternate so both paths run.
// Seeds: tests/fuzz/corpus/y4m/.
#include <cstddef>
#include <cstdint>

#include "common/clip_reader.h"
#include "common/error.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace mad;
  static const auto clip = fuzz::scratch_dir() / "clip.y4m";
  const std::string path = fuzz::write_file(clip, data, size);
  try {
    const auto reader = ClipReader::open(path, nullptr);
    const ClipFormat& f = reader->format();
    fuzz::require(f.width > 0 && f.height > 0, "a clip has a positive size");
    fuzz::require(f.frame_bytes() >= f.luma_bytes(), "a frame holds its luma");
    LumaFrame frame;
    for (std::int64_t n = 0; n < 64; ++n) {
      if (n % 2 == 1) {
        if (!reader->skip()) break;
        continue;
      }
      if (!reader->read(frame)) break;
      fuzz::require(
          frame.width == f.width && frame.height == f.height && frame.bit_depth == f.bit_depth,
          "a frame has the clip's format");
      const std::size_t samples = f.bit_depth > 8 ? frame.samples16.size() : frame.samples8.size();
      fuzz::require(samples == frame.pixels(), "a frame holds exactly width x height samples");
      for (std::size_t i = 0; i < frame.pixels(); ++i) {
        const double v = frame.value(i);
        fuzz::require(v >= 0.0 && v <= 255.0, "luma values lie on 0..255");
      }
    }
    fuzz::require(reader->frames_read() <= 64, "frames_read counts what was read or skipped");
    if (reader->frame_count_hint() >= 0)
      fuzz::require(reader->frames_read() <= reader->frame_count_hint(),
                    "no more frames than the size tells");
  } catch (const Error&) {
    return 0;
  }
  return 0;
}
