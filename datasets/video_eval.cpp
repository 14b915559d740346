#include "datasets/video_eval.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <map>

#include "common/clip_reader.h"
#include "common/error.h"
#include "common/progress_bar.h"
#include "datasets/dataset_readers.h"
#include "datasets/eval_report_files.h"
#include "datasets/eval_session.h"
#include "mad/results/pairs_list.h"
#include "mad/results/results_file.h"
#include "mad/results/results_settings.h"
#include "mad/results/video_results.h"
#include "mad/results/result_json.h"

namespace mad::datasets {
namespace fs = std::filesystem;
namespace {

void say(std::FILE* log, const std::string& line) {
  if (log) std::fprintf(log, "mad eval: %s\n", line.c_str());
}

bool needs_stmad(const std::string& figure) {
  return figure == "smad" || figure == "tmad" || figure == "stmad";
}

// The raw clips' formats of the manifest, by its line: its width, height and pixel_format
// columns, read by the results room's list reader (one reading of those columns).
std::map<int, ClipFormat> raw_formats(const std::string& manifest) {
  std::map<int, ClipFormat> formats;
  results::PairsListReader list(manifest);
  for (results::PairRow row; list.next(row);) {
    try {
      if (const auto format = raw_clip_format_of(row)) formats[row.line] = *format;
    } catch (const InvalidArgument& e) {
      throw InputError(manifest + ":" + std::to_string(row.line) + ": " + e.what());
    }
  }
  return formats;
}

// A row's figure: its column of the video results header, NaN when empty (not defined).
double figure_of(const std::vector<std::string>& fields, const std::string& figure) {
  const auto& h = results::video_results_header();
  const std::string& text = fields[std::find(h.begin(), h.end(), figure) - h.begin()];
  return text.empty() ? std::nan("") : std::stod(text);
}

}  // namespace

results::VideoPairFigures video_pair_figures(const VideoSummary& s,
                                             const std::string& mad_version) {
  results::VideoPairFigures f;
  f.frames = s.frames_scored;
  f.mad_mean = s.mad.mean;
  f.mad_min = s.mad.min;
  f.mad_max = s.mad.max;
  f.mad_harmonic_mean = s.mad.harmonic_mean;
  f.mad_p1 = s.mad.p1;
  f.mad_p5 = s.mad.p5;
  f.mad_p50 = s.mad.p50;
  f.mad_p95 = s.mad.p95;
  if (s.stmad) {
    f.smad = s.stmad->smad;
    f.tmad = s.stmad->tmad;
    f.stmad = s.stmad->stmad;
  }
  f.width = s.format.width;
  f.height = s.format.height;
  f.pixel_format = s.format.pixel_format();
  f.backend = to_string(s.backend);
  f.mad_version = mad_version;
  f.seconds = s.seconds;
  return f;
}

std::optional<ClipFormat> raw_clip_format_of(const results::PairRow& row) {
  if (row.width.empty() && row.height.empty() && row.pixel_format.empty()) return std::nullopt;
  if (row.width.empty() || row.height.empty() || row.pixel_format.empty())
    throw InvalidArgument("a raw clip needs width, height and pixel_format (got '" + row.width +
                          "', '" + row.height + "', '" + row.pixel_format + "')");
  const auto size = [](const std::string& text, const char* name) {
    std::size_t used = 0;
    long v = 0;
    try {
      v = std::stol(text, &used, 10);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != text.size() || v < 1 || v > 1 << 20)
      throw InvalidArgument(std::string(name) + " '" + text + "' is not a positive whole number");
    return static_cast<int>(v);
  };
  return raw_clip_format(row.pixel_format, size(row.width, "width"), size(row.height, "height"));
}

EvalReport run_video_evaluation(const VideoEvalConfig& cfg) {
  results::require_video_figure(cfg.figure, "--figure");
  if (cfg.manifest.empty())
    throw InvalidArgument("--dataset video needs --manifest FILE (ref,dist,score columns)");
  VideoOptions options = cfg.video;
  options.stmad = options.stmad || needs_stmad(cfg.figure);
  options.score.backend = cfg.choice.backend;
  VideoScorer scorer(options, cfg.choice.backend);  // refuses options that cannot run

  Dataset d = read_manifest(cfg.manifest, cfg.higher_is_better);
  d.root = cfg.dir;
  const std::map<int, ClipFormat> raw = raw_formats(cfg.manifest);
  const std::string out =
      cfg.out.empty() ? results::default_results_name("video", cfg.dir) : cfg.out;
  check_report_files(out, cfg.json, cfg.html, cfg.overwrite || cfg.resume);

  EvalReport r = start_report(d);
  r.dataset = "video";
  r.notes.push_back("each clip pair's " + cfg.figure + " is the metric correlated (--figure)");
  results::RunSettings settings = results::run_settings(options.score, cfg.choice.backend);
  for (const auto& [key, value] : video_settings(options, cfg.choice.backend))
    results::set_setting(settings, key, value);
  results::set_dataset(settings, "video", cfg.dir, d.entries.size());
  settings.dataset_manifest = fs::absolute(cfg.manifest).lexically_normal().string();
  if (cfg.higher_is_better)
    settings.dataset_direction = *cfg.higher_is_better ? "higher-is-better" : "lower-is-better";
  r.settings.mad_version = settings.mad_version;
  r.settings.backend = settings.backend;
  r.settings.precision = settings.precision;
  r.settings.input_class = settings.input_class;
  r.settings.results_file = out;
  r.settings.backend_reason = cfg.choice.reason;
  r.settings.bootstrap = cfg.bootstrap;

  // The results file: resumed (the finished rows' figures kept) or created, with its settings.
  results::ResultsLog previous;
  std::error_code ec;
  std::optional<results::ResultsWriter> writer;
  if (cfg.resume && fs::exists(out, ec)) {
    previous = results::read_results_file(out, results::ResultsKind::VideoPairs);
    if (!previous.rows.empty()) results::require_same_settings(out, settings);
    writer.emplace(results::ResultsWriter::resume(out, previous, results::ResultsKind::VideoPairs));
  } else {
    writer.emplace(
        results::ResultsWriter::create(out, cfg.overwrite, results::ResultsKind::VideoPairs));
  }
  results::write_settings(out, settings);
  if (cfg.on_results_file) cfg.on_results_file(out);

  std::vector<double> values(d.entries.size(), std::nan(""));
  const auto t0 = std::chrono::steady_clock::now();
  std::size_t undefined = 0;
  // A bar of the clip pairs this run scores, as the image datasets' engine shows one.
  std::size_t todo = 0;
  for (const DatasetEntry& e : d.entries) todo += !previous.find({e.ref_name, e.dist_name});
  if (cfg.limit) todo = std::min(todo, cfg.limit);
  ProgressBar progress(todo, "clips/s", cfg.log);
  for (std::size_t i = 0; i < d.entries.size(); ++i) {
    const DatasetEntry& e = d.entries[i];
    if (const results::FinishedRow* done = previous.find({e.ref_name, e.dist_name})) {
      values[i] = figure_of(done->fields, cfg.figure);
      ++r.counts.finished_before;
    } else if (cfg.limit && r.counts.scored_now + r.failures.size() == cfg.limit) {
      ++r.counts.not_run;  // --limit: left for a later --resume, and out of the statistics
      continue;
    } else {
      const auto it = raw.find(e.line);
      const ClipFormat* format = it == raw.end() ? nullptr : &it->second;
      try {
        const auto ref = ClipReader::open(e.ref, format);
        const auto dist = ClipReader::open(e.dist, format);
        const VideoSummary s = scorer.score(*ref, *dist, [](const FrameRow&) {});
        const results::VideoPairFigures f = video_pair_figures(s, settings.mad_version);
        const auto row = results::video_csv_row(e.ref_name, e.dist_name, &f, "",
                                                cfg.choice.reason, e.line);
        writer->write(row);
        values[i] = figure_of(row, cfg.figure);
        ++r.counts.scored_now;
        progress.tick();
      } catch (const Error& e2) {
        if (e2.exit_code() == kExitGpu) throw;
        writer->write(results::video_csv_row(e.ref_name, e.dist_name, nullptr, e2.what(),
                                             cfg.choice.reason, e.line));
        r.failures.push_back({e.ref_name, e.dist_name, e2.what()});
        progress.clear();
        say(cfg.log, e.dist_name + ": " + e2.what());
        progress.tick(true);
        continue;
      }
    }
    undefined += std::isnan(values[i]);
  }
  progress.finish();
  r.counts.failed_now = r.failures.size();
  r.score_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (undefined) {
    r.notes.push_back(std::to_string(undefined) + " clip pair(s) have no " + cfg.figure +
                      " (TMAD and STMAD need at least 34 frames): left out of the statistics");
    say(cfg.log, r.notes.back());
  }
  add_statistics(r, d, values, cfg.bootstrap);
  write_report_files(r, cfg.json, cfg.html, cfg.log);
  return r;
}

}  // namespace mad::datasets
