// The clip readers' refusals (common/clip_reader.h): each names the file and says why, with
// the exit code the CLI maps it to (InputError 3, InvalidArgument 2).
#include <gtest/gtest.h>

#include "common/clip_reader.h"
#include "common/error.h"
#include "tests/common/clip_test_util.h"
#include "tests/support/test_support.h"

namespace mad::test {
namespace {

// True when `text` holds `part`; the failure shows both.
::testing::AssertionResult has(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "'" << text << "' does not contain '" << part << "'";
}

class ClipReaderErrors : public ::testing::Test {
 protected:
  void SetUp() override { dir_ = fresh_scratch_dir("clip_errors"); }
  std::string file(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    write_bytes(path, bytes);
    return path;
  }
  // The message of the InputError that opening `bytes` as Y4M gives.
  std::string y4m_open_error(const std::string& bytes) {
    const std::string path = file("bad.y4m", bytes);
    return thrown_message<InputError>([&] { ClipReader::open_y4m(path); });
  }
  // The message of the InputError that reading every frame gives.
  static std::string read_error(ClipReader& reader) {
    return thrown_message<InputError>([&] {
      LumaFrame frame;
      while (reader.read(frame)) {
      }
    });
  }
  std::filesystem::path dir_;
};

ClipFormat f420(int w, int h) {
  ClipFormat f = raw_clip_format("yuv420p", w, h);
  f.y4m_colorspace = "420jpeg";
  return f;
}

TEST_F(ClipReaderErrors, MissingFileIsAnInputErrorNamingIt) {
  const std::string path = (dir_ / "nowhere.y4m").string();
  const std::string msg = thrown_message<InputError>([&] { ClipReader::open_y4m(path); });
  EXPECT_TRUE(has(msg, path));
  EXPECT_TRUE(has(msg, "No such file"));
  EXPECT_EQ(InputError("").exit_code(), 3);
  const std::string dir_msg =
      thrown_message<InputError>([&] { ClipReader::open_y4m(dir_.string()); });
  EXPECT_TRUE(has(dir_msg, "is a directory"));
}

TEST_F(ClipReaderErrors, NotY4m) {
  EXPECT_TRUE(has(y4m_open_error("P5 4 4 255\n"), "not a YUV4MPEG2 (Y4M) stream"));
  EXPECT_TRUE(has(y4m_open_error(""), "not a YUV4MPEG2"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 W4 H4"), "ends without a newline"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 " + std::string(5000, 'X')), "no newline"));
}

TEST_F(ClipReaderErrors, InterlacedAndUnknownFieldOrderAreRefused) {
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 W4 H4 It\n"), "interlaced (It: top field first)"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 W4 H4 Ib\n"), "bottom field first"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 W4 H4 Im\n"), "mixed"));
  const std::string unknown = y4m_open_error("YUV4MPEG2 W4 H4 I?\n");
  EXPECT_TRUE(has(unknown, "unknown field order (I?)"));
  EXPECT_TRUE(has(unknown, "progressive frames only"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 W4 H4 Ix\n"), "unknown interlacing 'Ix'"));
}

TEST_F(ClipReaderErrors, UnsupportedColorspacesAreRefusedWithTheAcceptedList) {
  for (const char* tag : {"C411", "C444alpha", "C420p9", "C420p14", "Cmono9", "C420jpegp10", "C"}) {
    const std::string msg = y4m_open_error(std::string("YUV4MPEG2 W4 H4 ") + tag + "\n");
    EXPECT_TRUE(has(msg, std::string("unsupported Y4M colorspace '") + tag + "'"));
    EXPECT_TRUE(has(msg, "C420jpeg C420paldv C420mpeg2 C420 C422 C444 Cmono"));
    EXPECT_TRUE(has(msg, "C444p16"));
  }
}

TEST_F(ClipReaderErrors, BadSizesAndRates) {
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 W0 H4\n"), "bad Y4M width 'W0'"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 W4 H-4\n"), "bad Y4M height 'H-4'"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 Wx H4\n"), "bad Y4M width"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 W65537 H4\n"), "1 to 65536"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 W4 F25:1\n"), "has no height"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 H4\n"), "has no width"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 W4 H4 F25\n"), "bad Y4M frame rate 'F25'"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 W4 H4 F0:1\n"), "bad Y4M frame rate"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 W4 H4 F25:0\n"), "bad Y4M frame rate"));
  EXPECT_TRUE(has(y4m_open_error("YUV4MPEG2 W4 H4 F25:1x\n"), "bad Y4M frame rate"));
}

TEST_F(ClipReaderErrors, TruncatedFrameSaysHowMuchArrived) {
  const ClipFormat f = f420(6, 4);  // 36 bytes a frame
  std::string bytes = clip_bytes(f, 3, y4m_header_for(f));
  bytes.resize(bytes.size() - 10);
  const auto y4m = ClipReader::open_y4m(file("short.y4m", bytes));
  EXPECT_EQ(y4m->frame_count_hint(), -1);
  EXPECT_TRUE(has(read_error(*y4m), "short.y4m: frame 2 is truncated: 26 of 36 bytes"));
  // Cut inside the luma plane, and inside the FRAME line itself.
  const std::string header = y4m_header_for(f) + "\n";
  const auto luma = ClipReader::open_y4m(
      file("luma.y4m", clip_bytes(f, 1, y4m_header_for(f)).substr(0, header.size() + 6 + 20)));
  EXPECT_TRUE(has(read_error(*luma), "frame 0 is truncated: 20 of 36 bytes"));
  const auto line = ClipReader::open_y4m(file("line.y4m", header + "FRAME"));
  EXPECT_TRUE(has(read_error(*line), "frame 0 is truncated: 0 of 36 bytes"));
  // skip() checks the size too.
  const auto skipping = ClipReader::open_y4m(file("skip.y4m", bytes));
  EXPECT_TRUE(has(thrown_message<InputError>([&] {
                    while (skipping->skip()) {
                    }
                  }),
                  "frame 2 is truncated: 26 of 36 bytes"));
  EXPECT_EQ(skipping->frames_read(), 2);
}

TEST_F(ClipReaderErrors, AHeaderThatLiesAboutTheSize) {
  // Frames of 8x4 under a header that says 6x4: the second FRAME line is not where it says.
  const ClipFormat real = f420(8, 4);
  ClipFormat told = f420(6, 4);
  std::string bytes = y4m_header_for(told) + "\n" + clip_bytes(real, 3, "x").substr(2);
  const auto reader = ClipReader::open_y4m(file("lies.y4m", bytes));
  const std::string msg = read_error(*reader);
  EXPECT_TRUE(has(msg, "lies.y4m: frame 1 does not start with a FRAME header"));
  EXPECT_TRUE(has(msg, "yuv420p 6x4, 36 bytes a frame"));
  EXPECT_TRUE(has(msg, "header lies about the size"));
  // Garbage where a frame header belongs.
  const auto junk = ClipReader::open_y4m(file("junk.y4m", y4m_header_for(told) + "\nFRAMES\n"));
  EXPECT_TRUE(
      has(read_error(*junk), "frame 0 does not start with a FRAME header (found 'FRAMES')"));
}

TEST_F(ClipReaderErrors, RawSizeNotAWholeNumberOfFrames) {
  const ClipFormat f = raw_clip_format("yuv420p", 6, 4);
  const std::string path = file("odd.yuv", clip_bytes(f, 2, "") + "abc");
  const std::string msg = thrown_message<InputError>([&] { ClipReader::open_raw(path, f); });
  EXPECT_TRUE(has(msg,
                  "odd.yuv: 75 bytes is not a whole number of yuv420p 6x4 frames of 36 bytes (2 "
                  "frames and 3 bytes)"));
  EXPECT_TRUE(has(msg, "--pixel-format"));
}

TEST_F(ClipReaderErrors, SamplesAboveTheBitDepthAreNotThatDepth) {
  const ClipFormat f = raw_clip_format("gray10le", 3, 2);
  const std::string bytes = {1, 0, 2, 0, 3, 0, 4, 0, 0, 4, 6, 0};  // (x 1, y 1) = 1024
  const auto reader = ClipReader::open_raw(file("hot.yuv", bytes), f);
  const std::string msg = read_error(*reader);
  EXPECT_TRUE(has(
      msg,
      "hot.yuv: frame 0: luma sample 1024 at (x 1, y 1) exceeds 1023, the largest 10-bit value"));
  EXPECT_TRUE(has(msg, "not 10-bit gray10le"));
}

TEST_F(ClipReaderErrors, AHugeHeaderOnATinyFileFailsOnItsSizeNotOnMemory) {
  const auto reader =
      ClipReader::open_y4m(file("huge.y4m", "YUV4MPEG2 W65536 H65536 C444p16\nFRAME\n0123456789"));
  EXPECT_TRUE(has(read_error(*reader), "frame 0 is truncated: 10 of 25769803776 bytes"));
}

TEST_F(ClipReaderErrors, OpenByContentAsksForWhatIsMissing) {
  const ClipFormat f = f420(6, 4);
  const std::string y4m = file("a.y4m", clip_bytes(f, 1, y4m_header_for(f)));
  const std::string raw = file("a.yuv", clip_bytes(f, 1, ""));
  const std::string given = thrown_message<InvalidArgument>([&] { ClipReader::open(y4m, &f); });
  EXPECT_TRUE(has(given, "a.y4m is a Y4M clip"));
  EXPECT_TRUE(has(given, "leave out --width, --height and --pixel-format"));
  const std::string missing =
      thrown_message<InvalidArgument>([&] { ClipReader::open(raw, nullptr); });
  EXPECT_TRUE(has(missing, "a.yuv is not a Y4M clip"));
  EXPECT_TRUE(has(missing, "give --width, --height and --pixel-format"));
  EXPECT_EQ(InvalidArgument("").exit_code(), 2);
}

TEST_F(ClipReaderErrors, UnknownRawPixelFormatListsTheAcceptedNames) {
  const std::string msg = thrown_message<InvalidArgument>([] { raw_clip_format("nv12", 4, 4); });
  EXPECT_TRUE(has(msg, "unsupported --pixel-format 'nv12'"));
  EXPECT_TRUE(has(msg, "yuv420p yuv420p10le yuv420p12le yuv420p16le yuv422p"));
  EXPECT_TRUE(has(msg, "gray gray10le gray12le gray16le"));
  EXPECT_TRUE(has(thrown_message<InvalidArgument>([] { raw_clip_format("yuv420p", 0, 4); }),
                  "positive --width and --height"));
  EXPECT_TRUE(has(thrown_message<InvalidArgument>([] { raw_clip_format("yuv420p10", 4, 4); }),
                  "unsupported --pixel-format"));
}

}  // namespace
}  // namespace mad::test
