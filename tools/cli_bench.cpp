// `mad bench [--kernels LIST] [--sizes LIST] [--windows LIST] [--nick-cpu integral|window-loop]
//  [--repeat N] [--precision double|float|both] [--format table|csv|json] [--html FILE] [--markdown
//  FILE] [--quick] [--summary-from FILE]`,
// and `mad bench --study NAME[,NAME...]|all` / `--list-studies` (tools/cli_bench_study.cpp).
// Thin: parse, run (tools/bench/runners.h), print (tools/bench/report.h). Progress goes
// to standard error, so `--format json > bench.json` captures the document alone.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <memory>

#include "common/error.h"
#include "common/gpu_info.h"
#include "common/text_file.h"
#include "mad/backend_choice.h"
#include "tools/bench/report.h"
#include "tools/bench/runners.h"
#include "tools/cli_bench_study.h"
#include "tools/cli_commands.h"
#include "tools/cli_options.h"
#include "tools/cli_subcommand.h"

namespace mad::cli {
namespace {

struct BenchCliState {
  std::string kernels = "all", sizes, precision = "both", format = "table";
  std::string html, markdown, summary_from, studies, windows, nick_cpu = "integral";
  int repeat = 0;
  bool quick = false, list_studies = false;
};

// What `mad bench` does, as mad --help lists it.
constexpr const char* kSummary =
    "Time every GPU kernel variant against the CPU reference (tables, CSV, JSON, HTML)";

void write_reports(const BenchCliState& st, const bench::BenchReport& report) {
  if (!st.html.empty()) write_text_file(st.html, bench::format_html(report));
  if (!st.markdown.empty()) write_text_file(st.markdown, bench::format_markdown(report));
}

// A report path that cannot be written is refused before the measuring, not after it.
void require_writable_reports(const BenchCliState& st) {
  require_writable(st.html, "--html");
  require_writable(st.markdown, "--markdown");
}

// The command line as the user could re-type it (recorded in every report).
std::string command_line(const BenchCliState& st) {
  std::string cmd = "mad bench";
  if (st.quick) cmd += " --quick";
  if (st.kernels != "all") cmd += " --kernels " + st.kernels;
  if (!st.sizes.empty()) cmd += " --sizes " + st.sizes;
  if (!st.windows.empty()) cmd += " --windows " + st.windows;
  if (st.nick_cpu != "integral") cmd += " --nick-cpu " + st.nick_cpu;
  if (st.repeat > 0) cmd += " --repeat " + std::to_string(st.repeat);
  if (st.precision != "both") cmd += " --precision " + st.precision;
  if (st.format != "table") cmd += " --format " + st.format;
  if (!st.html.empty()) cmd += " --html " + st.html;
  if (!st.markdown.empty()) cmd += " --markdown " + st.markdown;
  return cmd;
}

// --precision chooses the precision of the MAD stages' GPU rows. Where no selected group has
// such rows (the u8 kernels, the convolution's fixed types, combine's double), or no device
// runs them (the CPU reference computes in double), it would change nothing: refuse it.
void refuse_idle_precision(const bench::BenchConfig& config) {
  std::string stages, chosen;
  for (const std::string& g : bench::precision_groups()) {
    stages += (stages.empty() ? "" : ", ") + g;
    if (config.wants(g)) chosen += (chosen.empty() ? "" : ", ") + g;
  }
  if (chosen.empty())
    throw InvalidArgument("--precision sets the precision of the GPU rows of " + stages +
                          ", and --kernels selects none of them (the other groups time fixed "
                          "types: u8, the convolution's u8 and float, combine's double): drop "
                          "--precision or add one of them to --kernels");
  if (!config.gpu)
    throw InvalidArgument("--precision sets the precision of the GPU rows of " + chosen +
                          ", and " +
                          (gpu_backend_compiled() ? "no CUDA device was found"
                                                  : "this build has no CUDA backend") +
                          ": only the CPU reference runs, always in double (drop --precision)");
}

int run_bench_command(const CLI::App& cmd, const BenchCliState& st) {
  if (st.list_studies || given(cmd, "--study"))
    return run_study_command(cmd, {st.studies, st.list_studies, st.quick, st.format, st.html});
  if (!st.summary_from.empty()) {
    if (st.quick || st.repeat > 0 || st.kernels != "all" || !st.sizes.empty() ||
        st.precision != "both" || !st.windows.empty() || given(cmd, "--nick-cpu"))
      throw InvalidArgument(
          "--summary-from reads a finished report: it takes no measuring options");
    require_writable_reports(st);
    bench::BenchReport report = bench::load_report(st.summary_from);
    bench::finalize_rows(report);  // idempotent; also covers a hand-edited report
    for (const std::string& line : bench::goal_summary(report)) std::cout << line << '\n';
    write_reports(st, report);
    return kExitOk;
  }
  bench::BenchConfig config = bench::default_config(st.quick);
  config.groups = bench::parse_list(st.kernels, bench::bench_groups(), "--kernels");
  if (!st.sizes.empty()) config.sizes = bench::parse_sizes(st.sizes);
  if (given(cmd, "--windows")) config.nick_windows = bench::parse_windows(st.windows);
  if (st.nick_cpu != "integral" && st.nick_cpu != "window-loop")
    throw InvalidArgument("--nick-cpu must be integral or window-loop");
  config.nick_cpu_window_loop = st.nick_cpu == "window-loop";
  if (st.repeat > 0) config.gpu_runs = config.cpu_runs = st.repeat;  // 0: not given
  if (st.precision == "both")
    config.precisions = {"double", "float"};
  else if (st.precision == "double" || st.precision == "float")
    config.precisions = {st.precision};
  else
    throw InvalidArgument("--precision must be double, float or both");
  if (st.format != "table" && st.format != "csv" && st.format != "json")
    throw InvalidArgument("--format must be table, csv or json");
  config.gpu = choose_backend(Backend::Auto).backend == Backend::Cuda;  // the one chooser
  if (given(cmd, "--precision")) refuse_idle_precision(config);
  require_writable_reports(st);
  if (!config.gpu)
    std::fprintf(stderr, "mad bench: no CUDA device: measuring the CPU columns only\n");

  bench::BenchReport report = bench::run_bench(config, [](const std::string& line) {
    std::fprintf(stderr, "mad bench: %s\n", line.c_str());
  });
  report.command = command_line(st);
  if (st.format == "json")
    std::cout << bench::to_json(report).dump(1) << '\n';
  else if (st.format == "csv")
    std::cout << bench::to_csv(report);
  else
    std::cout << bench::format_table(report);
  write_reports(st, report);
  return kExitOk;
}

void add_options(CLI::App* cmd, BenchCliState* st) {
  std::string groups;
  for (const std::string& g : bench::bench_groups()) groups += (groups.empty() ? "" : ",") + g;
  cmd->add_option("--kernels", st->kernels,
                  "Comma list of groups to run: " + groups + " (default all)");
  cmd->add_option("--sizes", st->sizes,
                  "Comma list WxH replacing every group's default sizes, e.g. 512x384,1080x800");
  cmd->add_option("--windows", st->windows,
                  "Comma list of Nick window widths (plain decimals in 2..101) replacing the "
                  "nick group's sweep, e.g. 2,10,50,100");
  cmd->add_option("--nick-cpu", st->nick_cpu,
                  "CPU reference of the nick group: integral (O(1) per pixel) | window-loop "
                  "(seed 002's O(w^2) loop)")
      ->capture_default_str();
  cmd->add_option("--repeat", st->repeat,
                  "Timed runs per measurement, GPU and CPU rows alike (default: 21 GPU runs, "
                  "5 with --quick; CPU calls up to 10 within 0.5 s, 2 within 0.05 s with --quick)")
      ->check(decimal_in_range(1, 100000, "leave --repeat out for the default"));
  cmd->add_option("--precision", st->precision,
                  "Precision of the GPU rows of the MAD stages (detection, a5, csf, fft, "
                  "log_gabor, appearance, pipeline): double | float | both; refused without a "
                  "device or without such a group")
      ->capture_default_str();
  cmd->add_option("--format", st->format, "Standard output: table | csv | json")
      ->capture_default_str();
  cmd->add_option("--html", st->html,
                  "Also write a self-contained HTML report (inline SVG charts) to FILE");
  cmd->add_option("--markdown", st->markdown,
                  "Also write the results as Markdown (docs/benchmarks.md) to FILE");
  cmd->add_flag("--quick", st->quick, "Tiny sizes and few runs (CI: seconds on two cores)");
  cmd->add_option(
      "--summary-from", st->summary_from,
      "Print the goal figures of a JSON report written by --format json (no measuring); "
      "--html/--markdown regenerate those reports from it");
  cmd->add_option("--study", st->studies,
                  "Re-run seed experiments: a comma list of study names, or all "
                  "(--list-studies names them); with --quick, --format table|json, --html");
  cmd->add_flag("--list-studies", st->list_studies, "List the seed studies, one line each");
}

}  // namespace

Subcommand add_bench_command(CLI::App& root) {
  return make_subcommand<BenchCliState>(root, "bench", kSummary, add_options, run_bench_command);
}

}  // namespace mad::cli
