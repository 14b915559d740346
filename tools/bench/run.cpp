// run_bench: probes the device, runs every selected group in order and finishes the report.
// Each group's wall time is recorded as a note, so the default sizes can be kept inside the
// 4-minute budget of the device run (tools/gpu-check.sh).
#include <chrono>

#include "common/time_text.h"
#include "tools/bench/runners.h"

namespace mad::bench {
namespace {

// Every group: its --kernels name and what runs it, in the order they run and are reported.
// bench_groups() lists the names from here, so that a group is added in one row.
struct Group {
  const char* name;
  void (*run)(BenchContext& ctx);
};
const Group kGroups[] = {
    {"gray", [](BenchContext& ctx) { run_gray_group(ctx, false); }},
    {"darken", [](BenchContext& ctx) { run_gray_group(ctx, true); }},
    {"histogram", run_histogram_group},
    {"smooth", run_smooth_group},
    {"nick", run_nick_group},
    {"convolve", run_convolve_group},
    {"detection", run_detection_group},
    {"a5", run_a5_group},
    {"csf", [](BenchContext& ctx) { run_spectral_group(ctx, "csf"); }},
    {"fft", [](BenchContext& ctx) { run_spectral_group(ctx, "fft"); }},
    {"log_gabor", [](BenchContext& ctx) { run_spectral_group(ctx, "log_gabor"); }},
    {"appearance", run_appearance_group},
    {"combine", run_combine_group},
    {"pipeline", run_pipeline_group},
};

void run_group(BenchContext& ctx, const std::string& name) {
  for (const Group& g : kGroups)
    if (name == g.name) g.run(ctx);
}

}  // namespace

const std::vector<std::string>& bench_groups() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const Group& g : kGroups) out.push_back(g.name);
    return out;
  }();
  return names;
}

BenchReport run_bench(const BenchConfig& config,
                      const std::function<void(const std::string&)>& progress) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  BenchReport report;
  report.quick = config.quick;
  report.started = time_now_text(TimeZone::Utc, "%Y-%m-%dT%H:%M:%SZ");
  report.device = probe_device(config.gpu, config.quick);
  BenchContext ctx;
  ctx.config = config;
  ctx.progress = progress;
  if (config.gpu) {
    ctx.transfers = std::make_unique<TransferTimer>(config.transfer_runs);
  } else {
    ctx.notes.push_back(
        "no CUDA device used (none present, or a build without the CUDA backend): "
        "only the CPU columns were measured");
  }
  for (const std::string& group : config.groups) {
    const auto g0 = Clock::now();
    ctx.say("group " + group);
    ctx.guarded("group " + group,
                [&] { run_group(ctx, group); });  // a failure ends this group only
    const double s = std::chrono::duration<double>(Clock::now() - g0).count();
    ctx.notes.push_back("group " + group + " took " + format_number(s) + " s");
  }
  report.rows = std::move(ctx.rows);
  report.notes = std::move(ctx.notes);
  report.elapsed_s = std::chrono::duration<double>(Clock::now() - t0).count();
  finalize_rows(report);
  return report;
}

}  // namespace mad::bench
