// `mad score`: one pair (REF DIST) or a list of pairs (--pairs LIST.csv).
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "common/error.h"
#include "common/image_io.h"
#include "common/parallel.h"
#include "datasets/csv.h"
#include "datasets/pairs_list.h"
#include "mad/variants.h"
#include "mad/memory_check.h"
#include "mad/pair_engine.h"
#include "mad/result_json.h"
#include "mad/score.h"
#include "tools/cli_commands.h"

namespace mad::cli {
namespace {

struct ScoreArgs {
  std::string ref, dist, pairs, out, maps_dir;
  std::string backend = "auto", version = "2011", input_class = "auto", precision = "double";
  std::string a5, det, gpu_memory_limit;
  bool json = false;
  bool list_variants = false;
  int threads = 0;
};

ScoreOptions make_options(const ScoreArgs& a) {
  ScoreOptions o;
  o.backend = parse_backend(a.backend);
  o.version = parse_mad_version(a.version);
  o.input_class = parse_input_class(a.input_class);
  o.precision = parse_precision(a.precision);
  o.a5_variant = a.a5;
  o.det_variant = a.det;
  if (!a.gpu_memory_limit.empty()) o.gpu_memory_limit = parse_memory_size(a.gpu_memory_limit);
  o.want_maps = !a.maps_dir.empty();
  return o;
}

void print_notes(const std::string& path, const GrayImage& img) {
  for (const auto& n : img.notes)
    std::fprintf(stderr, "mad: note: %s: %s\n", path.c_str(), n.c_str());
}

nlohmann::json write_maps(const std::string& dir, const ScoreResult& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw InputError("cannot create maps folder '" + dir + "': " + ec.message());
  nlohmann::json j;
  const struct {
    const char* name;
    const Image<double>* map;
  } maps[] = {{"map_hi", &r.map_hi}, {"map_lo", &r.map_lo}};
  for (const auto& m : maps) {
    const std::string base = (std::filesystem::path(dir) / m.name).string();
    const double scale = save_png16_scaled(base + ".png", m.map->cview());
    j[m.name]["png"] = base + ".png";
    j[m.name]["png_scale"] = scale;  // value = png_pixel / png_scale
    if (tiff_supported()) {
      save_tiff_float(base + ".tiff", m.map->cview());
      j[m.name]["tiff"] = base + ".tiff";
    }
  }
  return j;
}

int run_single(const ScoreArgs& a) {
  if (a.ref.empty() || a.dist.empty())
    throw InvalidArgument("mad score needs REF and DIST (or --pairs LIST.csv)");
  const ScoreOptions options = make_options(a);
  const GrayImage ref = load_gray_image(a.ref);
  const GrayImage dist = load_gray_image(a.dist);
  print_notes(a.ref, ref);
  print_notes(a.dist, dist);
  if (resolve_backend(options.backend) == Backend::Cpu) {
    const std::string need = cpu_memory_statement(ref.pixels.width(), ref.pixels.height(),
                                                  thread_count(), options.want_maps);
    if (!need.empty()) std::fprintf(stderr, "mad: note: %s\n", need.c_str());
  }
  const ScoreResult r = score(ref, dist, options);
  nlohmann::json maps;
  if (options.want_maps) maps = write_maps(a.maps_dir, r);
  if (a.json) {
    nlohmann::json j = result_to_json(r);
    j["ref"] = a.ref;
    j["dist"] = a.dist;
    if (options.want_maps) j["maps"] = maps;
    std::cout << j.dump(2) << "\n";
  } else {
    std::printf("MAD %s\nHI  %s\nLO  %s\n", format_double(r.mad).c_str(),
                format_double(r.hi).c_str(), format_double(r.lo).c_str());
  }
  return kExitOk;
}

int run_pairs(const ScoreArgs& a) {
  const ScoreOptions options = make_options(a);
  const auto rows = datasets::read_pairs_list(a.pairs);
  std::ofstream file;
  std::ostream* out = &std::cout;
  if (!a.out.empty()) {
    file.open(a.out, std::ios::out | std::ios::trunc);
    if (!file) throw InputError("cannot write results file '" + a.out + "'");
    out = &file;
  }
  *out << datasets::join_csv(result_csv_header()) << "\n" << std::flush;

  std::vector<PairJob> jobs;
  for (std::size_t i = 0; i < rows.size(); ++i)
    jobs.push_back({i, rows[i].ref, rows[i].dist, rows[i].error});
  EngineOptions engine;
  engine.score = options;
  // One worker on the current GPU (or the CPU); rows come back in list order and each is
  // written and flushed at once, so an interrupted run keeps every finished row.
  engine.gpus = resolve_backend(options.backend) == Backend::Cuda ? 1 : 0;
  engine.in_order = true;
  engine.progress = stderr;
  const EngineReport report = score_pairs(jobs, engine, [&](const PairOutcome& o) {
    const auto& row = rows[o.id];
    if (!o.result) std::fprintf(stderr, "mad: line %d: %s\n", row.line, o.error.c_str());
    *out << datasets::join_csv(result_csv_row(row.ref, row.dist, o.result, o.error)) << "\n"
         << std::flush;
  });
  const std::size_t failures = report.failed;
  std::fprintf(stderr, "mad: %zu pairs scored, %zu failed, %.2f s\n", rows.size() - failures,
               failures, report.seconds);
  return failures ? kExitPartial : kExitOk;
}

}  // namespace

Subcommand add_score_command(CLI::App& root) {
  auto args = std::make_shared<ScoreArgs>();
  CLI::App* cmd =
      root.add_subcommand("score", "Score a (reference, distorted) pair or a list of pairs");
  cmd->add_option("REF", args->ref, "Reference image (PNG, JPEG, BMP, TIFF, PGM/PPM)");
  cmd->add_option("DIST", args->dist, "Distorted image");
  cmd->add_option(
      "--pairs", args->pairs,
      "CSV list of pairs (columns ref,dist; relative paths resolve against the list's folder)");
  cmd->add_option("--out", args->out, "Results CSV for --pairs (default: standard output)");
  cmd->add_option("--backend", args->backend, "auto | cpu | cuda")->capture_default_str();
  cmd->add_option("--mad-version", args->version,
                  "2011 (x200 on d_detect, the final release) | 2010 (April 2010)")
      ->capture_default_str();
  cmd->add_option("--input-class", args->input_class,
                  "auto | uint8 | double (uint8: 255 takes the luminance of 254, as the original "
                  "on imread arrays)")
      ->capture_default_str();
  cmd->add_option("--precision", args->precision,
                  "GPU arithmetic: double (faithful) | float (fast)")
      ->capture_default_str();
  cmd->add_option("--a5", args->a5, "GPU A5 local-statistics variant (see --list-variants)");
  cmd->add_option("--det-variant", args->det,
                  "GPU detection block-statistics variant (see --list-variants)");
  cmd->add_option(
      "--gpu-memory-limit", args->gpu_memory_limit,
      "GPU memory one image shape may use, e.g. 8GiB (default: the device's free memory)");
  cmd->add_option("--maps", args->maps_dir,
                  "Write map.HI and map.LO into this folder (16-bit PNG scaled to the maximum; "
                  "32-bit float TIFF when built with libtiff)");
  cmd->add_option("--threads", args->threads, "CPU worker threads (default: all cores)");
  cmd->add_flag("--json", args->json, "Print one JSON object");
  cmd->add_flag("--list-variants", args->list_variants, "List the GPU kernel variants and exit");
  auto run = [args]() -> int {
    if (args->threads > 0) set_thread_count(args->threads);
    if (args->list_variants) {
      std::cout << describe_variants();
      return kExitOk;
    }
    if (!args->pairs.empty()) {
      if (!args->ref.empty() || !args->dist.empty())
        throw InvalidArgument("give either REF DIST or --pairs LIST.csv, not both");
      if (!args->maps_dir.empty()) throw InvalidArgument("--maps is not available with --pairs");
      return run_pairs(*args);
    }
    return run_single(*args);
  };
  return {cmd, run};
}

}  // namespace mad::cli
