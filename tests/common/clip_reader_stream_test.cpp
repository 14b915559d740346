// The clip readers on streams that cannot seek (common/clip_reader.h): standard input ("-")
// fed through a pipe, and a named pipe (FIFO) written by another thread, as
// `ffmpeg ... -f yuv4mpegpipe - | mad video ref.y4m -` and `mkfifo` setups feed them.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include "common/clip_reader.h"
#include "common/error.h"
#include "tests/common/clip_test_util.h"
#include "tests/support/test_support.h"

namespace mad::test {
namespace {

ClipFormat format_of(const std::string& pixel_format, int w, int h, const std::string& tag) {
  ClipFormat f = raw_clip_format(pixel_format, w, h);
  f.y4m_colorspace = tag;
  return f;
}

TEST(ClipReaderStream, Y4mFromStandardInputByContent) {
  // Luma planes of more than 1 MiB: the reader's buffer and the pipe's capacity are smaller.
  const ClipFormat f = format_of("yuv420p10le", 1000, 700, "420p10");
  StdinFromPipe stdin_pipe(clip_bytes(f, 3, y4m_header_for(f)));
  const auto reader = ClipReader::open("-", nullptr);
  EXPECT_EQ(reader->path(), "-");
  EXPECT_EQ(reader->frame_count_hint(), -1) << "a pipe's length is unknown";
  EXPECT_EQ(reader->format().pixel_format(), "yuv420p10le");
  expect_whole_clip(*reader, f, 3);
}

TEST(ClipReaderStream, ANonBlockingStandardInputWaitsForData) {
  const ClipFormat f = format_of("gray", 1200, 1000, "mono");
  StdinFromPipe stdin_pipe(clip_bytes(f, 3, y4m_header_for(f)), /*nonblocking=*/true);
  expect_whole_clip(*ClipReader::open("-", nullptr), f, 3);
}

TEST(ClipReaderStream, RawFromStandardInputWithSkips) {
  const ClipFormat f = raw_clip_format("yuv422p", 33, 17);
  StdinFromPipe stdin_pipe(clip_bytes(f, 4, ""));
  expect_plan(*ClipReader::open("-", &f), f, "srsr");
}

TEST(ClipReaderStream, NamedPipe) {
  const auto dir = fresh_scratch_dir("clip_fifo");
  const std::string fifo = (dir / "dist.y4m").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const ClipFormat f = format_of("yuv444p", 41, 23, "444");
  PipeWriter writer(fifo, clip_bytes(f, 5, y4m_header_for(f), "FRAME Ip\n"));
  expect_whole_clip(*ClipReader::open_y4m(fifo), f, 5);
}

TEST(ClipReaderStream, TruncatedFrameOnAPipe) {
  const ClipFormat f = format_of("gray16le", 8, 8, "mono16");
  std::string bytes = clip_bytes(f, 2, y4m_header_for(f));
  bytes.resize(bytes.size() - 1);
  StdinFromPipe stdin_pipe(bytes);
  const auto reader = ClipReader::open_y4m("-");
  LumaFrame frame;
  ASSERT_TRUE(reader->read(frame));
  const std::string msg = thrown_message<InputError>([&] { reader->read(frame); });
  EXPECT_NE(msg.find("standard input: frame 1 is truncated: 127 of 128 bytes"), std::string::npos)
      << msg;
}

TEST(ClipReaderStream, TruncatedChromaOnAPipeIsFoundBySkip) {
  const ClipFormat f = raw_clip_format("yuv420p", 6, 4);
  std::string bytes = clip_bytes(f, 2, "");
  bytes.resize(bytes.size() - 3);
  StdinFromPipe stdin_pipe(bytes);
  const auto reader = ClipReader::open_raw("-", f);
  ASSERT_TRUE(reader->skip());
  const std::string msg = thrown_message<InputError>([&] { reader->skip(); });
  EXPECT_NE(msg.find("frame 1 is truncated: 33 of 36 bytes"), std::string::npos) << msg;
}

TEST(ClipReaderStream, AHugeHeaderOnAShortPipeFailsOnItsSizeNotOnMemory) {
  StdinFromPipe stdin_pipe("YUV4MPEG2 W65536 H65536 C444p16\nFRAME\n" + std::string(3000000, 'x'));
  const auto reader = ClipReader::open_y4m("-");
  LumaFrame frame;
  const std::string msg = thrown_message<InputError>([&] { reader->read(frame); });
  EXPECT_NE(msg.find("frame 0 is truncated: 3000000 of 25769803776 bytes"), std::string::npos)
      << msg;
  EXPECT_LT(frame.samples16.capacity() * 2, std::size_t{16} << 20)
      << "the plane grows with the data, not with the header's claim";
}

}  // namespace
}  // namespace mad::test
