// `mad eval DIR --dataset video --manifest videos.csv`: a manifest of clip pairs with
// subjective scores (issue 40 item 5), each pair scored through mad/video's VideoScorer, its
// row written to a results file of the video kind (mad/results/video_results.h), and the
// chosen figure (--figure: stmad by default, or smad, tmad, mad_mean, ...) correlated with the
// scores by the same statistics and report writers as every other dataset (add_statistics,
// write_report_files). The manifest is the CSV manifest of image datasets (ref, dist, score or
// mos/dmos, type, level, the '# higher_is_better:' line) plus, for raw clips, width, height and
// pixel_format columns (docs/video.md, "Many clips").
#pragma once

#include <cstdio>
#include <functional>
#include <optional>
#include <string>

#include "datasets/eval_report.h"
#include "mad/backend_choice.h"
#include "mad/results/pairs_list.h"
#include "mad/results/video_results.h"
#include "mad/video/video_scorer.h"

namespace mad::datasets {

struct VideoEvalConfig {
  explicit VideoEvalConfig(BackendChoice backend) : choice(std::move(backend)) {}
  BackendChoice choice;                  // the run's backend, chosen where the command starts
  std::string dir;                       // the dataset folder (the report's root)
  std::string manifest;                  // the manifest, read from the working folder
  std::optional<bool> higher_is_better;  // overrides / supplies the manifest's direction
  std::string figure = "stmad";          // a column of video_figure_names()
  VideoOptions video;                    // stmad is set when the figure needs it
  std::string out;                       // "" = default_results_name("video", dir)
  bool resume = false, overwrite = false;
  std::size_t limit = 0;                 // score at most this many new pairs (0 = all)
  std::string json, html;
  BootstrapOptions bootstrap;
  std::FILE* log = stderr;
  // Told the results file once it is open (mad eval reports an interrupt against it).
  std::function<void(const std::string& path)> on_results_file;
};

// A clip pair's results row figures (mad video --pairs and this evaluation write the same rows).
results::VideoPairFigures video_pair_figures(const VideoSummary& summary,
                                             const std::string& mad_version);

// A list row's raw clip format from its width, height and pixel_format columns; nullopt when it
// gives none of them. InvalidArgument (exit 2 words) names what is wrong: some missing, a size
// that is not a positive whole number, an unknown pixel format (raw_clip_format's list).
std::optional<ClipFormat> raw_clip_format_of(const results::PairRow& row);

// Runs it. InvalidArgument for an unknown figure or options that cannot run; InputError for an
// unreadable manifest (its line named), a manifest row whose raw columns are wrong, or a results
// file of other settings; a clip pair that fails is counted and listed, as a failed image pair.
EvalReport run_video_evaluation(const VideoEvalConfig& config);

}  // namespace mad::datasets
