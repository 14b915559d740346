#include "tools/cli_video_pairs.h"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "common/clip_reader.h"
#include "common/error.h"
#include "common/parallel.h"
#include "common/progress_bar.h"
#include "datasets/video_eval.h"
#include "mad/results/csv.h"
#include "mad/results/pairs_list.h"
#include "mad/results/pairs_output.h"
#include "mad/results/pairs_shard.h"
#include "mad/results/results_settings.h"
#include "mad/results/video_results.h"
#include "mad/video/video_scorer.h"
#include "tools/cli_interrupt.h"
#include "tools/cli_options.h"

namespace mad::cli {
namespace {

// A list row's clips: their paths and, for raw files, the format of the row's columns.
struct ClipPair {
  int line = 0;
  std::string ref, dist;
  std::optional<ClipFormat> raw;
};

// The clips of `row`, checked: both open (a Y4M header read, a raw file's size a whole number
// of frames) and agree in size and format. The readers are not kept: a list opens one pair at
// a time when it scores.
ClipPair checked_pair(const results::PairRow& row) {
  if (!row.error.empty()) throw InputError(row.error);
  if (row.ref == "-" || row.dist == "-")
    throw InvalidArgument("standard input ('-') is not a clip of a list");
  ClipPair pair{row.line, row.ref, row.dist, datasets::raw_clip_format_of(row)};
  const auto ref = ClipReader::open(pair.ref, pair.raw ? &*pair.raw : nullptr);
  const auto dist = ClipReader::open(pair.dist, pair.raw ? &*pair.raw : nullptr);
  const ClipFormat &a = ref->format(), &b = dist->format();
  if (a.width != b.width || a.height != b.height || a.pixel_format() != b.pixel_format())
    throw InputError(std::to_string(a.width) + "x" + std::to_string(a.height) + " " +
                     a.pixel_format() + " against " + std::to_string(b.width) + "x" +
                     std::to_string(b.height) + " " + b.pixel_format() +
                     ": the clips of a pair must have one size and format");
  return pair;
}

// Options of the one-pair command that a list's run cannot honour.
void refuse_one_pair_options(const CLI::App& cmd) {
  for (const char* name : {"REF", "DIST"})
    if (cmd.get_option(name)->count())
      throw InvalidArgument("give either REF DIST or --pairs LIST.csv, not both");
  for (const char* name : {"--json", "--xml", "--csv"})
    if (cmd.get_option(name)->count())
      throw InvalidArgument(std::string(name) +
                            " writes one clip pair's per-frame log; a list's rows (one per "
                            "clip pair) go to --out");
  for (const char* name : {"--width", "--height", "--pixel-format"})
    if (cmd.get_option(name)->count())
      throw InvalidArgument(std::string(name) +
                            " describes one raw clip pair; with --pairs give each raw pair's "
                            "width, height and pixel_format as columns of the list");
}

}  // namespace

std::shared_ptr<VideoPairsArgs> add_video_pairs_options(CLI::App& cmd) {
  auto a = std::make_shared<VideoPairsArgs>();
  cmd.add_option("--pairs", a->list,
                 "CSV list of clip pairs: ref,dist (any order, as mad score --pairs reads them), "
                 "and width,height,pixel_format columns for raw clips; one results row per pair")
      ->type_name("LIST")
      ->group("Many clips");
  cmd.add_option("-o,--out", a->out,
                 "With --pairs: the results CSV (default: standard output); refused when it "
                 "exists, unless --force or --resume")
      ->type_name("FILE")
      ->group("Many clips");
  cmd.add_option("--shard", a->shard,
                 "With --pairs: score shard I of N (pairs sharing a reference stay together); "
                 "join the shards' --out with mad merge")
      ->type_name("I/N")
      ->group("Many clips");
  cmd.add_flag("--resume", a->resume,
               "With --pairs --out: keep --out's finished rows and score the other lines (failed "
               "ones again); refused when --out was made with other settings")
      ->group("Many clips");
  return a;
}

void refuse_video_pairs_options(const CLI::App& cmd) {
  for (const char* name : {"--out", "--shard", "--resume"})
    if (cmd.get_option(name)->count())
      throw InvalidArgument(std::string(name) +
                            " belongs to a list's run (--pairs LIST.csv); one clip pair writes "
                            "its figures with --json, --xml or --csv");
}

int run_video_pairs(const CLI::App& cmd, const VideoPairsArgs& a) {
  refuse_one_pair_options(cmd);
  const bool force = cmd.get_option("--force")->count() > 0;
  const bool quiet = cmd.get_option("--quiet")->count() > 0;
  if (a.resume && force)
    throw InvalidArgument("give --resume (continue --out) or --force (replace it), not both");
  if (a.resume && a.out.empty())
    throw InvalidArgument("--resume applies to the file of --out FILE, and no --out was given");
  if (force && a.out.empty())
    throw InvalidArgument("--force replaces the file of --out FILE, and no --out was given");

  const GivenOptions given = given_scoring_options(cmd);
  VideoOptions options = video_options(given);
  const BackendChoice choice = choose_backend(options.score.backend);
  refuse_unhonoured(given, choice);
  refuse_threads_on_cuda(cmd, choice);
  if (cmd.get_option("--threads")->count()) set_thread_count(cmd.get_option("--threads")->as<int>());
  options.score.backend = choice.backend;
  VideoScorer scorer(options, choice.backend);  // refuses options that cannot run (exit 2)

  // The settings record: the scoring keys and the video keys (--stmad, --subsample, the range),
  // which change the rows' figures, so --resume and mad merge never mix two runs.
  results::RunSettings settings = results::run_settings(options.score, choice.backend);
  for (const auto& [key, value] : video_settings(options, choice.backend))
    results::set_setting(settings, key, value);
  const results::ShardSpec shard =
      a.shard.empty() ? results::ShardSpec{} : results::parse_shard(a.shard);
  // A shard reads the list by its absolute path (its rows name absolute paths), as mad score's.
  const std::string list_path =
      shard.whole() ? a.list : std::filesystem::absolute(a.list).lexically_normal().string();
  std::optional<results::ShardPlan> plan;
  if (!shard.whole()) {
    plan.emplace(list_path, shard.count);
    results::set_dataset(settings, results::kVideoPairsListDataset, list_path, plan->rows());
    settings.shard = results::to_string(shard);
  }
  results::PairsOutputOptions out_options;
  out_options.out = a.out;
  out_options.resume = a.resume;
  out_options.force = force;
  out_options.quiet = quiet;
  out_options.csv_kind = results::ResultsKind::VideoPairs;
  results::PairsOutput output(out_options, settings);

  // The whole list is checked before --out is touched: every bad line is named at once.
  std::vector<ClipPair> todo;
  std::string bad;
  std::size_t listed = 0, bad_lines = 0, skipped = 0;
  {
    results::PairsListReader list(list_path);
    for (results::PairRow row; list.next(row); ++listed) {
      try {
        ClipPair pair = checked_pair(row);
        if (plan && plan->shard_of(row.ref) != shard.index) continue;
        if (output.take_finished(row)) {
          ++skipped;
          continue;
        }
        todo.push_back(std::move(pair));
      } catch (const InputError& e) {
        ++bad_lines;
        bad += "\n  " + a.list + ":" + std::to_string(row.line) + ": " + e.what();
      } catch (const InvalidArgument& e) {
        ++bad_lines;
        bad += "\n  " + a.list + ":" + std::to_string(row.line) + ": " + e.what();
      }
    }
    if (listed == 0)
      throw InputError("no clip pairs in " + a.list +
                       (list.had_header() ? " (a header and no rows)" : " (it is empty)"));
  }
  if (bad_lines)
    throw InputError(std::to_string(bad_lines) + " of the " + std::to_string(listed) +
                     " rows of " + a.list + " cannot be scored (nothing was):" + bad);
  output.open(a.list);
  report_interrupts(a.out, true);

  ProgressBar progress(todo.size(), "clips/s", quiet ? nullptr : stderr);
  std::size_t failures = 0;
  for (const ClipPair& pair : todo) {
    std::string error;
    std::optional<results::VideoPairFigures> figures;
    try {
      const auto ref = ClipReader::open(pair.ref, pair.raw ? &*pair.raw : nullptr);
      const auto dist = ClipReader::open(pair.dist, pair.raw ? &*pair.raw : nullptr);
      const VideoSummary s = scorer.score(*ref, *dist, [](const FrameRow&) {});
      if (!quiet)
        for (const std::string& w : s.warnings)
          std::fprintf(stderr, "mad: line %d: warning: %s\n", pair.line, w.c_str());
      figures = datasets::video_pair_figures(s, settings.mad_version);
    } catch (const InputError& e) {  // the clip's own fault (a truncated frame): its row fails
      error = e.what();
    }
    if (!figures) {
      ++failures;
      std::fprintf(stderr, "mad: line %d: %s\n", pair.line, error.c_str());
    }
    output.write_line(results::join_csv(results::video_csv_row(
        pair.ref, pair.dist, figures ? &*figures : nullptr, error, choice.reason, pair.line)));
    progress.tick(!figures);
  }
  progress.finish();
  output.close();
  if (!quiet)
    std::fprintf(stderr, "mad: %zu clip pairs scored, %zu failed%s\n", todo.size() - failures,
                 failures,
                 skipped ? (", " + std::to_string(skipped) + " already done").c_str() : "");
  return failures ? kExitPartial : kExitOk;
}

}  // namespace mad::cli
