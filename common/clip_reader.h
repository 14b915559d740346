// Readers of video clips for `mad video`: Y4M (YUV4MPEG2) files and streams, and raw planar
// .yuv files in ffmpeg's pixel formats. They deliver each frame's luma plane (LumaFrame) and
// drop the chroma: only luma is scored, as ST-MAD and vmaf do (docs/video.md, "Input").
//
// Streaming: a reader holds one I/O buffer and no frame of its own, so memory is constant in
// the clip's length; "-" reads standard input and named pipes work. Errors name the file:
// InputError (exit 3) for bad or truncated data, InvalidArgument (exit 2) for bad options.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "common/luma_frame.h"

namespace mad {

enum class ChromaSubsampling { k420, k422, k444, kMono };

struct ClipFormat {
  int width = 0, height = 0;
  ChromaSubsampling chroma = ChromaSubsampling::k420;
  int bit_depth = 8;             // 8, 10, 12 or 16; above 8 each sample is 2 bytes little-endian
  int fps_num = 0, fps_den = 0;  // Y4M's F tag; 0/0 when unknown (raw files)
  // The Y4M C tag as written ("420jpeg", "420p10", "mono"), "" if none/raw.
  std::string y4m_colorspace;
  std::size_t luma_bytes() const;   // bytes of one frame's Y plane
  std::size_t frame_bytes() const;  // bytes of one frame's planes (Y4M's FRAME header excluded)
  // ffmpeg's name: "yuv420p", "yuv422p10le", "gray", "gray16le", ...
  std::string pixel_format() const;
  double fps() const;  // fps_num/fps_den, 0 when unknown
};

// ffmpeg/vmaf pixel format names: yuv420p yuv422p yuv444p gray and their 10le/12le/16le forms
// (gray10le gray12le gray16le); InvalidArgument (exit 2) listing the accepted names otherwise,
// and for a width or height that is not positive.
ClipFormat raw_clip_format(const std::string& pixel_format, int width, int height);

class ClipReader {
 public:
  virtual ~ClipReader() = default;
  // A Y4M file or stream: path "-" reads standard input; named pipes (FIFOs) work. InputError
  // naming the file (exit 3): missing, unreadable, not YUV4MPEG2, interlaced (I tag other than
  // p; "I?" = unknown is refused too), unsupported C tag, bad W/H/F. A header without I is
  // taken as progressive (as ffmpeg reads it); A, X and unknown tags are ignored.
  static std::unique_ptr<ClipReader> open_y4m(const std::string& path);
  // A raw planar file/stream ("-" = stdin) in `format` (raw_clip_format). A regular file whose
  // size is not a whole number of frames is an InputError at once.
  static std::unique_ptr<ClipReader> open_raw(const std::string& path, const ClipFormat& format);
  // By content: a stream that starts with "YUV4MPEG2 " is Y4M, anything else needs `raw` (else
  // InvalidArgument saying to give --width --height --pixel-format). `raw` given for a Y4M
  // file: InvalidArgument (its header gives the format).
  static std::unique_ptr<ClipReader> open(const std::string& path, const ClipFormat* raw);

  const ClipFormat& format() const { return format_; }
  const std::string& path() const { return path_; }

  // Reads the next frame's luma (chroma read and dropped). Returns false at the end of the
  // stream exactly between frames. InputError (exit 3) for a truncated frame ("ref.y4m: frame
  // 17 is truncated: 1234 of 3110400 bytes"; frames are numbered from 0), a bad FRAME header,
  // a header whose size lies (the data does not end on a frame boundary), or a sample above
  // the bit depth's largest value.
  virtual bool read(LumaFrame& frame) = 0;
  // Skips the next frame (seek on a regular file, read and drop on a pipe); false at the end.
  virtual bool skip() = 0;
  // Safe from another thread: a read() or skip() waiting on a pipe that gets no data throws
  // InputError at once, as do later ones, so that a failed run need not wait for the pipe's
  // writer. Readers that never wait on a pipe (the tests' and Python's in memory) ignore it.
  virtual void cancel() {}
  std::int64_t frames_read() const { return frames_read_; }  // read() + skip() that returned true
  // Frame count when the size tells it (regular file whose frames all have plain headers), else -1.
  std::int64_t frame_count_hint() const { return frame_count_hint_; }

 protected:
  // Subclasses (e.g. the Python module's reader of arrays or of a generator of frames) give the
  // path (a name for messages) and format, and call counted() after each frame read or skipped.
  ClipReader(std::string path, ClipFormat format);
  void counted() { ++frames_read_; }
  void set_frame_count_hint(std::int64_t frames) { frame_count_hint_ = frames; }

 private:
  std::string path_;
  ClipFormat format_;
  std::int64_t frames_read_ = 0;
  std::int64_t frame_count_hint_ = -1;
};

}  // namespace mad
