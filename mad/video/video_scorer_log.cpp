#include "mad/video/video_scorer_log.h"

namespace mad {

const std::vector<std::string>& frame_metric_names() {
  static const std::vector<std::string> names = {"mad", "mad_hi", "mad_lo"};
  return names;
}

std::vector<double> frame_metric_values(const FrameRow& row) {
  return {row.mad, row.hi, row.lo};
}

results::VideoLogHead video_log_head(const ClipReader& ref, const ClipReader& dist,
                                     const std::string& version) {
  results::VideoLogHead head;
  head.version = version;
  head.ref = ref.path();
  head.dist = dist.path();
  head.width = ref.format().width;
  head.height = ref.format().height;
  head.pixel_format = ref.format().pixel_format();
  head.frame_rate = ref.format().fps();
  head.metrics = frame_metric_names();
  return head;
}

results::VideoLogEnd video_log_end(const VideoSummary& s, const VideoOptions& options) {
  results::VideoLogEnd end;
  const std::vector<std::string>& names = frame_metric_names();
  end.pooled = {{names[0], named_figures(s.mad)},
                {names[1], named_figures(s.hi)},
                {names[2], named_figures(s.lo)}};
  end.aggregate = {{"mad", s.mad.mean}};
  end.notes = s.warnings;
  if (s.stmad) {
    end.aggregate.insert(
        end.aggregate.end(),
        {{"smad", s.stmad->smad}, {"tmad", s.stmad->tmad}, {"stmad", s.stmad->stmad}});
    end.notes.insert(end.notes.end(), s.stmad->notes.begin(), s.stmad->notes.end());
  }
  end.frames_scored = s.frames_scored;
  end.ref_frames = s.ref_frames;
  end.dist_frames = s.dist_frames;
  end.fps = s.frames_per_second;
  end.seconds = s.seconds;
  end.fps_after_first_frame = s.frames_per_second_running;
  end.seconds_to_first_frame = s.seconds_to_first_frame;
  end.settings = video_settings(options, s.backend);
  return end;
}

}  // namespace mad
