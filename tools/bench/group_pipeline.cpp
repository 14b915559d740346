// `mad bench` group pipeline: the whole MAD per image pair through tools/bench/pipeline_bench.h:
// one pair at a time (upload included, decode excluded), batches with distinct references and with
// one shared reference (the dataset case), both precisions; and the CPU path on one and on all
// threads. Times are per pair; the GPU rows carry the scorer's device memory.
//
// The CPU path runs only up to 1080x800 pixels (at 1920x1080 one single-threaded pair takes
// several seconds, which the 4-minute budget of a full run cannot afford).
#include <algorithm>

#include "appearance/subband_transform.h"
#include "common/parallel.h"
#include "mad/options.h"
#include "tools/bench/pipeline_bench.h"
#include "tools/bench/runners.h"

namespace mad::bench {
namespace {

BenchRow to_row(const PipelineBenchRow& p, int warmup) {
  BenchRow r;
  r.group = "pipeline";
  r.case_name = "pair";
  r.backend = p.backend;
  r.precision = p.precision;
  r.width = p.width;
  r.height = p.height;
  apply_measurement(r, p.time);
  r.warmup = warmup;  // GPU rows: the batch rows' untimed batches count as the warm-up
  r.pairs_per_s = p.pairs_per_s;
  if (p.backend == "cpu") {
    const bool one = p.mode == "cpu-1-thread";
    r.variant = one ? "cpu-1t" : "cpu-all";
    r.threads = one ? 1 : thread_count();
    r.warmup = 1;
    r.note = "mad::Scorer, CPU backend (double)";
  } else {
    r.variant = p.mode;
    r.device_bytes = static_cast<double>(p.device_bytes);
    r.device_bytes_per_pair =
        p.device_bytes_per_pair > 0 ? static_cast<double>(p.device_bytes_per_pair) : kMissing;
    r.note = p.mode.rfind("single", 0) == 0 ? "mad::Scorer (a batch of depth one), one pair at a time: upload + both stages + read-back"
                                : "BatchScorer, overlapped slots; time per pair over a batch";
  }
  return r;
}

}  // namespace

void run_pipeline_group(BenchContext& ctx) {
  const BenchConfig& c = ctx.config;
  for (const Size s : c.sizes_for("pipeline")) {
    ctx.say("pipeline " + format_size(s.width, s.height));
    PipelineBenchOptions o;
    o.sizes = {{s.width, s.height}};
    o.precisions.clear();
    for (const std::string& p : c.precisions) o.precisions.push_back(parse_precision(p));
    o.gpu = c.gpu;
    o.warmup_runs = c.gpu_warmup;
    o.timed_runs = c.gpu_runs;
    o.batch_pairs = c.quick ? 4 : 64;
    o.distinct_inputs = c.quick ? 3 : 5;  // odd: never a multiple of the slots (2 or 4)
    o.cpu = c.quick || static_cast<long long>(s.width) * s.height <= 1080LL * 800;
    o.cpu_runs = c.cpu_runs > 0 ? c.cpu_runs : c.quick ? 1 : 2;  // --repeat fixes it
    ctx.guarded("pipeline " + format_size(s.width, s.height), [&] {
      for (const PipelineBenchRow& p : bench_pipeline(o)) ctx.add(to_row(p, c.gpu_warmup));
    });
    // Where the fused subband transform can run, each transform by name beside the default
    // rows (GPU rows only, modes "-fused" and "-cufft"), so one run compares them whichever the
    // default picks (issue 26, item 2).
    const bool both_precisions_fused =
        appearance::fused_subband_transform_supports(s.width, s.height, true) &&
        appearance::fused_subband_transform_supports(s.width, s.height, false);
    if (both_precisions_fused && c.gpu) {
      o.cpu = false;
      for (const char* transform : {"fused", "cufft"}) {
        o.subband_transform = transform;
        ctx.guarded("pipeline " + format_size(s.width, s.height) + " " + transform, [&] {
          for (const PipelineBenchRow& p : bench_pipeline(o)) ctx.add(to_row(p, c.gpu_warmup));
        });
      }
    }
  }
}

}  // namespace mad::bench
