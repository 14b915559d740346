// `mad bench --list-studies` / `--study` (tools/cli_bench_study.h). Thin: refuse what does not
// apply, run the studies (tools/bench/study.h), print. Progress goes to standard error.
#include "tools/cli_bench_study.h"

#include <cstdio>
#include <iostream>

#include "common/error.h"
#include "common/text_file.h"
#include "mad/backend_choice.h"
#include "common/time_text.h"
#include "tools/bench/runners.h"
#include "tools/bench/study.h"
#include "tools/cli_commands.h"
#include "tools/cli_options.h"

namespace mad::cli {
namespace {

// The measuring and report options of the group run, which a study fixes itself (its seed's
// sizes, runs and variants) or does not write.
const char* const kGroupOptions[] = {"--kernels",  "--sizes",        "--repeat",  "--precision",
                                     "--markdown", "--summary-from", "--windows", "--nick-cpu"};

// What the JSON records of this run: the command as re-typed, when, and on what.
bench::StudiesProvenance provenance(const StudyCliArgs& args) {
  bench::StudiesProvenance p;
  p.command = "mad bench --study " + args.studies + (args.quick ? " --quick" : "") +
              (args.format != "table" ? " --format " + args.format : "") +
              (args.html.empty() ? "" : " --html " + args.html);
  p.started = time_now_text(TimeZone::Utc, "%Y-%m-%dT%H:%M:%SZ");
  const bench::DeviceInfo d = bench::probe_device(false, args.quick);
  p.device = d.name, p.driver = d.driver, p.runtime = d.runtime;
  p.cpu = d.cpu_name, p.cpu_threads = d.cpu_threads;
  return p;
}

}  // namespace

int run_study_command(const CLI::App& bench, const StudyCliArgs& args) {
  const char* what = args.list ? "--list-studies" : "--study";
  for (const char* option : kGroupOptions)
    if (given(bench, option))
      throw InvalidArgument(std::string(what) + " takes no " + option +
                            ": each study runs its seed's configuration (sizes, runs, variants)");
  if (args.list) {
    for (const char* option : {"--study", "--quick", "--format", "--html"})
      if (given(bench, option))
        throw InvalidArgument(std::string("--list-studies takes no other option (") + option +
                              " was given)");
    std::cout << bench::format_study_list();
    return kExitOk;
  }
  if (args.format != "table" && args.format != "json")
    throw InvalidArgument("--format with --study must be table or json");
  const std::vector<const bench::Study*> chosen = bench::parse_studies(args.studies);
  require_writable(args.html, "--html");  // before the studies' minutes, not after them
  bench::StudyConfig config;
  config.quick = args.quick;
  config.gpu = choose_backend(Backend::Auto).backend == Backend::Cuda;  // the one chooser
  config.progress = [](const std::string& line) {
    std::fprintf(stderr, "mad bench: %s\n", line.c_str());
  };
  // Without a device the outputs say so once (tools/bench/study_report.cpp), not here too.
  const bench::StudiesProvenance origin = provenance(args);
  std::vector<bench::StudyResult> results;
  for (const bench::Study* s : chosen) results.push_back(bench::run_study(*s, config));
  if (args.format == "json")
    std::cout << bench::studies_json(results, origin).dump(1) << '\n';
  else
    std::cout << bench::format_studies_table(results);
  if (!args.html.empty()) {
    std::vector<std::string> device;
    if (config.gpu) device.push_back("GPU rows measured on " + origin.device);
    write_text_file(args.html, bench::format_studies_html(results, device));
  }
  return kExitOk;
}

}  // namespace mad::cli
