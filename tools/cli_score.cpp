// `mad score`: one pair (REF DIST) or a list of pairs (--pairs LIST.csv).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "common/error.h"
#include "common/progress_bar.h"
#include "common/image_io.h"
#include "common/parallel.h"
#include "datasets/csv.h"
#include "datasets/pairs_list.h"
#include "datasets/results_file.h"
#include "datasets/results_settings.h"
#include "mad/variants.h"
#include "mad/memory_check.h"
#include "mad/pair_engine.h"
#include "mad/result_json.h"
#include "mad/score.h"
#include "tools/cli_commands.h"
#include "tools/cli_options.h"

namespace mad::cli {
namespace {

struct ScoreArgs {
  std::string ref, dist, pairs, out, maps_dir;
  ScoringArgs scoring;
  bool json = false, force = false, resume = false;
  bool list_variants = false;
  int threads = 0;
};

ScoreOptions make_options(const ScoreArgs& a) {
  ScoreOptions o = to_score_options(a.scoring);
  o.want_maps = !a.maps_dir.empty();
  return o;
}

void print_notes(const std::string& path, const GrayImage& img) {
  for (const auto& n : img.notes)
    std::fprintf(stderr, "mad: note: %s: %s\n", path.c_str(), n.c_str());
}

nlohmann::json write_maps(const std::string& dir, const ScoreResult& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError("cannot create maps folder '" + dir + "': " + ec.message());
  nlohmann::json j;
  const struct {
    const char* name;
    const Image<double>* map;
  } maps[] = {{"map_hi", &r.map_hi}, {"map_lo", &r.map_lo}};
  for (const auto& m : maps) {
    const std::string base = (std::filesystem::path(dir) / m.name).string();
    const double scale = save_png16_scaled(base + ".png", m.map->cview());
    j[m.name]["png"] = base + ".png";
    j[m.name]["png_scale"] = scale;  // value = png_pixel / png_scale
    if (tiff_supported()) {
      save_tiff_float(base + ".tiff", m.map->cview());
      j[m.name]["tiff"] = base + ".tiff";
    }
  }
  return j;
}

// The run's backend and the checks that depend on it (every option takes effect or is refused).
BackendChoice choose_checked_backend(const CLI::App& cmd, const ScoreOptions& options) {
  const BackendChoice choice = choose_backend(options.backend);
  refuse_gpu_options_on_cpu(cmd, choice, options.precision);
  if (choice.backend == Backend::Cuda && given(cmd, "--threads"))
    throw InvalidArgument(
        "--threads sets the CPU backend's threads; this run uses the CUDA "
        "backend (" +
        choice.reason + "): drop --threads, or add --backend cpu");
  return choice;
}

nlohmann::json result_object(const std::string& ref, const std::string& dist, const ScoreResult* r,
                             const std::string& error, const BackendChoice& choice) {
  nlohmann::json j;
  if (r) j = result_to_json(*r);
  j["backend_reason"] = choice.reason;
  j["ref"] = ref;
  j["dist"] = dist;
  if (!r) j["error"] = error;
  return j;
}

int run_single(const CLI::App& cmd, const ScoreArgs& a) {
  if (a.ref.empty() || a.dist.empty())
    throw InvalidArgument("mad score needs REF and DIST (or --pairs LIST.csv)");
  if (a.resume)
    throw InvalidArgument(
        "--resume continues a --pairs run; one pair is simply scored again "
        "(give --force to replace --out, or leave --resume out)");
  const ScoreOptions options = make_options(a);
  // With --backend auto and no GPU-only option the images' size decides: a pair the CPU
  // finishes before CUDA would start runs there, without touching CUDA (cpu_for_lone_pair).
  const bool size_decides =
      options.backend == Backend::Auto && !gpu_option_given(cmd, options.precision);
  std::optional<BackendChoice> early_choice;
  if (!size_decides) early_choice = choose_checked_backend(cmd, options);
  std::optional<datasets::ResultsWriter> file;
  if (!a.out.empty())  // refused before any work when it exists and --force was not given
    file.emplace(datasets::ResultsWriter::create(
        a.out, a.force, a.json ? datasets::ResultsKind::JsonLines : datasets::ResultsKind::Pairs));
  const GrayImage ref = load_gray_image(a.ref);
  const GrayImage dist = load_gray_image(a.dist);
  print_notes(a.ref, ref);
  print_notes(a.dist, dist);
  std::optional<BackendChoice> lone_pair_cpu;
  if (size_decides)
    lone_pair_cpu = cpu_for_lone_pair(ref.pixels.width(), ref.pixels.height(), thread_count());
  const BackendChoice choice = early_choice    ? *early_choice
                               : lone_pair_cpu ? *lone_pair_cpu
                                               : choose_checked_backend(cmd, options);
  if (choice.backend == Backend::Cpu) {
    const std::string need = cpu_memory_statement(ref.pixels.width(), ref.pixels.height(),
                                                  thread_count(), options.want_maps);
    if (!need.empty()) std::fprintf(stderr, "mad: note: %s\n", need.c_str());
  }
  ScoreOptions resolved = options;
  resolved.backend = choice.backend;
  const ScoreResult r = score(ref, dist, resolved);
  nlohmann::json maps;
  if (options.want_maps) maps = write_maps(a.maps_dir, r);
  if (file) {
    if (a.json)
      file->write_line(result_object(a.ref, a.dist, &r, "", choice).dump());
    else
      file->write(result_csv_row(a.ref, a.dist, &r, "", choice.reason));
  } else if (a.json) {
    nlohmann::json j = result_object(a.ref, a.dist, &r, "", choice);
    if (options.want_maps) j["maps"] = maps;
    std::cout << j.dump(2) << "\n";
  } else {
    std::printf("MAD %s\nHI  %s\nLO  %s\n", format_double(r.mad).c_str(),
                format_double(r.hi).c_str(), format_double(r.lo).c_str());
  }
  return kExitOk;
}

// Where the rows of a --pairs run go: standard output, a fresh --out, or a resumed one (whose
// finished pairs are skipped). Each row is flushed as it is written.
class PairsOutput {
 public:
  PairsOutput(const ScoreArgs& a, const datasets::RunSettings& settings) : json_(a.json) {
    const auto kind = a.json ? datasets::ResultsKind::JsonLines : datasets::ResultsKind::Pairs;
    if (a.out.empty()) {
      if (!json_) print(datasets::join_csv(result_csv_header()));
      return;
    }
    std::error_code ec;
    if (a.resume && std::filesystem::exists(a.out, ec)) {
      previous_ = datasets::read_results_file(a.out, kind);
      if (!previous_.finished.empty()) datasets::require_same_settings(a.out, settings);
      file_.emplace(datasets::ResultsWriter::resume(a.out, previous_, kind));
      std::fprintf(stderr, "mad: %zu pair(s) already in %s%s\n", previous_.finished.size(),
                   a.out.c_str(),
                   previous_.failed_rows ? " (the failed ones are scored again)" : "");
    } else {
      file_.emplace(datasets::ResultsWriter::create(a.out, a.force, kind));
    }
    datasets::write_settings(a.out, settings);
  }

  bool finished(const std::string& ref, const std::string& dist) const {
    return previous_.finished.count({ref, dist}) > 0;
  }

  void write(const std::string& ref, const std::string& dist, const ScoreResult* r,
             const std::string& error, const BackendChoice& choice) {
    if (json_)
      print(result_object(ref, dist, r, error, choice).dump());
    else
      print(datasets::join_csv(result_csv_row(ref, dist, r, error, choice.reason)));
  }

 private:
  void print(const std::string& line) {
    if (file_)
      file_->write_line(line);
    else
      std::cout << line << "\n" << std::flush;
  }

  bool json_ = false;
  datasets::ResultsLog previous_;
  std::optional<datasets::ResultsWriter> file_;
};

// Rows scored per call of the engine: the list is read and scored a chunk at a time, so memory
// stays flat however long the list is (a 10^6-row list holds one chunk's paths, not all of them).
// A new chunk rebuilds the scorer's per-shape plans once (tens of ms) against the ~2 s a chunk
// of 512x384 pairs takes on an H100, and loses the reference reuse of one pair at the boundary.
constexpr std::size_t kPairsPerChunk = 4096;

int run_pairs(const CLI::App& cmd, const ScoreArgs& a) {
  const ScoreOptions options = make_options(a);
  const BackendChoice choice = choose_checked_backend(cmd, options);
  // An unreadable list fails before --out is touched; the first pass only counts the rows left
  // to score (for the progress bar), the second scores them.
  std::size_t total = 0, skipped = 0;
  {
    datasets::PairsListReader count(a.pairs);
    for (datasets::PairRow row; count.next(row);) ++total;
  }
  PairsOutput output(a, datasets::run_settings(options, choice.backend));
  datasets::PairsListReader list(a.pairs);

  EngineOptions engine;
  engine.score = options;
  engine.score.backend = choice.backend;
  // One worker on the current GPU (or the CPU); rows come back in list order and each is
  // written and flushed at once, so an interrupted run keeps every finished row.
  engine.gpus = choice.backend == Backend::Cuda ? 1 : 0;
  engine.in_order = true;
  ProgressBar progress(total, "pairs/s", stderr);
  engine.shared_progress = &progress;

  std::size_t scored = 0, failures = 0;
  double seconds = 0;
  std::vector<PairJob> jobs;
  std::vector<int> lines;
  bool more = true;
  while (more) {
    jobs.clear();
    lines.clear();
    datasets::PairRow row;
    while (jobs.size() < kPairsPerChunk && (more = list.next(row))) {
      if (row.error.empty() && output.finished(row.ref, row.dist)) {
        ++skipped;
        progress.tick();
        continue;
      }
      jobs.push_back({jobs.size(), std::move(row.ref), std::move(row.dist), std::move(row.error)});
      lines.push_back(row.line);
    }
    if (jobs.empty()) continue;
    const EngineReport report = score_pairs(jobs, engine, [&](const PairOutcome& o) {
      const PairJob& job = jobs[o.id];
      if (!o.result) std::fprintf(stderr, "mad: line %d: %s\n", lines[o.id], o.error.c_str());
      output.write(job.ref, job.dist, o.result, o.error, choice);
    });
    scored += report.scored;
    failures += report.failed;
    seconds += report.seconds;
  }
  progress.finish();
  std::fprintf(stderr, "mad: %zu pairs scored, %zu failed, %.2f s%s\n", scored, failures, seconds,
               skipped ? (", " + std::to_string(skipped) + " already done").c_str() : "");
  return failures ? kExitPartial : kExitOk;
}

// Options that do nothing in the mode chosen are refused by name.
void refuse_idle_options(const CLI::App& cmd, const ScoreArgs& a) {
  if (a.list_variants) {
    for (const CLI::Option* opt : cmd.get_options())
      if (opt->count() > 0 && opt->get_name() != "--list-variants")
        throw InvalidArgument("--list-variants takes no other argument (got " + opt->get_name() +
                              ")");
    return;
  }
  if (a.resume && a.force)
    throw InvalidArgument("give --resume (continue --out) or --force (replace it), not both");
  if ((a.resume || a.force) && a.out.empty())
    throw InvalidArgument(std::string(a.resume ? "--resume" : "--force") +
                          " applies to the file of --out FILE, and no --out was given");
  if (!a.pairs.empty()) {
    if (!a.ref.empty() || !a.dist.empty())
      throw InvalidArgument("give either REF DIST or --pairs LIST.csv, not both");
    if (!a.maps_dir.empty()) throw InvalidArgument("--maps is not available with --pairs");
  }
}

}  // namespace

Subcommand add_score_command(CLI::App& root) {
  auto args = std::make_shared<ScoreArgs>();
  CLI::App* cmd =
      root.add_subcommand("score", "Score a (reference, distorted) pair or a list of pairs");
  cmd->add_option("REF", args->ref, "Reference image (PNG, JPEG, BMP, TIFF, PGM/PPM)");
  cmd->add_option("DIST", args->dist, "Distorted image");
  cmd->add_option(
      "--pairs", args->pairs,
      "CSV list of pairs (columns ref,dist; relative paths resolve against the list's folder)");
  cmd->add_option("--out", args->out,
                  "Results file: CSV, or JSON Lines with --json (default: standard output); "
                  "refused when it exists, unless --resume or --force");
  cmd->add_flag("--resume", args->resume,
                "With --pairs --out: skip the pairs already scored in --out (failed ones are "
                "retried); refused when --out was made with other settings");
  cmd->add_flag("--force", args->force, "Replace an existing --out instead of refusing");
  add_scoring_options(
      *cmd, args->scoring,
      {"GPU A5 local-statistics variant (see --list-variants)",
       "GPU detection block-statistics variant (see --list-variants)",
       "GPU memory one image shape may use, e.g. 8GiB (default: the device's free memory)"});
  cmd->add_option("--maps", args->maps_dir,
                  "Write map.HI and map.LO into this folder (16-bit PNG scaled to the maximum; "
                  "32-bit float TIFF when built with libtiff)");
  cmd->add_option("--threads", args->threads, "CPU worker threads (default: all cores)")
      ->check(decimal_in_range(1, 65536, "leave --threads out to use every core"));
  cmd->add_flag("--json", args->json,
                "Print one JSON object (with --pairs: JSON Lines, one object per pair)");
  cmd->add_flag("--list-variants", args->list_variants, "List the GPU kernel variants and exit");
  auto run = [args, cmd]() -> int {
    refuse_idle_options(*cmd, *args);
    if (args->list_variants) {
      std::cout << describe_variants();
      return kExitOk;
    }
    if (args->threads > 0) set_thread_count(args->threads);
    return args->pairs.empty() ? run_single(*cmd, *args) : run_pairs(*cmd, *args);
  };
  return {cmd, run};
}

}  // namespace mad::cli
