// The clip readers (common/clip_reader.h) on clips the tests write: every format, odd sizes,
// high bit depths and their scaling, frame headers with parameters, skipping, and the §11
// example clip of shared/stmad-spec.md. Errors: tests/common/clip_reader_errors_test.cpp;
// pipes, standard input and FIFOs: tests/common/clip_reader_stream_test.cpp.
#include <gtest/gtest.h>

#include <vector>

#include "common/clip_reader.h"
#include "common/error.h"
#include "tests/common/clip_test_util.h"
#include "tests/support/stmad_example_clip.h"
#include "tests/support/test_support.h"

namespace mad::test {
namespace {

using C = ChromaSubsampling;

ClipFormat y4m_format(const std::string& tag, C chroma, int depth, int w, int h) {
  ClipFormat f;
  f.width = w;
  f.height = h;
  f.chroma = chroma;
  f.bit_depth = depth;
  f.fps_num = 25;
  f.fps_den = 1;
  f.y4m_colorspace = tag;
  return f;
}

// Every C tag the reader takes, with its chroma and depth.
std::vector<ClipFormat> all_y4m_formats(int w, int h) {
  std::vector<ClipFormat> all = {
      y4m_format("420jpeg", C::k420, 8, w, h),  y4m_format("420paldv", C::k420, 8, w, h),
      y4m_format("420mpeg2", C::k420, 8, w, h), y4m_format("420", C::k420, 8, w, h),
      y4m_format("422", C::k422, 8, w, h),      y4m_format("444", C::k444, 8, w, h),
      y4m_format("mono", C::kMono, 8, w, h)};
  for (int d : {10, 12, 16}) {
    const std::string s = std::to_string(d);
    all.push_back(y4m_format("420p" + s, C::k420, d, w, h));
    all.push_back(y4m_format("422p" + s, C::k422, d, w, h));
    all.push_back(y4m_format("444p" + s, C::k444, d, w, h));
    all.push_back(y4m_format("mono" + s, C::kMono, d, w, h));
  }
  return all;
}

TEST(ClipFormat, SizesFollowFfmpegsLayoutWithOddSidesRoundedUp) {
  // 4:2:0 at 7x5: chroma planes of ceil(7/2) x ceil(5/2) = 4x3, as ffmpeg's AV_CEIL_RSHIFT.
  EXPECT_EQ(raw_clip_format("yuv420p", 7, 5).frame_bytes(), 35u + 2 * 12);
  EXPECT_EQ(raw_clip_format("yuv422p", 7, 5).frame_bytes(), 35u + 2 * 4 * 5);
  EXPECT_EQ(raw_clip_format("yuv444p", 7, 5).frame_bytes(), 35u * 3);
  EXPECT_EQ(raw_clip_format("gray", 7, 5).frame_bytes(), 35u);
  EXPECT_EQ(raw_clip_format("yuv420p10le", 7, 5).frame_bytes(), 2 * (35u + 2 * 12));
  EXPECT_EQ(raw_clip_format("yuv420p10le", 7, 5).luma_bytes(), 70u);
  EXPECT_EQ(raw_clip_format("gray16le", 1920, 1080).frame_bytes(), 1920u * 1080 * 2);
  EXPECT_EQ(raw_clip_format("yuv420p", 1920, 1080).frame_bytes(), 3110400u);
}

TEST(ClipFormat, RawPixelFormatNamesRoundTrip) {
  const std::vector<std::string> names = {"yuv420p",     "yuv422p",     "yuv444p",     "gray",
                                          "yuv420p10le", "yuv422p10le", "yuv444p10le", "gray10le",
                                          "yuv420p12le", "yuv422p12le", "yuv444p12le", "gray12le",
                                          "yuv420p16le", "yuv422p16le", "yuv444p16le", "gray16le"};
  for (const std::string& name : names) {
    const ClipFormat f = raw_clip_format(name, 64, 48);
    EXPECT_EQ(f.pixel_format(), name);
    EXPECT_EQ(f.width, 64);
    EXPECT_EQ(f.height, 48);
    EXPECT_EQ(f.fps(), 0.0);
    EXPECT_EQ(f.y4m_colorspace, "");
  }
  EXPECT_EQ(raw_clip_format("gray12le", 4, 4).bit_depth, 12);
  EXPECT_EQ(raw_clip_format("yuv422p", 4, 4).chroma, C::k422);
}

TEST(ClipFormat, FpsIsTheRateOrZero) {
  ClipFormat f;
  EXPECT_EQ(f.fps(), 0.0);
  f.fps_num = 30000;
  f.fps_den = 1001;
  EXPECT_DOUBLE_EQ(f.fps(), 30000.0 / 1001.0);
}

TEST(ClipReader, ReadsEveryY4mFormatAtAnOddSize) {
  const auto dir = fresh_scratch_dir("clip_every_y4m");
  for (const ClipFormat& f : all_y4m_formats(7, 5)) {
    SCOPED_TRACE(f.y4m_colorspace);
    const std::string path = (dir / (f.y4m_colorspace + ".y4m")).string();
    write_bytes(path, clip_bytes(f, 3, y4m_header_for(f)));
    const auto reader = ClipReader::open_y4m(path);
    EXPECT_EQ(reader->format().chroma, f.chroma);
    EXPECT_EQ(reader->format().bit_depth, f.bit_depth);
    EXPECT_EQ(reader->format().y4m_colorspace, f.y4m_colorspace);
    EXPECT_EQ(reader->format().fps(), 25.0);
    EXPECT_EQ(reader->frame_count_hint(), 3);
    EXPECT_EQ(reader->path(), path);
    expect_whole_clip(*reader, f, 3);
  }
}

TEST(ClipReader, ReadsEveryRawFormatAtAnOddSize) {
  const auto dir = fresh_scratch_dir("clip_every_raw");
  for (const ClipFormat& y4m : all_y4m_formats(9, 3)) {
    const ClipFormat f = raw_clip_format(y4m.pixel_format(), 9, 3);
    SCOPED_TRACE(f.pixel_format());
    const std::string path = (dir / (f.pixel_format() + ".yuv")).string();
    write_bytes(path, clip_bytes(f, 4, ""));
    const auto reader = ClipReader::open(path, &f);
    EXPECT_EQ(reader->format().pixel_format(), f.pixel_format());
    EXPECT_EQ(reader->frame_count_hint(), 4);
    expect_whole_clip(*reader, f, 4);
  }
}

TEST(ClipReader, HighBitDepthValuesAreScaledWithoutRounding) {
  const auto dir = fresh_scratch_dir("clip_10bit_values");
  const ClipFormat f = raw_clip_format("gray10le", 4, 1);
  const std::string bytes = {'\0', '\0', '\xff', '\x03', '\x00', '\x02', '\x01', '\x00'};
  write_bytes((dir / "v.yuv").string(), bytes);
  const auto reader = ClipReader::open_raw((dir / "v.yuv").string(), f);
  LumaFrame frame;
  ASSERT_TRUE(reader->read(frame));
  EXPECT_EQ(frame.samples16, (std::vector<std::uint16_t>{0, 1023, 512, 1}));
  EXPECT_EQ(frame.value(0), 0.0);
  EXPECT_EQ(frame.value(1), 255.0);
  EXPECT_EQ(frame.value(2), 512.0 * 255.0 / 1023.0);
  EXPECT_EQ(frame.value(3), 255.0 / 1023.0);
}

TEST(ClipReader, FrameHeadersMayCarryParameters) {
  const auto dir = fresh_scratch_dir("clip_frame_params");
  const ClipFormat f = y4m_format("420jpeg", C::k420, 8, 6, 4);
  const std::string path = (dir / "p.y4m").string();
  write_bytes(path, clip_bytes(f, 3, y4m_header_for(f), "FRAME Ip XMAD=1\n"));
  const auto reader = ClipReader::open_y4m(path);
  EXPECT_EQ(reader->frame_count_hint(), -1) << "frame lines of other sizes: no count from the size";
  expect_whole_clip(*reader, f, 3);
}

TEST(ClipReader, HeaderTagsInAnyOrderWithExtensions) {
  const auto dir = fresh_scratch_dir("clip_tags");
  ClipFormat f = y4m_format("444p12", C::k444, 12, 5, 2);
  f.fps_num = 30000;
  f.fps_den = 1001;
  const std::string path = (dir / "t.y4m").string();
  write_bytes(path, clip_bytes(f, 2, "YUV4MPEG2 C444p12 XYSCSS=444P12 A0:0 F30000:1001 H2 W5"));
  const auto reader = ClipReader::open(path, nullptr);
  EXPECT_EQ(reader->format().fps_num, 30000);
  EXPECT_EQ(reader->format().fps_den, 1001);
  EXPECT_EQ(reader->format().pixel_format(), "yuv444p12le");
  expect_whole_clip(*reader, f, 2);
}

TEST(ClipReader, WithoutCOrFOrIAY4mIs8Bit420AtAnUnknownRate) {
  const auto dir = fresh_scratch_dir("clip_defaults");
  const std::string path = (dir / "d.y4m").string();
  ClipFormat f = y4m_format("", C::k420, 8, 6, 6);
  write_bytes(path, clip_bytes(f, 2, "YUV4MPEG2 W6 H6"));
  const auto reader = ClipReader::open_y4m(path);
  EXPECT_EQ(reader->format().pixel_format(), "yuv420p");
  EXPECT_EQ(reader->format().y4m_colorspace, "");
  EXPECT_EQ(reader->format().fps(), 0.0);
  expect_whole_clip(*reader, f, 2);
}

TEST(ClipReader, SkipSeeksOrDropsAndCounts) {
  const auto dir = fresh_scratch_dir("clip_skip");
  for (const std::string tag : {"420mpeg2", "422p10"}) {
    SCOPED_TRACE(tag);
    const ClipFormat f =
        tag == "420mpeg2" ? y4m_format(tag, C::k420, 8, 5, 5) : y4m_format(tag, C::k422, 10, 5, 5);
    const std::string y4m = (dir / (tag + ".y4m")).string(), raw = (dir / (tag + ".yuv")).string();
    write_bytes(y4m, clip_bytes(f, 5, y4m_header_for(f)));
    write_bytes(raw, clip_bytes(f, 5, ""));
    for (const auto& reader : {ClipReader::open_y4m(y4m), ClipReader::open_raw(raw, f)})
      expect_plan(*reader, f, "ssrsr");
  }
}

TEST(ClipReader, SkipSeeksPastTheBufferOfALargeFile) {
  // Frames larger than the reader's buffer: a skip must seek, not just drop buffered bytes.
  const auto dir = fresh_scratch_dir("clip_skip_large");
  ClipFormat f = raw_clip_format("yuv420p", 1000, 700);
  f.y4m_colorspace = "420jpeg";
  const std::string y4m = (dir / "big.y4m").string(), raw = (dir / "big.yuv").string();
  write_bytes(y4m, clip_bytes(f, 4, y4m_header_for(f)));
  write_bytes(raw, clip_bytes(f, 4, ""));
  for (const auto& reader : {ClipReader::open_y4m(y4m), ClipReader::open_raw(raw, f)})
    expect_plan(*reader, f, "srsr");
}

TEST(ClipReader, ReadsTheWorkedExampleOfTheStmadSpec) {
  using E = StmadExampleClip;
  const auto dir = fresh_scratch_dir("clip_stmad_example");
  const std::string y4m = (dir / "ref.y4m").string(), yuv = (dir / "dist.yuv").string();
  write_y4m420(y4m, stmad_example_ref_clip(), E::kY4mHeader);
  write_yuv420p(yuv, stmad_example_dist_clip());
  ASSERT_EQ(file_md5(y4m), E::kRefY4mMd5);
  ASSERT_EQ(file_md5(yuv), E::kDistYuvMd5);
  const ClipFormat raw = raw_clip_format("yuv420p", E::kWidth, E::kHeight);
  const auto ref = ClipReader::open(y4m, nullptr);
  const auto dist = ClipReader::open(yuv, &raw);
  EXPECT_EQ(ref->frame_count_hint(), E::kFrames);
  EXPECT_EQ(dist->frame_count_hint(), E::kFrames);
  EXPECT_EQ(ref->format().fps(), 25.0);
  EXPECT_EQ(ref->format().y4m_colorspace, "420jpeg");
  LumaFrame r, d;
  for (int t = 0; t < E::kFrames; ++t) {
    ASSERT_TRUE(ref->read(r));
    ASSERT_TRUE(dist->read(d));
    EXPECT_EQ(r.samples8, stmad_example_ref_frame(t).samples8) << "frame " << t;
    EXPECT_EQ(d.samples8, stmad_example_dist_frame(t).samples8) << "frame " << t;
  }
  EXPECT_FALSE(ref->read(r));
  EXPECT_FALSE(dist->read(d));
}

}  // namespace
}  // namespace mad::test
