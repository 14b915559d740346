// The rows of `mad video --pairs LIST --out FILE`: one row per clip pair with its pooled MAD
// figures and ST-MAD, the results kind ResultsKind::VideoPairs. It follows `mad score --pairs`'s
// rules (results_file.h: one flushed row per pair, --resume keyed by the list's `line`;
// pairs_output.h; pairs_shard.h; pairs_merge.h); only the columns differ.
//
// The room holds plain figures, not mad/video's types: the results room sits below the video
// model (cmake/check_layering.cmake), so the command fills a VideoPairFigures from its summary.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mad::results {

// The settings record's dataset name of a `mad video --pairs LIST --shard I/N` run's list
// (`mad score --pairs` records "pairs-list"): `mad merge` reads the shards' kind from it.
inline constexpr const char* kVideoPairsListDataset = "video-pairs-list";

// One clip pair's figures as its row holds them. NaN where a figure is not defined (SMAD, TMAD
// and STMAD without --stmad; TMAD and STMAD below 34 frames): written as an empty field.
struct VideoPairFigures {
  std::int64_t frames = 0;  // frames scored
  double mad_mean = 0, mad_min = 0, mad_max = 0, mad_harmonic_mean = 0;
  double mad_p1 = 0, mad_p5 = 0, mad_p50 = 0, mad_p95 = 0;
  double smad, tmad, stmad;  // NaN unless set
  int width = 0, height = 0;
  std::string pixel_format, backend, mad_version;
  double seconds = 0;
  VideoPairFigures();
};

// ref, dist, frames, mad_mean, mad_min, mad_max, mad_harmonic_mean, mad_p1, mad_p5, mad_p50,
// mad_p95, smad, tmad, stmad, width, height, pixel_format, backend, mad_version, seconds, error,
// backend_reason, line.
const std::vector<std::string>& video_results_header();

// The row of one clip pair: `figures` null for a failure, with `error` saying why.
std::vector<std::string> video_csv_row(const std::string& ref, const std::string& dist,
                                       const VideoPairFigures* figures, const std::string& error,
                                       const std::string& backend_reason, int line);

// The figures a row holds, by name: "frames", "mad_mean", ..., "stmad" (NaN when empty). The
// columns a figure may be read from (`mad eval --figure` on video rows) are video_figure_names().
const std::vector<std::string>& video_figure_names();
// Throws InvalidArgument (exit 2) naming the figures for a name that is not one of them.
void require_video_figure(const std::string& name, const std::string& option);

}  // namespace mad::results
