// What `mad video`'s logs (mad/results/video_log.h) state about a run: its head (the clips)
// and its end (pooled figures, ST-MAD, notes, speed, settings), from the run's own types.
#pragma once

#include <string>
#include <vector>

#include "mad/results/video_log.h"
#include "mad/video/video_scorer.h"

namespace mad {

// The per-frame metrics' names, in FrameRow's order: "mad", "mad_hi", "mad_lo" (vmaf names a
// model's features in the same way).
const std::vector<std::string>& frame_metric_names();
std::vector<double> frame_metric_values(const FrameRow& row);

results::VideoLogHead video_log_head(const ClipReader& ref, const ClipReader& dist,
                                     const std::string& version);
results::VideoLogEnd video_log_end(const VideoSummary& summary, const VideoOptions& options);

}  // namespace mad
