// `mad video`'s logs (--json, --xml, --csv): one record per frame, written as the frames are
// scored (a stopped run keeps every frame written before it), then the pooled figures, the
// clip's figures (ST-MAD), the speed and the settings record at the end.
//
// Shaped like vmaf's logs (libvmaf's output.c), so that tools reading those read ours:
//  * JSON: "frames": [{"frameNum": N, "metrics": {"mad": .., "mad_hi": .., "mad_lo": ..}}],
//    "pooled_metrics": {"mad": {"min", "max", "mean", "harmonic_mean", "p1", "p5", "p50",
//    "p95"}, ...}, "aggregate_metrics": {...}, "fps" (frames scored a second, as vmaf's), and
//    our own "params" (the clip and the settings record, results_settings' keys). vmaf writes
//    a value that is not finite as null; so do we. Values carry 17 significant digits (vmaf's
//    six would lose the bit-for-bit equality with `mad score`).
//  * XML: <VMAF version=..> with <params .../>, <fyi fps=.../>, <frames><frame frameNum="N"
//    mad=".." .../></frames>, <pooled_metrics><metric name="mad" min=".." .../>, and
//    <aggregate_metrics .../>; the root is named VMAF as vmaf's readers look for it.
//  * CSV: a header "Frame,mad,mad_hi,mad_lo" and one line per frame (vmaf ends every line
//    with a comma; we do not, which CSV readers take alike). The settings record goes beside it,
//    FILE.settings, as every results file of mad/results keeps it; a CSV holds rows only.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace mad::results {

enum class VideoLogFormat { Json, Xml, Csv };

using NamedValues = std::vector<std::pair<std::string, double>>;
using NamedTexts = std::vector<std::pair<std::string, std::string>>;

// What the log states before the frames.
struct VideoLogHead {
  std::string version;    // "mad 0.1.0"
  std::string ref, dist;  // the clips as given
  int width = 0, height = 0;
  std::string pixel_format;          // ffmpeg's name
  double frame_rate = 0;             // the clip's (Y4M's F tag), 0 when unknown
  std::vector<std::string> metrics;  // the per-frame metrics' names, in the rows' order
};

// What the log states after the frames.
struct VideoLogEnd {
  std::vector<std::pair<std::string, NamedValues>> pooled;  // metric -> (statistic, value)
  NamedValues aggregate;           // the clip's figures: "mad" (the mean), "smad", "tmad", "stmad"
  std::vector<std::string> notes;  // e.g. why TMAD is not defined, clips of different lengths
  std::int64_t frames_scored = 0, ref_frames = 0, dist_frames = 0;
  double fps = 0, seconds = 0;  // frames scored a second, and the run's seconds
  // The rate after the first frame's row and when that row came (VideoSummary's); not vmaf's.
  double fps_after_first_frame = 0, seconds_to_first_frame = 0;
  NamedTexts settings;          // the settings record's keys and values
};

class VideoLog {
 public:
  // Opens `path` ("-": the standard output) for `format`. An existing file is refused unless
  // `force` (InvalidArgument, exit 2, naming `option`); one that cannot be opened is an
  // InputError with the system's reason.
  VideoLog(VideoLogFormat format, const std::string& path, const std::string& option, bool force);
  ~VideoLog();
  VideoLog(const VideoLog&) = delete;
  VideoLog& operator=(const VideoLog&) = delete;

  const std::string& path() const { return path_; }
  void begin(const VideoLogHead& head);
  // One frame's values, in head.metrics' order; flushed at once.
  void frame(std::int64_t frame_number, const std::vector<double>& values);
  // Ends the log and closes it (the CSV's settings go to FILE.settings). Every write that fails
  // is an InputError "cannot write 'PATH': REASON".
  void end(const VideoLogEnd& end);

 private:
  void put(const std::string& text);
  void flush();

  VideoLogFormat format_;
  std::string path_, option_;
  std::FILE* file_ = nullptr;
  bool owned_ = false;
  std::int64_t frames_ = 0;
  std::vector<std::string> metrics_;
};

// A double as the logs write it: 17 significant digits (round trip), "null" when not finite.
std::string log_number(double v);

}  // namespace mad::results
