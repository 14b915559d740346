// `mad video`'s scoring: MAD of every frame pair of two clips (issue 40), and ST-MAD with it.
// Frames are read ahead by a reader thread into a small bounded queue (memory does not grow with
// the clip), fed to one BatchScorer as SourceImages (several pairs in flight on the GPU), and
// each frame's row reaches the caller in frame order as soon as it is scored. A frame's row
// equals `mad score --input-class double` on the same luma plane (docs/video.md).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/clip_reader.h"
#include "common/progress_bar.h"
#include "mad/backend_choice.h"
#include "mad/options.h"
#include "mad/scoring_options.h"
#include "mad/video/frame_pooling.h"
#include "mad/video/stmad.h"

namespace mad {

struct VideoOptions {
  ScoreOptions score;             // input_class Auto means Double for video frames (docs/video.md)
  bool stmad = false;             // also ST-MAD (needs input class Double)
  int subsample = 1;              // score every Nth frame, as vmaf's --subsample
  std::int64_t first_frame = 0;   // frames skipped at the start of both clips
  std::int64_t frame_count = -1;  // at most this many frames after first_frame (-1: all)
};

struct FrameRow {
  std::int64_t frame = 0;
  double mad = 0, hi = 0, lo = 0;
};

struct VideoSummary {
  ClipFormat format;  // the clips' (equal) format
  std::int64_t frames_scored = 0, ref_frames = 0, dist_frames = 0;
  PooledFigure mad, hi, lo;
  std::optional<StmadFigures> stmad;
  std::vector<std::string> warnings;  // e.g. clips of different lengths
  double seconds = 0, frames_per_second = 0;  // the whole run, set-up included
  // When the first frame's row came (the scorer's set-up: cuFFT plans, the slots, their first
  // graphs; then that frame), and the rate from that row to the last: the clip's running rate,
  // comparable with the engine's batched rate, which is measured after a warm-up. 0 with fewer
  // than two frames.
  double seconds_to_first_frame = 0, frames_per_second_running = 0;
  Backend backend = Backend::Cpu;
  Precision precision = Precision::Double;
  InputClass input_class = InputClass::Double;
};

class VideoScorer {
 public:
  // Throws InvalidArgument (exit 2) for options that cannot run: --stmad with input class
  // uint8, a subsample below 1, a negative first frame, a frame count below -1.
  VideoScorer(VideoOptions options, ResolvedBackend backend);
  // Scores `dist` against `ref`. Each frame's row reaches on_frame in frame order as soon as it is
  // scored (writers stream it); `progress` (may be null) ticks per frame. InputError (exit 3):
  // different sizes or formats, a truncated frame; GpuError propagates.
  VideoSummary score(ClipReader& ref, ClipReader& dist,
                     const std::function<void(const FrameRow&)>& on_frame,
                     ProgressBar* progress = nullptr);

 private:
  VideoOptions options_;
  ResolvedBackend backend_;
};

// The frame numbers scored by `options` among `frames` frames (frames -1: unknown), as vmaf
// numbers them: first_frame, first_frame + subsample, ... below first_frame + frame_count.
// A frame is scored when (frame - first_frame) % subsample == 0.
bool frame_selected(const VideoOptions& options, std::int64_t frame);
// True when no frame at or after `frame` can be selected (the range has ended).
bool range_ended(const VideoOptions& options, std::int64_t frame);

// The options of a video run from the table's rows given (mad/scoring_options.h): its Score
// rows into `score`, its Video rows (--stmad, --subsample, --first-frame, --frame-count) into
// the rest. InvalidArgument names a bad value.
VideoOptions video_options(const GivenOptions& given);
// The settings record of a video run on `backend`: the scoring keys (recorded_settings) and the
// Video rows' keys (stmad, subsample, first_frame, frame_count), in table order. The logs carry
// it; --resume-style comparisons use results_settings' key names.
std::vector<std::pair<std::string, std::string>> video_settings(const VideoOptions& options,
                                                                Backend backend);
// The raw clips' format from --width, --height and --pixel-format: nullopt when none is given
// (the clips must then be Y4M); all three or InvalidArgument naming the missing ones.
std::optional<ClipFormat> raw_format_option(const GivenOptions& given);

}  // namespace mad
