#include "datasets/eval_session.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>
#include <set>

#include "common/allotment.h"
#include "common/parallel.h"
#include "common/time_text.h"
#include "common/error.h"
#include "datasets/dataset_io.h"
#include "datasets/eval_report_files.h"
#include "datasets/synthetic_dataset.h"
#include "mad/results/results_file.h"
#include "mad/results/results_settings.h"
#include "mad/variants.h"

namespace mad::datasets {
namespace fs = std::filesystem;
using results::FinishedRow;
using results::ResultsLog;
using results::ResultsWriter;
using results::RunSettings;
using results::ShardPlan;

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
void check_resumable(const ResultsLog& log, const std::string& version, const std::string& path) {
  for (const FinishedRow& row : log.rows)
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

namespace {

// The report of a run about to start: the dataset's facts and the settings it scores with.
EvalReport start_run_report(const EvalConfig& cfg, const Dataset& d, const std::string& out,
                            const EngineReport& plan) {
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
  r.decode_memory_bytes = cfg.runner.decode_memory_bytes > 0 ? cfg.runner.decode_memory_bytes
                                                             : default_decode_memory_bytes();
  for (const auto& n : d.notes) say(cfg.log, n);
  return r;
}

// --shard: the pairs of the other shards (true), which are skipped, and neither counted nor
// listed.
std::vector<bool> other_shards(const EvalConfig& cfg, const Dataset& d, EvalReport& r) {
  std::vector<bool> other(d.entries.size(), false);
  if (cfg.shard.whole()) return other;
  std::vector<std::string> refs;
  for (const auto& e : d.entries) refs.push_back(e.ref);
  const ShardPlan shards(refs, cfg.shard.count);
  r.counts.entries = 0;
  for (std::size_t i = 0; i < d.entries.size(); ++i) {
    other[i] = shards.shard_of(d.entries[i].ref) != cfg.shard.index;
    r.counts.entries += !other[i];
  }
  r.shard = to_string(cfg.shard);
  double all = 0;
  for (double p : shards.pixels()) all += p;
  char line[160];
  std::snprintf(line, sizeof line, "shard %s: %zu of the dataset's %zu pairs (%.3g Mpixel of %.3g)",
                r.shard.c_str(), r.counts.entries, d.entries.size(),
                shards.pixels()[cfg.shard.index - 1] / 1e6, all / 1e6);
  say(cfg.log, line);
  return other;
}

// The pairs not scored (true): the other shards' and those with a missing image, which are
// listed now in a count and at the end by name.
std::vector<bool> pairs_to_skip(const EvalConfig& cfg, const Dataset& d,
                                const std::vector<bool>& other_shard, EvalReport& r) {
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
  return skip;
}

// The run's settings record: the scoring settings, the dataset, its manifest and direction, the
// shard.
RunSettings eval_settings(const EvalConfig& cfg, const Dataset& d, const EngineReport& plan) {
  RunSettings settings = results::run_settings(cfg.runner.score, plan.backend);
  results::set_dataset(settings, to_string(d.kind), cfg.dir, d.entries.size());
  if (!cfg.read.manifest.empty())
    settings.dataset_manifest = fs::absolute(cfg.read.manifest).lexically_normal().string();
  if (cfg.read.higher_is_better)
    settings.dataset_direction =
        *cfg.read.higher_is_better ? "higher-is-better" : "lower-is-better";
  settings.shard = to_string(cfg.shard);
  if (is_synthetic_dataset(d.root)) settings.dataset_scores = "invented";
  return settings;
}

// The results file, resumed (its finished rows into `previous`) or created, with its settings.
ResultsWriter open_results(const EvalConfig& cfg, const std::string& out,
                           const RunSettings& settings, const EvalReport& r,
                           ResultsLog& previous) {
  std::error_code ec;
  std::optional<ResultsWriter> writer;
  if (cfg.resume && fs::exists(out, ec)) {
    previous = results::read_results_file(out);
    if (!previous.rows.empty()) results::require_same_settings(out, settings);
    check_resumable(previous, r.settings.mad_version, out);
    writer.emplace(ResultsWriter::resume(out, previous));
    if (previous.dropped_partial_line)
      say(cfg.log, "dropped a partly written last line of " + out);
    if (previous.failed_rows)
      say(cfg.log,
          "retrying " + std::to_string(previous.failed_rows) + " pair(s) that failed before");
  } else {
    writer.emplace(ResultsWriter::create(out, cfg.overwrite));
  }
  results::write_settings(out, settings);
  if (cfg.on_results_file) cfg.on_results_file(out);
  return std::move(*writer);
}

// The pairs left to score, grouped by reference; those finished before get their score in
// `mad`. At most --limit of them (the rest counted as not run).
std::vector<PairJob> jobs_to_score(const EvalConfig& cfg, const Dataset& d,
                                   const std::vector<bool>& skip, const ResultsLog& previous,
                                   const std::string& out, std::vector<double>& mad,
                                   EvalReport& r) {
  std::vector<PairJob> jobs;
  for (std::size_t i : order_by_reference(d.entries)) {
    if (skip[i]) continue;
    const auto& e = d.entries[i];
    if (const FinishedRow* done = previous.find({e.ref_name, e.dist_name})) {
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
  return jobs;
}

// Scores `jobs` on the engine, writing each row as it comes (flushed: nothing lost on an
// interrupt) and its score into `mad`; the run's figures go into the report.
void score_jobs(const EvalConfig& cfg, const Dataset& d, const std::vector<PairJob>& jobs,
                const EngineReport& plan, ResultsWriter& writer, std::vector<double>& mad,
                EvalReport& r) {
  EngineOptions engine = cfg.runner;
  engine.progress = cfg.log;
  engine.non_finite_fails = true;  // a non-finite MAD would poison the statistics and --resume
  const EngineReport run = score_pairs(jobs, engine, [&](const PairOutcome& o) {
    const DatasetEntry& e = d.entries[o.id];
    writer.write(results::eval_csv_row(e.ref_name, e.dist_name, o.result, o.error,
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
}

}  // namespace

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
  EvalReport r = start_run_report(cfg, d, out, plan);
  const std::vector<bool> skip = pairs_to_skip(cfg, d, other_shards(cfg, d, r), r);
  ResultsLog previous;
  ResultsWriter writer = open_results(cfg, out, eval_settings(cfg, d, plan), r, previous);
  std::vector<double> mad(d.entries.size(), std::nan(""));
  const std::vector<PairJob> jobs = jobs_to_score(cfg, d, skip, previous, out, mad, r);
  score_jobs(cfg, d, jobs, plan, writer, mad, r);

  if (cfg.shard.whole()) add_statistics(r, d, mad, cfg.bootstrap);
  write_report_files(r, cfg.json, cfg.html, cfg.log);
  if (!r.missing.empty()) {
    say(cfg.log, "missing images (" + std::to_string(r.missing.size()) + "):");
    for (const auto& m : r.missing) say(cfg.log, "  " + m);
  }
  return r;
}

}  // namespace mad::datasets
