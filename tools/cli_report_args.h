// The arguments `mad eval` and `mad merge` (of eval shards) share on their way to a report:
// where the results file and the reports go, whether existing files are replaced, the
// bootstrap's settings and whether notes are printed. Each command's arguments derive from
// ReportArgs, and apply_report_args hands them to any of datasets/' configs (EvalConfig,
// VideoEvalConfig, EvalMergeConfig), whose fields of these names mean the same.
#pragma once

#include <cstdint>
#include <string>

#include "common/text_file.h"
#include "datasets/bootstrap.h"

namespace mad::cli {

struct ReportArgs {
  std::string out, json, html;
  bool force = false, quiet = false;
  int resamples = datasets::BootstrapOptions{}.resamples;
  std::uint64_t seed = datasets::BootstrapOptions{}.seed;
};

// Sets `c`'s out, overwrite, json, html, bootstrap and log (null with --quiet) from `a`, then
// refuses (InvalidArgument) a --json or --html path that cannot be written: the reports are
// written after the scoring or the bootstrap, too late to learn it.
template <class Config>
void apply_report_args(const ReportArgs& a, Config& c) {
  c.out = a.out;
  c.overwrite = a.force;
  c.json = a.json;
  c.html = a.html;
  c.bootstrap.resamples = a.resamples;
  c.bootstrap.seed = a.seed;
  if (a.quiet) c.log = nullptr;
  require_writable(a.json, "--json");
  require_writable(a.html, "--html");
}

}  // namespace mad::cli
