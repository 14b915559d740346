// `mad bench --list-studies` / `--study` (tools/cli_bench_study.h). Thin: refuse what does not
// apply, run the studies (tools/bench/study.h), print. Progress goes to standard error.
#include "tools/cli_bench_study.h"

#include <cstdio>
#include <fstream>
#include <iostream>

#include "common/error.h"
#include "common/gpu_info.h"
#include "tools/bench/study.h"
#include "tools/cli_commands.h"
#include "tools/cli_options.h"

namespace mad::cli {
namespace {

// The measuring and report options of the group run, which a study fixes itself (its seed's
// sizes, runs and variants) or does not write.
const char* const kGroupOptions[] = {"--kernels",  "--sizes",        "--repeat",  "--precision",
                                     "--markdown", "--summary-from", "--windows", "--nick-cpu"};

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
  bench::StudyConfig config;
  config.quick = args.quick;
  config.gpu = gpu_backend_compiled() && gpu_device_available();
  config.progress = [](const std::string& line) {
    std::fprintf(stderr, "mad bench: %s\n", line.c_str());
  };
  if (!config.gpu)
    std::fprintf(stderr, "mad bench: no CUDA device: the studies' GPU rows are skipped\n");
  std::vector<bench::StudyResult> results;
  for (const bench::Study* s : chosen) results.push_back(bench::run_study(*s, config));
  if (args.format == "json")
    std::cout << bench::studies_json(results).dump(1) << '\n';
  else
    std::cout << bench::format_studies_table(results);
  if (!args.html.empty()) {
    std::vector<std::string> device = {
        config.gpu ? "GPU rows measured on this machine's CUDA device"
                   : "no CUDA device: GPU rows not measured"};
    if (args.quick) device.push_back("--quick: reduced sizes, few runs");
    std::ofstream out(args.html, std::ios::binary);
    out << bench::format_studies_html(results, device);
    if (!out) throw InputError("cannot write '" + args.html + "'");
  }
  return kExitOk;
}

}  // namespace mad::cli
