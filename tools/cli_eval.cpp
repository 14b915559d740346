// `mad eval DIR`: options in, datasets::run_evaluation, summary out.
#include "tools/cli_eval.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <iostream>
#include <cstdint>
#include <limits>
#include <memory>
#include <regex>
#include <set>

#include "common/error.h"
#include "common/parallel.h"
#include "common/text_file.h"
#include "datasets/eval_session.h"
#include "datasets/synthetic_dataset.h"
#include "datasets/video_eval.h"
#include "mad/memory_limits.h"
#include "mad/score.h"
#include "tools/cli_interrupt.h"
#include "tools/cli_options.h"
#include "tools/cli_report_args.h"
#include "tools/cli_subcommand.h"
#include "tools/cli_stdout.h"

namespace mad::cli {
namespace {

struct EvalArgs : ReportArgs {
  std::string dir, dataset = "auto", manifest, shard;
  std::string figure;  // --dataset video: the figure correlated (default stmad)
  bool resume = false, higher_better = false, lower_better = false;
  int gpus = 0, workers_per_gpu = 1, cpu_workers = 1, threads = 0;
  int decode_threads = 0;
  std::size_t limit = 0;
  bool make_synthetic = false;
  int synthetic_refs = 40;
  int synthetic_types = 5;
  bool synthetic_colour = false;
  std::string synthetic_size = "512x384";
  std::string synthetic_format = "png";
};

// What `mad eval` does, as mad --help lists it.
constexpr const char* kSummary =
    "Score an IQA dataset in its published layout (TID2013/2008, KADID-10k, CSIQ, LIVE, "
    "or a CSV manifest) and report SROCC, KROCC, PLCC and RMSE with bootstrap intervals";

int make_synthetic(const EvalArgs& a) {
  datasets::SyntheticSpec spec;
  spec.references = a.synthetic_refs;
  spec.types = a.synthetic_types;
  spec.colour = a.synthetic_colour;
  static const std::regex size("([1-9][0-9]{0,4})x([1-9][0-9]{0,4})");
  std::smatch m;
  if (!std::regex_match(a.synthetic_size, m, size) || (spec.width = std::stoi(m[1])) < 34 ||
      (spec.height = std::stoi(m[2])) < 34)
    throw InvalidArgument("--synthetic-size must be WxH with both sides >= 34 (MAD's minimum)");
  try {
    spec.format = datasets::synthetic_image_format(a.synthetic_format);
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(std::string("--synthetic-format: ") + e.what());
  }
  const bool quiet = a.quiet;
  const std::size_t pairs = datasets::write_synthetic_kadid(
      a.dir, spec,
      [quiet](int done, int total) {
        if (!quiet) std::fprintf(stderr, "\rmad eval: writing references %d/%d", done, total);
      },
      a.force);
  std::fprintf(stderr,
               "%smad eval: wrote %zu %s pairs (%dx%d %s files, KADID-10k layout, invented "
               "scores) to %s\n",
               quiet ? "" : "\n", pairs, spec.colour ? "RGB" : "gray", spec.width, spec.height,
               datasets::synthetic_extension(spec.format), a.dir.c_str());
  return kExitOk;
}

// With --make-synthetic only the dataset is written: every scoring option would be ignored, and
// without it the --synthetic-* options would be.
void refuse_idle_options(const CLI::App& cmd, const EvalArgs& a) {
  static const std::set<std::string> synthetic = {"DIR",
                                                  "--make-synthetic",
                                                  "--synthetic-refs",
                                                  "--synthetic-types",
                                                  "--synthetic-colour",
                                                  "--synthetic-size",
                                                  "--synthetic-format",
                                                  "--threads",
                                                  "--force",
                                                  "--quiet"};
  for (const CLI::Option* opt : cmd.get_options()) {
    if (opt->count() == 0) continue;
    const std::string name = opt->get_name();
    const bool for_synthetic = synthetic.count(name) > 0;
    if (a.make_synthetic && !for_synthetic)
      throw InvalidArgument(name +
                            " has no effect with --make-synthetic (it only writes the "
                            "dataset): drop it, and score the dataset in a second run");
    if (!a.make_synthetic && for_synthetic && name.rfind("--synthetic-", 0) == 0)
      throw InvalidArgument(name + " only applies with --make-synthetic");
  }
  if (a.resume && a.force)
    throw InvalidArgument("give --resume (continue --out) or --force (replace it), not both");
  if (a.higher_better && a.lower_better)
    throw InvalidArgument("give --higher-is-better or --lower-is-better, not both");
  if (!a.shard.empty())
    for (const char* name : {"--bootstrap", "--seed", "--json", "--html"})
      if (given(cmd, name))
        throw InvalidArgument(std::string(name) +
                              " applies to the statistics, which one --shard does not compute: "
                              "give it to mad merge, which joins the shards and writes them");
}

// --limit's pairs left for later, said even with --quiet: the statistics lack them.
void say_not_run(const datasets::EvalReport& report) {
  if (report.counts.not_run)
    std::fprintf(stderr, "mad eval: %zu pair(s) not run (--limit); continue with --resume\n",
                 report.counts.not_run);
}

// --dataset video: clip pairs scored one after another through mad/video (datasets/video_eval.h).
int run_video_eval(const CLI::App& cmd, const EvalArgs& a) {
  for (const char* name : {"--shard", "--gpus", "--workers-per-gpu", "--cpu-workers",
                           "--decode-threads"})
    if (given(cmd, name))
      throw InvalidArgument(std::string(name) +
                            " is not available with --dataset video (its clip pairs are scored "
                            "one after another, each by one video scorer)");
  const GivenOptions options = given_scoring_options(cmd);
  VideoOptions video;
  video.score = apply_scoring_options(options);
  const BackendChoice choice = choose_backend(video.score.backend);
  refuse_unhonoured(options, choice);
  refuse_threads_on_cuda(cmd, choice);  // the video scorer uses CPU threads only on the CPU
  datasets::VideoEvalConfig c(choice);
  c.dir = a.dir;
  c.manifest = a.manifest;
  if (a.higher_better) c.higher_is_better = true;
  if (a.lower_better) c.higher_is_better = false;
  if (!a.figure.empty()) c.figure = a.figure;
  c.video = video;
  c.resume = a.resume;
  apply_report_args(a, c);
  c.limit = a.limit;
  c.on_results_file = [](const std::string& path) { report_interrupts(path, true); };
  const datasets::EvalReport report = datasets::run_video_evaluation(c);
  std::cout << datasets::report_to_text(report);
  flush_standard_output();
  say_not_run(report);
  return datasets::exit_code_for(report);
}

int run(const CLI::App& cmd, const EvalArgs& a) {
  refuse_idle_options(cmd, a);
  if (a.threads > 0) set_thread_count(a.threads);
  if (a.make_synthetic) return make_synthetic(a);
  if (a.dataset == "video") return run_video_eval(cmd, a);
  if (!a.figure.empty())
    throw InvalidArgument("--figure picks the figure of a clip pair; it applies with --dataset "
                          "video");
  const GivenOptions given = given_scoring_options(cmd);
  const ScoreOptions score = apply_scoring_options(given);
  const BackendChoice choice = choose_backend(score.backend);
  refuse_unhonoured(given, choice);  // every option takes effect or is refused
  datasets::EvalConfig c(choice);  // the run's one choice: the engine and scorers take it
  c.dir = a.dir;
  c.dataset = a.dataset;
  c.read.manifest = a.manifest;
  if (a.higher_better) c.read.higher_is_better = true;
  if (a.lower_better) c.read.higher_is_better = false;
  c.resume = a.resume;
  c.limit = a.limit;
  c.runner.gpus = a.gpus;
  c.runner.workers_per_gpu = a.workers_per_gpu;
  c.runner.cpu_workers = a.cpu_workers;
  c.runner.decode_threads = static_cast<std::size_t>(a.decode_threads);
  c.runner.score = score;
  if (!a.shard.empty()) c.shard = results::parse_shard(a.shard);
  apply_report_args(a, c);
  c.on_results_file = [](const std::string& path) { report_interrupts(path, true); };
  const datasets::EvalReport report = datasets::run_evaluation(c);
  std::cout << datasets::report_to_text(report);
  flush_standard_output();  // the report is the result: lost, it is an error
  if (!a.quiet)
    std::fprintf(stderr, "mad eval: one row per pair in %s\n",
                 report.settings.results_file.c_str());
  say_not_run(report);
  if (!a.quiet && !a.shard.empty())
    std::fprintf(stderr,
                 "mad eval: no statistics for shard %s alone: join the --out files of all %d "
                 "shards with mad merge OUT FILES... (it writes them)\n",
                 a.shard.c_str(), c.shard.count);
  return datasets::exit_code_for(report);
}

void add_options(CLI::App* cmd, EvalArgs* a) {
  cmd->add_option("DIR", a->dir, "Dataset folder as published")->required()->type_name("DIR");
  cmd->add_option("--dataset", a->dataset,
                  "auto | tid2013 | tid2008 | kadid10k | csiq | live | csv | video (a "
                  "--manifest of clip pairs, scored by mad video)")
      ->capture_default_str()
      ->group("Dataset");
  add_file_option(*cmd, "--manifest", a->manifest,
                  "CSV manifest (ref,dist,score[,type,level]; paths in it relative to its own "
                  "folder) for --dataset csv, "
                  "or CSIQ's DMOS sheet exported as CSV (image,dst_type,dst_lev,dmos)",
                  "Dataset");
  cmd->add_option("--figure", a->figure,
                  "--dataset video: the clip pair's figure correlated with the scores: stmad "
                  "(default), smad, tmad, mad_mean, mad_min, mad_max, mad_harmonic_mean, "
                  "mad_p1, mad_p5, mad_p50, mad_p95")
      ->group("Dataset")
      ->type_name("NAME");
  cmd->add_flag("--higher-is-better", a->higher_better,
                "Manifest scores are MOS-like (higher = better quality)")
      ->group("Dataset");
  cmd->add_flag("--lower-is-better", a->lower_better,
                "Manifest scores are DMOS-like (higher = worse quality)")
      ->group("Dataset");
  add_file_option(*cmd, "-o,--out", a->out,
                  "Results CSV, one flushed row per pair (default: "
                  "results_<layout>_<folder>_<hash>.csv here, one file per dataset), and "
                  "FILE.settings beside it (the settings that change a score, for --resume)",
                  "Output");
  cmd->add_flag("--resume", a->resume,
                "Skip the pairs already scored in --out (failed ones are retried)")
      ->group("Output");
  cmd->add_option("--shard", a->shard,
                  "Score shard I of N of the dataset's pairs (1-based; a reference's pairs stay "
                  "together, shares balanced by pixels) and no statistics; join the shards' "
                  "--out files with mad merge")
      ->type_name("I/N")
      ->group("Dataset");
  cmd->add_flag("--force", a->force,
                "Replace an existing --out and the files beside --html instead of refusing "
                "(with --make-synthetic: write into a folder that is not empty)")
      ->group("Output");
  add_file_option(*cmd, "--json", a->json,
                  "Write the summary (statistics, settings, timing, missing images) as JSON",
                  "Output");
  add_file_option(
      *cmd, "--html", a->html,
      "Write a self-contained HTML report (scatter with the fitted curve, per-type table), "
      "and beside it, X being FILE without its extension, X.figure.svg (the figure), "
      "X.types.csv and X.types.tex (the table); existing ones are refused without --force "
      "or --resume",
      "Output");
  cmd->add_flag("-q,--quiet", a->quiet,
                "No progress bar or notes on stderr (the report still prints)")
      ->group("Output");
  add_scoring_options(*cmd, kEvalCommand);
  add_run_option(*cmd, "--gpus", a->gpus);
  add_run_option(*cmd, "--workers-per-gpu", a->workers_per_gpu);
  add_run_option(*cmd, "--cpu-workers", a->cpu_workers);
  add_run_option(*cmd, "--decode-threads", a->decode_threads);
  cmd->add_option("--limit", a->limit, "Score at most N new pairs (then --resume continues)")
      ->check(decimal_in_range(1, std::numeric_limits<long long>::max(),
                               "leave --limit out to score every pair"))
      ->group("Scoring");
  add_threads_option(*cmd, a->threads);
  add_statistics_options(*cmd, a->resamples, a->seed, "Statistics");
  cmd->add_flag("--make-synthetic", a->make_synthetic,
                "Write a synthetic dataset (KADID-10k layout, invented scores) into DIR and exit")
      ->group("Synthetic dataset");
  cmd->add_option("--synthetic-refs", a->synthetic_refs,
                  "References of --make-synthetic (x types x 5 levels pairs each)")
      ->capture_default_str()
      ->check(decimal_in_range(1, 99, "40 is the default"))
      ->group("Synthetic dataset");
  cmd->add_option("--synthetic-types", a->synthetic_types,
                  "Distortion types of --make-synthetic: the first N of 25 KADID-10k-like "
                  "types (25 with 81 references: KADID-10k's 10,125 pairs)")
      ->capture_default_str()
      ->check(decimal_in_range(1, 25, "5 is the default"))
      ->group("Synthetic dataset");
  cmd->add_flag("--synthetic-colour", a->synthetic_colour,
                "RGB images for --make-synthetic (KADID-10k's format; default gray)")
      ->group("Synthetic dataset");
  cmd->add_option("--synthetic-size", a->synthetic_size, "Image size of --make-synthetic, WxH")
      ->capture_default_str()
      ->group("Synthetic dataset");
  cmd->add_option("--synthetic-format", a->synthetic_format,
                  "Image files of --make-synthetic: png (KADID-10k's), tiff (uncompressed, .tif) "
                  "or bmp (24-bit uncompressed; gray as three equal channels, the cheapest to "
                  "decode for GPU workers, which convert RGB on the GPU)")
      ->capture_default_str()
      ->type_name("png|tiff|bmp")
      ->group("Synthetic dataset");
}

}  // namespace

Subcommand add_eval_command(CLI::App& root) {
  return make_subcommand<EvalArgs>(root, "eval", kSummary, add_options, run);
}

}  // namespace mad::cli
