// `mad score`: one pair (REF DIST) or a list of pairs (--pairs LIST.csv).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "common/error.h"
#include "common/image_io.h"
#include "common/parallel.h"
#include "common/progress_bar.h"
#include "mad/engine/pair_engine.h"
#include "mad/memory_limits.h"
#include "mad/results/csv.h"
#include "mad/results/pairs_list.h"
#include "mad/results/pairs_list_check.h"
#include "mad/results/pairs_output.h"
#include "mad/results/pairs_shard.h"
#include "mad/results/result_json.h"
#include "mad/results/results_file.h"
#include "mad/results/results_settings.h"
#include "mad/score.h"
#include "mad/variants.h"
#include "tools/cli_commands.h"
#include "tools/cli_interrupt.h"
#include "tools/cli_maps.h"
#include "tools/cli_options.h"
#include "tools/cli_subcommand.h"
#include "tools/cli_stdout.h"

namespace mad::cli {
namespace {

struct ScoreArgs {
  std::string ref, dist, pairs, out, maps_dir, shard;
  bool json = false, force = false, resume = false, quiet = false;
  bool list_variants = false;
  int threads = 0;
  int decode_threads = 0;  // --pairs: the decoders' threads; 0: the engine's default
};

// What `mad score` does, as mad --help lists it.
constexpr const char* kSummary = "Score a (reference, distorted) pair or a list of pairs";

ScoreOptions make_options(const CLI::App& cmd, const ScoreArgs& a) {
  ScoreOptions o = apply_scoring_options(given_scoring_options(cmd));
  o.want_maps = !a.maps_dir.empty();
  return o;
}

void print_notes(const std::string& path, const GrayImage& img, bool quiet) {
  if (quiet) return;
  for (const auto& n : img.notes)
    std::fprintf(stderr, "mad: note: %s: %s\n", path.c_str(), n.c_str());
}

// The run's backend and the checks that depend on it (every option takes effect or is refused).
BackendChoice choose_checked_backend(const CLI::App& cmd, const ScoreOptions& options) {
  const BackendChoice choice = choose_backend(options.backend);
  refuse_unhonoured(given_scoring_options(cmd), choice);
  refuse_threads_on_cuda(cmd, choice);
  return choice;
}

int run_single(const CLI::App& cmd, const ScoreArgs& a) {
  if (a.ref.empty() || a.dist.empty())
    throw InvalidArgument("mad score needs REF and DIST (or --pairs LIST.csv)");
  if (a.resume)
    throw InvalidArgument(
        "--resume continues a --pairs run; one pair is simply scored again "
        "(give --force to replace --out, or leave --resume out)");
  // One answer for an existing --out: --force replaces it (--resume is for lists).
  std::error_code ec;
  if (!a.out.empty() && !a.force && std::filesystem::exists(a.out, ec))
    throw InvalidArgument("--out '" + a.out +
                          "' exists: pass --force to replace it, or write to another --out");
  if (!a.maps_dir.empty()) refuse_existing_maps(a.maps_dir, a.force);
  const ScoreOptions options = make_options(cmd, a);
  // With --backend auto and no GPU-only option the images' size decides: a pair the CPU
  // finishes before CUDA would start runs there, without touching CUDA (cpu_for_lone_pair).
  const bool size_decides =
      options.backend == Backend::Auto && !needs_cuda(given_scoring_options(cmd));
  std::optional<BackendChoice> early_choice;
  if (!size_decides) early_choice = choose_checked_backend(cmd, options);
  std::optional<results::ResultsWriter> file;
  if (!a.out.empty())  // refused before any work when it exists and --force was not given
    file.emplace(results::ResultsWriter::create(
        a.out, true, a.json ? results::ResultsKind::JsonLines : results::ResultsKind::Pairs));
  const GrayImage ref = load_gray_image(a.ref);
  const GrayImage dist = load_gray_image(a.dist);
  print_notes(a.ref, ref, a.quiet);
  print_notes(a.dist, dist, a.quiet);
  std::optional<BackendChoice> lone_pair_cpu;
  if (size_decides)
    lone_pair_cpu = cpu_for_lone_pair(ref.pixels.width(), ref.pixels.height(), thread_count());
  const BackendChoice choice = early_choice    ? *early_choice
                               : lone_pair_cpu ? *lone_pair_cpu
                                               : choose_checked_backend(cmd, options);
  if (choice.backend == Backend::Cpu) {
    const std::string need = cpu_memory_statement(ref.pixels.width(), ref.pixels.height(),
                                                  thread_count(), options.want_maps);
    if (!need.empty() && !a.quiet) std::fprintf(stderr, "mad: note: %s\n", need.c_str());
  }
  ScoreOptions resolved = options;
  resolved.backend = choice.backend;
  const ScoreResult r = score(ref, dist, resolved);
  nlohmann::json maps;
  if (options.want_maps) maps = write_maps(a.maps_dir, r);
  nlohmann::json j = results::result_object(a.ref, a.dist, &r, "", choice.reason);
  if (options.want_maps) j["maps"] = maps;
  if (file) {
    if (a.json)
      file->write_line(j.dump());
    else
      // The row of a --pairs file (line 1): its header is the pairs header, `line` included.
      file->write_line(results::pairs_row_text(false, 1, a.ref, a.dist, &r, "", choice.reason));
  }
  if (a.json && !file) {
    std::cout << j.dump(2) << "\n";
  } else if (!a.json) {
    if (!file)
      std::printf("MAD %s\nHI  %s\nLO  %s\n", results::format_double(r.mad).c_str(),
                  results::format_double(r.hi).c_str(), results::format_double(r.lo).c_str());
    if (options.want_maps) std::cout << maps_text(maps);
  }
  flush_standard_output();
  return kExitOk;
}

// Rows scored per call of the engine: the list is read and scored a chunk at a time, so memory
// stays flat however long the list is (a 10^6-row list holds one chunk's paths, not all of them).
// A new chunk rebuilds the scorer's per-shape plans once (tens of ms) against the ~2 s a chunk
// of 512x384 pairs takes on an H100, and loses the reference reuse of one pair at the boundary.
constexpr std::size_t kPairsPerChunk = 4096;

int run_pairs(const CLI::App& cmd, const ScoreArgs& a) {
  const ScoreOptions options = make_options(cmd, a);
  const BackendChoice choice = choose_checked_backend(cmd, options);
  // The list is checked whole before --out is touched or a shard is planned: a malformed row
  // anywhere is refused now, naming its line, not hours into the run (pairs_list_check.h).
  // Then a pass matches a resumed file's rows to their lines and counts the rows left (for the
  // progress bar); the last one scores them.
  const results::PairsListSummary checked =
      results::check_pairs_list(a.pairs, [](const std::string& bad_line) {
        std::fprintf(stderr, "mad: %s\n", bad_line.c_str());  // errors print under -q too
      });
  if (checked.pairs == 0)
    throw InputError("no pairs in " + a.pairs +
                     (checked.header ? " (a header and no rows)" : " (it is empty)"));
  // --shard: this run's rows only, and the shard and the list recorded for --resume and merge.
  results::RunSettings settings = results::run_settings(options, choice.backend);
  const results::ShardSpec shard =
      a.shard.empty() ? results::ShardSpec{} : results::parse_shard(a.shard);
  std::optional<results::ShardPlan> plan;
  // A shard reads the list as a whole run does, so its rows name the same paths and the merged
  // shards equal the whole run's file; the settings record the list's absolute path, for
  // `mad merge` run in another folder.
  const std::string& list_path = a.pairs;
  if (!shard.whole()) {
    plan.emplace(list_path, shard.count);
    results::set_dataset(settings, "pairs-list", list_path, plan->rows());
    settings.shard = results::to_string(shard);
  }
  const auto in_shard = [&](const results::PairRow& row) {
    return !plan || plan->shard_of(row.ref) == shard.index;
  };
  results::PairsOutput output({a.out, a.json, a.resume, a.force, a.quiet, {}}, settings);
  std::size_t total = 0, skipped = 0, listed = 0;
  {
    results::PairsListReader count(list_path);
    for (results::PairRow row; count.next(row); ++listed) {
      if (!in_shard(row)) continue;
      ++total;
      skipped += output.take_finished(row);
    }
  }
  if (plan && !a.quiet)
    std::fprintf(stderr, "mad: shard %s: %zu of the list's %zu pairs (%.0f Mpixel of %.0f)\n",
                 a.shard.c_str(), total, listed, plan->pixels()[shard.index - 1] / 1e6,
                 [&] {
                   double all = 0;
                   for (double p : plan->pixels()) all += p;
                   return all / 1e6;
                 }());
  output.open(a.pairs);
  report_interrupts(a.out, !a.json);  // CSV's first line is its header; JSON Lines have none
  results::PairsListReader list(list_path);

  EngineOptions engine(choice);  // chosen once for the run, above
  engine.score = options;
  // One worker on the current GPU (or the CPU); rows come back in list order and each is
  // written and flushed at once, so an interrupted run keeps every finished row.
  engine.gpus = choice.backend == Backend::Cuda ? 1 : 0;
  engine.in_order = true;
  engine.decode_threads = static_cast<std::size_t>(a.decode_threads);
  ProgressBar progress(total - skipped, "pairs/s", a.quiet ? nullptr : stderr);
  engine.shared_progress = &progress;

  std::size_t scored = 0, failures = 0;
  double seconds = 0;
  // Decoding over the whole list (its chunks each start a pool of the same size): the closing
  // line shows what --decode-threads did, and whether the decoders kept up.
  std::size_t decoded = 0, decode_threads = 0;
  double decode_seconds = 0, decode_wait = 0;
  std::vector<PairJob> jobs;
  std::vector<int> lines;
  bool more = true;
  while (more) {
    jobs.clear();
    lines.clear();
    results::PairRow row;
    while (jobs.size() < kPairsPerChunk && (more = list.next(row))) {
      if (!in_shard(row) || output.finished(row.line)) continue;
      jobs.push_back({jobs.size(), std::move(row.ref), std::move(row.dist), std::move(row.error)});
      lines.push_back(row.line);
    }
    if (jobs.empty()) continue;
    const EngineReport report = score_pairs(jobs, engine, [&](const PairOutcome& o) {
      const PairJob& job = jobs[o.id];
      if (!o.result) std::fprintf(stderr, "mad: line %d: %s\n", lines[o.id], o.error.c_str());
      output.write(lines[o.id], job.ref, job.dist, o.result, o.error, choice.reason);
    });
    scored += report.scored;
    failures += report.failed;
    seconds += report.seconds;
    decoded += report.decoded_images;
    decode_seconds += report.decode_seconds;
    decode_wait += report.decode_wait_seconds;
    decode_threads = std::max(decode_threads, report.decode_threads);
  }
  progress.finish();
  if (!a.quiet) {
    std::fprintf(stderr, "mad: %zu pairs scored, %zu failed, %.2f s%s\n", scored, failures, seconds,
                 skipped ? (", " + std::to_string(skipped) + " already done").c_str() : "");
    if (decoded > 0)
      std::fprintf(stderr,
                   "mad: decoding: %zu images, %.2f ms each, on %zu thread(s); the scoring "
                   "waited on it %.2f s\n",
                   decoded, 1e3 * decode_seconds / static_cast<double>(decoded), decode_threads,
                   decode_wait);
  }
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
  if (a.resume && a.out.empty())
    throw InvalidArgument("--resume applies to the file of --out FILE, and no --out was given");
  if (a.force && a.out.empty() && a.maps_dir.empty())
    throw InvalidArgument("--force replaces the file of --out FILE or the maps of --maps DIR, "
                          "and neither was given");
  if (!a.pairs.empty()) {
    if (!a.ref.empty() || !a.dist.empty())
      throw InvalidArgument("give either REF DIST or --pairs LIST.csv, not both");
    if (!a.maps_dir.empty()) throw InvalidArgument("--maps is not available with --pairs");
  } else if (!a.shard.empty()) {
    throw InvalidArgument("--shard splits the list of --pairs LIST, and no --pairs was given");
  } else if (a.decode_threads > 0) {
    throw InvalidArgument(
        "--decode-threads sets the threads decoding a --pairs list ahead of "
        "the scoring, and no --pairs was given (one pair's two images are "
        "decoded where it is scored)");
  }
}

// The variants' list, one pair, or with --pairs a list of them.
int run(const CLI::App& cmd, const ScoreArgs& a) {
  refuse_idle_options(cmd, a);
  if (a.list_variants) {
    std::cout << describe_variants();
    return kExitOk;
  }
  if (a.threads > 0) set_thread_count(a.threads);
  return a.pairs.empty() ? run_single(cmd, a) : run_pairs(cmd, a);
}

void add_options(CLI::App* cmd, ScoreArgs* args) {
  // REF and DIST also have named forms, as vmaf's users type them.
  add_file_option(*cmd, "REF,--reference", args->ref,
                  "Reference image (PNG, JPEG, BMP, TIFF, PGM/PPM)", "Input");
  add_file_option(*cmd, "DIST,--distorted", args->dist, "Distorted image", "Input");
  cmd->add_option("--pairs", args->pairs,
                  "CSV list of pairs: a header naming ref,dist (or reference,distorted), or two "
                  "columns of paths; tabs also separate; relative paths resolve against the "
                  "list's folder")
      ->type_name("LIST")
      ->group("Input");
  cmd->add_option("--shard", args->shard,
                  "Score shard I of N of --pairs (1-based): pairs sharing a reference stay "
                  "together, shares balanced by pixels; join the shards' --out with mad merge")
      ->type_name("I/N")
      ->group("Input");
  add_file_option(*cmd, "-o,--out", args->out,
                  "Results file: CSV, or JSON Lines with --json (default: standard output); "
                  "refused when it exists, unless --force (or, with --pairs, --resume)",
                  "Output");
  cmd->add_flag("--resume", args->resume,
                "With --pairs --out: keep --out's finished rows and score the other lines of the "
                "list (failed ones again); refused when --out was made with other settings")
      ->group("Output");
  cmd->add_flag("--force", args->force, "Replace an existing --out or --maps files")
      ->group("Output");
  cmd->add_flag("--json", args->json,
                "Print one JSON object (with --pairs: JSON Lines, one object per pair)")
      ->group("Output");
  cmd->add_option("--maps", args->maps_dir,
                  "Write map_hi and map_lo into this folder (16-bit PNG scaled to the maximum, "
                  "png_scale printed; 32-bit float TIFF when built with libtiff)")
      ->type_name("DIR")
      ->group("Output");
  cmd->add_flag("-q,--quiet", args->quiet, "No progress bar, notes or summary on stderr (errors "
                "still print)")
      ->group("Output");
  add_scoring_options(*cmd);
  add_threads_option(*cmd, args->threads);
  add_run_option(*cmd, "--decode-threads", args->decode_threads);
  cmd->add_flag("--list-variants", args->list_variants, "List the GPU kernel variants and exit")
      ->group("GPU only");
}

}  // namespace

Subcommand add_score_command(CLI::App& root) {
  return make_subcommand<ScoreArgs>(root, "score", kSummary, add_options, run);
}

}  // namespace mad::cli
