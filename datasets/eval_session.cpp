#include "datasets/eval_session.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>
#include <set>

#include "common/parallel.h"
#include "common/time_text.h"
#include "common/error.h"
#include "common/text_file.h"
#include "datasets/dataset_io.h"
#include "datasets/synthetic_dataset.h"
#include "mad/results/results_file.h"
#include "mad/results/results_settings.h"
#include "mad/variants.h"

namespace mad::datasets {
namespace fs = std::filesystem;

namespace {

void say(std::FILE* log, const std::string& line) {
  if (log) std::fprintf(log, "mad eval: %s\n", line.c_str());
}

DatasetKind choose_kind(const EvalConfig& cfg) {
  if (to_lower(cfg.dataset) != "auto") return parse_dataset_kind(cfg.dataset);
  if (cfg.read.manifest.empty()) return detect_dataset_kind(cfg.dir);
  // A manifest names CSIQ's DMOS sheet in a CSIQ folder, and the generic manifest elsewhere.
  try {
    if (detect_dataset_kind(cfg.dir) == DatasetKind::Csiq) return DatasetKind::Csiq;
  } catch (const InputError&) {
  }
  return DatasetKind::Csv;
}

// Resumed rows must come from the same MAD version: 2010 and 2011 scores are not comparable.
void check_resumable(const results::ResultsLog& log, const std::string& version,
                     const std::string& path) {
  for (const results::FinishedRow& row : log.rows)
    if (row.mad_version != version)
      throw InvalidArgument("'" + path + "' holds --mad-version " + row.mad_version +
                            " scores (e.g. " + row.dist + ") but this run uses " + version +
                            "; resume with the same version or write to another --out");
}

}  // namespace

int exit_code_for(const EvalReport& r) {
  return r.counts.failed_now || r.counts.skipped_missing ? kExitPartial : kExitOk;
}

EvalReport start_report(const Dataset& d) {
  EvalReport r;
  r.dataset = to_string(d.kind);
  r.root = d.root;
  r.score_name = d.score_name;
  r.higher_is_better = d.higher_is_better;
  r.started = time_now_text(TimeZone::Local, "%Y-%m-%d %H:%M:%S");
  r.notes = d.notes;
  r.counts.entries = d.entries.size();
  r.synthetic = is_synthetic_dataset(d.root);
  return r;
}

void add_statistics(EvalReport& r, const Dataset& d, const std::vector<double>& mad,
                    const BootstrapOptions& bootstrap) {
  const auto t0 = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < d.entries.size(); ++i)
    if (!std::isnan(mad[i]))
      r.points.push_back(
          {mad[i], d.entries[i].subjective, d.entries[i].ref_name, d.entries[i].type});
  if (r.points.size() >= 2) {
    StatsOptions so_stats;
    so_stats.subjective_higher_is_better = d.higher_is_better;
    so_stats.bootstrap = bootstrap;
    r.stats = evaluate_agreement(r.points, so_stats);
    r.have_stats = true;
  }
  r.stats_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

EvalReport run_evaluation(const EvalConfig& cfg) {
  const Dataset d = read_dataset(cfg.dir, choose_kind(cfg), cfg.read);
  // Without --out each dataset gets its own results file (results_settings.h).
  const std::string out = cfg.out.empty()
                              ? results::default_results_name(to_string(d.kind), cfg.dir)
                              : cfg.out;
  const EngineReport plan = plan_workers(cfg.runner);  // bad --gpus fails before any file changes
  if (!cfg.shard.whole() && (!cfg.json.empty() || !cfg.html.empty()))
    throw InvalidArgument("--json and --html write the statistics, which one shard does not "
                          "have: give them to mad merge, which joins the shards' --out files");
  check_report_files(out, cfg.json, cfg.html, cfg.overwrite || cfg.resume);
  EvalReport r = start_report(d);
  const ScoreOptions& so = cfg.runner.score;
  r.settings = {to_string(so.version),
                to_string(plan.backend),
                plan.backend == Backend::Cuda ? to_string(so.precision) : "double",
                to_string(so.input_class),
                so.a5_variant.is_default() ? "" : variant_name(VariantFamily::A5, so.a5_variant),
                plan.workers,
                plan.devices,
                cfg.bootstrap,
                out,
                plan.backend_reason,
                so.det_variant.is_default()
                    ? ""
                    : variant_name(VariantFamily::Detection, so.det_variant)};
  r.allotment = process_allotment();
  r.scoring_threads = thread_count();
  r.decode_memory_bytes = cfg.runner.decode_memory_bytes > 0
                                       ? cfg.runner.decode_memory_bytes
                                       : default_decode_memory_bytes();
  for (const auto& n : d.notes) say(cfg.log, n);

  // --shard: the pairs of the other shards are skipped, and neither counted nor listed.
  std::vector<bool> other_shard(d.entries.size(), false);
  if (!cfg.shard.whole()) {
    std::vector<std::string> refs;
    for (const auto& e : d.entries) refs.push_back(e.ref);
    const results::ShardPlan shards(refs, cfg.shard.count);
    r.counts.entries = 0;
    for (std::size_t i = 0; i < d.entries.size(); ++i) {
      other_shard[i] = shards.shard_of(d.entries[i].ref) != cfg.shard.index;
      r.counts.entries += !other_shard[i];
    }
    r.shard = to_string(cfg.shard);
    double all = 0;
    for (double p : shards.pixels()) all += p;
    char line[160];
    std::snprintf(line, sizeof line,
                  "shard %s: %zu of the dataset's %zu pairs (%.3g Mpixel of %.3g)", r.shard.c_str(),
                  r.counts.entries, d.entries.size(), shards.pixels()[cfg.shard.index - 1] / 1e6,
                  all / 1e6);
    say(cfg.log, line);
  }

  // Missing images: listed now in a count and at the end by name, and their pairs skipped.
  std::vector<bool> skip = other_shard;
  std::set<std::string> seen;
  for (const auto& m : find_missing_images(d)) {
    if (other_shard[m.entry]) continue;
    if (!skip[m.entry]) ++r.counts.skipped_missing;  // an entry missing both is listed twice
    skip[m.entry] = true;
    if (seen.insert(m.path).second) r.missing.push_back(m.path);
  }
  r.counts.missing_images = r.missing.size();
  if (!r.missing.empty())
    say(cfg.log, std::to_string(r.missing.size()) +
                     " image(s) missing: " + std::to_string(r.counts.skipped_missing) +
                     " pair(s) skipped (listed at the end)");

  std::error_code ec;
  results::ResultsLog previous;
  std::optional<results::ResultsWriter> writer;
  results::RunSettings settings = results::run_settings(cfg.runner.score, plan.backend);
  results::set_dataset(settings, to_string(d.kind), cfg.dir, d.entries.size());
  if (!cfg.read.manifest.empty())
    settings.dataset_manifest = fs::absolute(cfg.read.manifest).lexically_normal().string();
  if (cfg.read.higher_is_better)
    settings.dataset_direction =
        *cfg.read.higher_is_better ? "higher-is-better" : "lower-is-better";
  settings.shard = to_string(cfg.shard);
  if (r.synthetic) settings.dataset_scores = "invented";
  if (cfg.resume && fs::exists(out, ec)) {
    previous = results::read_results_file(out);
    if (!previous.rows.empty()) results::require_same_settings(out, settings);
    check_resumable(previous, r.settings.mad_version, out);
    writer.emplace(results::ResultsWriter::resume(out, previous));
    if (previous.dropped_partial_line)
      say(cfg.log, "dropped a partly written last line of " + out);
    if (previous.failed_rows)
      say(cfg.log,
          "retrying " + std::to_string(previous.failed_rows) + " pair(s) that failed before");
  } else {
    writer.emplace(results::ResultsWriter::create(out, cfg.overwrite));
  }
  results::write_settings(out, settings);
  if (cfg.on_results_file) cfg.on_results_file(out);

  const std::size_t n = d.entries.size();
  std::vector<double> mad(n, std::nan(""));
  std::vector<PairJob> jobs;
  for (std::size_t i : order_by_reference(d.entries)) {
    if (skip[i]) continue;
    const auto& e = d.entries[i];
    if (const results::FinishedRow* done = previous.find({e.ref_name, e.dist_name})) {
      mad[i] = done->mad;
      ++r.counts.finished_before;
    } else {
      jobs.push_back({i, e.ref, e.dist, {}});
    }
  }
  if (cfg.resume)
    say(cfg.log, std::to_string(r.counts.finished_before) + " pair(s) already in " + out);
  if (previous.finished.size() > r.counts.finished_before) {  // e.g. --out of another dataset
    r.notes.push_back(std::to_string(previous.finished.size() - r.counts.finished_before) +
                      " row(s) of " + out +
                      " match no scorable pair of this dataset: kept, not used");
    say(cfg.log, r.notes.back());
  }
  if (cfg.limit && jobs.size() > cfg.limit) {
    r.counts.not_run = jobs.size() - cfg.limit;
    jobs.resize(cfg.limit);
  }

  EngineOptions engine = cfg.runner;
  engine.progress = cfg.log;
  engine.non_finite_fails = true;  // a non-finite MAD would poison the statistics and --resume
  const EngineReport run = score_pairs(jobs, engine, [&](const PairOutcome& o) {
    const DatasetEntry& e = d.entries[o.id];
    // Flushed: nothing is lost on an interruption.
    writer->write(results::eval_csv_row(e.ref_name, e.dist_name, o.result, o.error,
                                        plan.backend_reason, {e.subjective, e.type, e.level}));
    if (o.result) {
      mad[o.id] = o.result->mad;
      if (r.settings.a5_variant.empty()) r.settings.a5_variant = o.result->a5_variant;
    } else {
      r.failures.push_back({e.ref_name, e.dist_name, o.error});
      say(cfg.log, e.dist_name + ": " + o.error);
    }
  });
  r.counts.failed_now = r.failures.size();
  r.counts.scored_now = run.scored + run.failed - r.failures.size();
  r.score_seconds = run.seconds;
  r.decode_wait_seconds = run.decode_wait_seconds;
  r.gpu_wait_seconds = run.gpu_wait_seconds;
  r.decoded_images = run.decoded_images;
  r.decode_seconds = run.decode_seconds;
  r.decode_threads = run.decode_threads;
  r.steady_from_pair = WorkerTiming::kSteadyFrom;
  for (const WorkerTiming& t : run.worker_timing)
    r.worker_timing.push_back(
        {t.pairs, t.first_seconds, t.last_seconds, t.steady_pairs_per_second()});
  r.settings.devices = run.devices;

  if (cfg.shard.whole()) add_statistics(r, d, mad, cfg.bootstrap);
  write_report_files(r, cfg.json, cfg.html, cfg.log);
  if (!r.missing.empty()) {
    say(cfg.log, "missing images (" + std::to_string(r.missing.size()) + "):");
    for (const auto& m : r.missing) say(cfg.log, "  " + m);
  }
  return r;
}

}  // namespace mad::datasets
