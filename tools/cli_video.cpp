// `mad video REF DIST`: MAD of every frame pair of two clips (Y4M, or raw with --width --height
// --pixel-format; "-" reads standard input), the pooled figures, ST-MAD with --stmad, and
// vmaf-shaped logs (--json, --xml, --csv) written as the frames are scored (docs/video.md).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/error.h"
#include "common/parallel.h"
#include "common/progress_bar.h"
#include "mad/results/result_json.h"
#include "mad/results/video_log.h"
#include "mad/video/video_scorer.h"
#include "mad/video/video_scorer_log.h"
#include "tools/cli_commands.h"
#include "tools/cli_interrupt.h"
#include "tools/cli_options.h"
#include "tools/cli_stdout.h"
#include "tools/cli_subcommand.h"
#include "tools/cli_video_pairs.h"

namespace mad::cli {
namespace {

constexpr const char* kVersion = "mad 0.1.0";

struct VideoArgs {
  std::string ref, dist, json, xml, csv;
  bool force = false, quiet = false;
  int threads = 0;
  std::shared_ptr<VideoPairsArgs> pairs;  // --pairs and its options: tools/cli_video_pairs.cpp
};

// What `mad video` does, as mad --help lists it.
constexpr const char* kSummary =
    "MAD of every frame of a clip against its reference (Y4M or raw .yuv; '-' reads standard "
    "input), pooled as vmaf pools its metrics, with ST-MAD (--stmad) and vmaf-shaped logs";

// The logs asked for, opened (and an existing file refused) before any frame is read.
std::vector<std::unique_ptr<results::VideoLog>> open_logs(const VideoArgs& a) {
  int to_stdout = 0;
  for (const std::string* p : {&a.json, &a.xml, &a.csv}) to_stdout += *p == "-";
  if (to_stdout > 1)
    throw InvalidArgument("only one of --json, --xml and --csv can go to standard output ('-')");
  std::vector<std::unique_ptr<results::VideoLog>> logs;
  const std::pair<const std::string*, std::pair<results::VideoLogFormat, const char*>> kinds[] = {
      {&a.json, {results::VideoLogFormat::Json, "--json"}},
      {&a.xml, {results::VideoLogFormat::Xml, "--xml"}},
      {&a.csv, {results::VideoLogFormat::Csv, "--csv"}}};
  for (const auto& [path, kind] : kinds)
    if (!path->empty())
      logs.push_back(std::make_unique<results::VideoLog>(kind.first, *path, kind.second, a.force));
  return logs;
}

// The frames the range will score, when the clips' sizes tell their lengths; nullopt when a
// clip's length is not known (a pipe): the bar then counts without an end.
std::optional<std::size_t> expected_frames(const ClipReader& ref, const ClipReader& dist,
                                           const VideoOptions& o) {
  const std::int64_t a = ref.frame_count_hint(), b = dist.frame_count_hint();
  if (a < 0 || b < 0) return std::nullopt;
  std::int64_t end = std::min(a, b);
  if (o.frame_count >= 0) end = std::min(end, o.first_frame + o.frame_count);
  if (end <= o.first_frame) return 0;
  return static_cast<std::size_t>((end - o.first_frame + o.subsample - 1) / o.subsample);
}

std::string figure_line(const char* name, const PooledFigure& f) {
  using results::format_double;
  return std::string(name) + "  mean " + format_double(f.mean) + "  min " + format_double(f.min) +
         "  max " + format_double(f.max) + "  harmonic_mean " + format_double(f.harmonic_mean) +
         "\n" + std::string(std::char_traits<char>::length(name), ' ') + "  p1 " +
         format_double(f.p1) + "  p5 " + format_double(f.p5) + "  p50 " + format_double(f.p50) +
         "  p95 " + format_double(f.p95) + "\n";
}

// The short summary: frames, speed, pooled MAD, and ST-MAD's figures with --stmad.
std::string summary_text(const VideoSummary& s) {
  char head[256];
  std::snprintf(head, sizeof head, "frames %lld scored (ref %lld, dist %lld), %.2f frames/s",
                static_cast<long long>(s.frames_scored), static_cast<long long>(s.ref_frames),
                static_cast<long long>(s.dist_frames), s.frames_per_second);
  std::string out = head;
  // The set-up (plans, slots) is paid once a run: the rate after the first frame is the one
  // that holds for a longer clip, and the one comparable with `mad bench`'s batched rates.
  if (s.frames_per_second_running > 0) {
    std::snprintf(head, sizeof head, " (%.2f after the first frame, which came at %.3f s)",
                  s.frames_per_second_running, s.seconds_to_first_frame);
    out += head;
  }
  out += "\n" + figure_line("MAD   ", s.mad);
  if (s.stmad) {
    const auto figure = [](double v) {
      return std::isfinite(v) ? results::format_double(v) : std::string("not defined");
    };
    out += "SMAD   " + figure(s.stmad->smad) + "\nTMAD   " + figure(s.stmad->tmad) + "\nSTMAD  " +
           figure(s.stmad->stmad) + "\n";
  }
  return out;
}

int run_video(const CLI::App& cmd, const VideoArgs& a) {
  if (a.ref == "-" && a.dist == "-")
    throw InvalidArgument("only one of REF and DIST can be standard input ('-')");
  const GivenOptions given_options = given_scoring_options(cmd);
  VideoOptions options = video_options(given_options);
  const std::optional<ClipFormat> raw = raw_format_option(given_options);
  const BackendChoice choice = choose_backend(options.score.backend);
  refuse_unhonoured(given_options, choice);
  refuse_threads_on_cuda(cmd, choice);
  if (a.threads > 0) set_thread_count(a.threads);
  options.score.backend = choice.backend;
  VideoScorer scorer(options, choice.backend);  // refuses options that cannot run (exit 2)
  std::vector<std::unique_ptr<results::VideoLog>> logs = open_logs(a);

  const std::unique_ptr<ClipReader> ref = ClipReader::open(a.ref, raw ? &*raw : nullptr);
  const std::unique_ptr<ClipReader> dist = ClipReader::open(a.dist, raw ? &*raw : nullptr);
  std::string kept;
  for (const auto& log : logs) {
    log->begin(video_log_head(*ref, *dist, kVersion));
    kept += (kept.empty() ? "" : ", ") + log->path();
  }
  report_interrupts_saying(
      logs.empty() ? "no log was asked for (--json, --xml or --csv FILE keep every frame)"
                   : "the frames scored so far are in " + kept +
                         " (a log stopped early has no pooled figures)");
  // A log on standard output keeps it for itself: the summary then goes to stderr.
  const bool log_on_stdout = a.json == "-" || a.xml == "-" || a.csv == "-";
  std::FILE* summary_out = log_on_stdout ? stderr : stdout;
  ProgressBar progress(expected_frames(*ref, *dist, options), "frames/s",
                       a.quiet ? nullptr : stderr);
  const VideoSummary summary = scorer.score(
      *ref, *dist,
      [&](const FrameRow& row) {
        const std::vector<double> values = frame_metric_values(row);
        for (const auto& log : logs) log->frame(row.frame, values);
      },
      &progress);
  progress.finish();
  const results::VideoLogEnd end = video_log_end(summary, options);
  for (const auto& log : logs) log->end(end);
  if (!a.quiet) {
    for (const std::string& w : summary.warnings)
      std::fprintf(stderr, "mad: warning: %s\n", w.c_str());
    if (summary.stmad)
      for (const std::string& n : summary.stmad->notes)
        std::fprintf(stderr, "mad: note: %s\n", n.c_str());
  }
  std::fputs(summary_text(summary).c_str(), summary_out);
  flush_standard_output();
  return kExitOk;
}

// One pair of clips, or with --pairs a list of them.
int run(const CLI::App& cmd, const VideoArgs& a) {
  if (!a.pairs->list.empty()) return run_video_pairs(cmd, *a.pairs);
  refuse_video_pairs_options(cmd);
  if (a.ref.empty() || a.dist.empty())
    throw InvalidArgument("mad video needs REF and DIST (or --pairs LIST.csv)");
  return run_video(cmd, a);
}

void add_options(CLI::App* cmd, VideoArgs* args) {
  // Not required: --pairs LIST takes their place (tools/cli_video_pairs.cpp).
  cmd->add_option("REF", args->ref, "Reference clip (.y4m, raw .yuv, or '-' for standard input)");
  cmd->add_option("DIST", args->dist, "Distorted clip (.y4m, raw .yuv, or '-')");
  add_file_option(*cmd, "--json", args->json,
                  "Write vmaf's JSON log shape here ('-': standard output): frames[].metrics, "
                  "pooled_metrics, aggregate_metrics, fps, settings",
                  "Output");
  add_file_option(*cmd, "--xml", args->xml,
                  "Write vmaf's XML log shape here ('-': standard output)", "Output");
  add_file_option(*cmd, "--csv", args->csv,
                  "Write one CSV line per frame here (Frame,mad,mad_hi,mad_lo; '-': standard "
                  "output), its settings beside it in FILE.settings",
                  "Output");
  cmd->add_flag("--force", args->force, "Replace existing --json, --xml or --csv files")
      ->group("Output");
  cmd->add_flag("-q,--quiet", args->quiet,
                "No progress bar or notes on stderr (errors still print)")
      ->group("Output");
  add_scoring_options(*cmd, kVideoCommand);
  add_threads_option(*cmd, args->threads);
  args->pairs = add_video_pairs_options(*cmd);
}

}  // namespace

Subcommand add_video_command(CLI::App& root) {
  return make_subcommand<VideoArgs>(root, "video", kSummary, add_options, run);
}

}  // namespace mad::cli
