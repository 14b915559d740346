// JSON and plain-text renderings of an EvalReport.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "datasets/eval_report.h"

namespace mad::datasets {
namespace {

nlohmann::json number(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

nlohmann::json metric_json(const Metric& m) {
  return {{"value", number(m.value)}, {"ci95", {number(m.ci.lo), number(m.ci.hi)}}};
}

nlohmann::json group_json(const GroupStats& g) {
  nlohmann::json j;
  j["name"] = g.name;
  j["pairs"] = g.pairs;
  j["references"] = g.references;
  j["srocc"] = metric_json(g.srocc);
  j["srocc"]["signed"] = number(g.srocc_signed);
  j["krocc"] = metric_json(g.krocc);
  j["krocc"]["signed"] = number(g.krocc_signed);
  j["plcc"] = metric_json(g.plcc);
  j["rmse"] = metric_json(g.rmse);
  if (g.fit.ok) {
    j["logistic"] = {{"beta", g.fit.beta}, {"linear", g.fit.linear}};
  } else {
    j["logistic"] = nullptr;
  }
  return j;
}

std::string row(const GroupStats& g) {
  char buf[256];
  const auto ci = [](const Metric& m) {
    return "[" + format_stat(m.ci.lo, 3) + ", " + format_stat(m.ci.hi, 3) + "]";
  };
  std::snprintf(buf, sizeof buf, "%-36.36s %6zu  %s %-14s %s %-14s %s %-14s %s %s\n",
                g.name.c_str(), g.pairs, format_stat(g.srocc.value).c_str(), ci(g.srocc).c_str(),
                format_stat(g.krocc.value).c_str(), ci(g.krocc).c_str(),
                format_stat(g.plcc.value).c_str(), ci(g.plcc).c_str(),
                format_stat(g.rmse.value).c_str(), ci(g.rmse).c_str());
  return buf;
}

}  // namespace

std::string format_stat(double v, int decimals) {
  if (!std::isfinite(v)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

double pairs_per_second(const EvalReport& r) {
  return r.score_seconds > 0
             ? static_cast<double>(r.counts.scored_now + r.counts.failed_now) / r.score_seconds
             : 0.0;
}

double steady_pairs_per_second(const EvalReport& r) {
  double sum = 0.0;
  for (const auto& w : r.worker_timing) {
    if (w.steady_pairs_per_second <= 0.0) return 0.0;
    sum += w.steady_pairs_per_second;
  }
  return sum;
}

std::string sign_convention(const EvalReport& r) {
  const std::string expected = r.higher_is_better ? "negative" : "positive";
  return "MAD: higher = worse. " + r.score_name +
         ": higher = " + (r.higher_is_better ? "better" : "worse") +
         ", so an agreeing metric correlates " + expected +
         "ly. SROCC and KROCC are reported oriented (raw value x " +
         (r.higher_is_better ? "-1" : "+1") +
         ": near +1 is good agreement; 'signed' keeps the raw value); PLCC and RMSE compare the "
         "fitted logistic prediction with the " +
         r.score_name + ".";
}

// {pairs, first_seconds, last_seconds, steady_pairs_per_second} of each worker.
static nlohmann::json workers_json(const EvalReport& r) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& w : r.worker_timing)
    a.push_back({{"pairs", w.pairs},
                 {"first_seconds", w.first_seconds},
                 {"last_seconds", w.last_seconds},
                 {"steady_pairs_per_second", w.steady_pairs_per_second}});
  return a;
}

// The allotment and what the run sized from it (issue 39 item 3): on a cluster, whether mad
// saw the CPUs and memory its job was given.
static nlohmann::json allotment_json(const EvalReport& r) {
  const Allotment& a = *r.allotment;
  return {{"cpus", a.cpus},
          {"cpus_from", a.cpus_from},
          {"hardware_cpus", a.hardware_cpus},
          {"affinity_cpus", a.affinity_cpus},
          {"cgroup_cpus", a.cgroup_cpus},
          {"memory_bytes", a.memory_bytes},
          {"memory_from", a.memory_from},
          {"physical_memory_bytes", a.physical_memory_bytes},
          {"cgroup_memory_bytes", a.cgroup_memory_bytes},
          {"cgroup", a.cgroup},
          {"scoring_threads", r.scoring_threads},
          {"decode_memory_bytes", r.decode_memory_bytes}};
}

nlohmann::json report_to_json(const EvalReport& r) {
  nlohmann::json j;
  j["dataset"] = {{"name", r.dataset},
                  {"root", r.root},
                  {"score", r.score_name},
                  {"subjective_higher_is_better", r.higher_is_better},
                  {"pairs", r.counts.entries},
                  {"synthetic", r.synthetic}};
  if (r.synthetic) j["dataset"]["scores"] = kSyntheticScores;
  const auto& s = r.settings;
  j["settings"] = {{"mad_version", s.mad_version},
                   {"backend", s.backend},
                   {"precision", s.precision},
                   {"input_class", s.input_class},
                   {"a5_variant", s.a5_variant},
                   {"workers", s.workers},
                   {"devices", s.devices},
                   {"results_file", s.results_file},
                   {"backend_reason", s.backend_reason},
                   {"det_variant", s.det_variant},
                   {"bootstrap",
                    {{"resamples", s.bootstrap.resamples},
                     {"seed", s.bootstrap.seed},
                     {"level", s.bootstrap.level},
                     {"resampled_unit", "reference image"}}}};
  if (r.allotment) j["settings"]["allotment"] = allotment_json(r);
  const auto& c = r.counts;
  j["run"] = {{"started", r.started},
              {"pairs_finished_before", c.finished_before},
              {"pairs_scored", c.scored_now},
              {"pairs_failed", c.failed_now},
              {"missing_images", c.missing_images},
              {"pairs_skipped_missing", c.skipped_missing},
              {"pairs_not_run", c.not_run},
              {"pairs_in_statistics", r.points.size()},
              {"score_seconds", r.score_seconds},
              {"decode_wait_seconds", r.decode_wait_seconds},
              {"gpu_wait_seconds", r.gpu_wait_seconds},
              {"decoded_images", r.decoded_images},
              {"decode_seconds", r.decode_seconds},
              {"decode_threads", r.decode_threads},
              {"pairs_per_second", pairs_per_second(r)},
              {"steady_from_pair", r.steady_from_pair},
              {"steady_pairs_per_second", steady_pairs_per_second(r)},
              {"workers", workers_json(r)},
              {"stats_seconds", r.stats_seconds}};
  j["sign_convention"] = sign_convention(r);
  j["expected_sign"] = r.higher_is_better ? -1 : 1;
  j["overall"] = r.have_stats ? group_json(r.stats.overall) : nlohmann::json();
  j["per_type"] = nlohmann::json::array();
  if (r.have_stats)
    for (const auto& g : r.stats.per_type) j["per_type"].push_back(group_json(g));
  j["missing_images"] = r.missing;
  j["failures"] = nlohmann::json::array();
  for (const auto& f : r.failures)
    j["failures"].push_back({{"ref", f.ref}, {"dist", f.dist}, {"error", f.error}});
  j["notes"] = r.notes;
  j["warnings"] = report_warnings(r);
  return j;
}

// Each worker's first pair back and its steady rate (issue 26): how much of a run its start
// took, apart from the rate a longer run would see. Empty when no worker has a steady rate.
static std::string workers_line(const EvalReport& r) {
  const double steady = steady_pairs_per_second(r);
  if (steady <= 0.0) return "";
  std::string rates, firsts;
  char buf[64];
  for (const auto& w : r.worker_timing) {
    std::snprintf(buf, sizeof buf, "%s%.1f", rates.empty() ? "" : " + ", w.steady_pairs_per_second);
    rates += buf;
    std::snprintf(buf, sizeof buf, "%s%.2f", firsts.empty() ? "" : ", ", w.first_seconds);
    firsts += buf;
  }
  char line[1024];
  std::snprintf(line, sizeof line,
                "steady: %.1f pairs/s from each worker's pair %zu on (%s); the workers' first "
                "pairs back at %s s\n",
                steady, r.steady_from_pair, rates.c_str(), firsts.c_str());
  return line;
}

// Issue 26: a run its decoders held back says so, with the ceiling they set (decoding threads
// / time an image, times pairs per decoded image), since a faster or second GPU cannot raise it.
// Bound: the workers waited on decoding for more than half of their time.
static std::string decoding_bound_note(const EvalReport& r) {
  const double worker_seconds = r.score_seconds * std::max(1, r.settings.workers);
  if (r.decoded_images == 0 || r.decode_seconds <= 0 || worker_seconds <= 0 ||
      r.decode_wait_seconds <= 0.5 * worker_seconds)
    return "";
  const double per_image = r.decode_seconds / static_cast<double>(r.decoded_images);
  const double pairs_per_image =
      static_cast<double>(r.counts.scored_now + r.counts.failed_now) / r.decoded_images;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "bounded by decoding: the workers waited on it %.0f%% of their time; %zu "
                "decoding thread(s) at %.2f ms an image feed at most %.0f pairs/s, which no "
                "faster or additional GPU raises\n",
                100.0 * r.decode_wait_seconds / worker_seconds, r.decode_threads, 1e3 * per_image,
                static_cast<double>(r.decode_threads) / per_image * pairs_per_image);
  return buf;
}

std::string report_to_text(const EvalReport& r) {
  std::string out;
  char buf[512];
  const auto& c = r.counts;
  const std::string shard = r.shard.empty() ? "" : ", shard " + r.shard;
  if (r.synthetic) out += report_title(r) + ": " + kSyntheticScores + "\n";
  std::snprintf(buf, sizeof buf,
                "dataset %s (%s)%s: %zu pairs; %zu scored now, %zu from a previous run, %zu "
                "failed, %zu skipped (missing images), %zu not run\n",
                r.dataset.c_str(), r.root.c_str(), shard.c_str(), c.entries, c.scored_now,
                c.finished_before, c.failed_now, c.skipped_missing, c.not_run);
  out += buf;
  std::snprintf(buf, sizeof buf,
                "scoring: %.2f s, %.2f pairs/s on %d worker(s) (%s), waiting on decoding %.2f "
                "s, on the GPU %.2f s; statistics: %.2f s\n",
                r.score_seconds, pairs_per_second(r), r.settings.workers,
                r.settings.backend.c_str(), r.decode_wait_seconds, r.gpu_wait_seconds,
                r.stats_seconds);
  out += buf;
  out += workers_line(r);
  if (r.decoded_images > 0) {
    std::snprintf(buf, sizeof buf, "decoding: %zu images, %.2f ms each, on %zu thread(s)\n",
                  r.decoded_images, 1e3 * r.decode_seconds / static_cast<double>(r.decoded_images),
                  r.decode_threads);
    out += buf;
    out += decoding_bound_note(r);
  }
  out += sign_convention(r) + "\n";
  if (!r.shard.empty())
    return out + "statistics: none for shard " + r.shard +
           " alone (mad merge of all the shards' --out files writes them)\n";
  if (!r.have_stats) return out + "statistics: fewer than two scored pairs\n";
  std::snprintf(buf, sizeof buf, "%-36s %6s  %-21s %-21s %-21s %-21s\n", "type", "pairs",
                "SROCC [95% CI]", "KROCC [95% CI]", "PLCC [95% CI]", "RMSE [95% CI]");
  out += buf;
  out += row(r.stats.overall);
  for (const auto& g : r.stats.per_type) out += row(g);
  for (const auto& w : report_warnings(r)) out += "warning: " + w + "\n";
  return out;
}

}  // namespace mad::datasets
