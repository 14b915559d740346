// `mad kernel KERNEL[,KERNEL...] IN [OUT] [--variant V] [--window W] [--k K]
//  [--even-window matlab|seed] [--border clip|wrap] [--backend auto|cpu|cuda] [--json] (KERNEL:
//  gray, darken, histogram, smooth, nick; a comma list is a chain kept on the device) and
//  `mad kernel --list-variants` (issue 4). Thin:
// validation, input rules and formats live in kernels/kernel_request.h and kernel_format.h.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>

#include "common/error.h"
#include "common/image_io.h"
#include "common/text_file.h"
#include "kernels/kernel_format.h"
#include "kernels/kernel_request.h"
#include "mad/backend_choice.h"
#include "tools/cli_commands.h"
#include "tools/cli_options.h"

namespace mad::cli {
namespace {

struct KernelCliState {
  kernels::KernelArgs args;
  int window = 0;
  double k = 0;
  std::string even_window;
  bool json = false;
  bool list_variants = false;
};

int run_kernel_command(const KernelCliState& state) {
  if (state.list_variants) {
    std::cout << kernels::format_variant_listing();
    return kExitOk;
  }
  kernels::KernelRequest request = kernels::make_kernel_request(state.args);
  // The run's one choice of a backend, as mad score's (a GpuError when CUDA is asked for and
  // absent).
  request.backend = choose_backend(kernels::requested_backend(request)).backend;
  const RawImage8 input = load_raw_image8(request.input);
  const kernels::KernelOutcome out = kernels::run_kernel(request, input);
  for (const std::string& note : out.notes)
    std::fprintf(stderr, "mad: note: %s: %s\n", request.input.c_str(), note.c_str());

  if (out.histogram && !request.output.empty())
    write_text_file(request.output, kernels::format_histogram(*out.histogram, request.histogram_format));
  else if (out.histogram && !state.json)
    std::cout << kernels::format_histogram(*out.histogram, kernels::HistogramFormat::Text);
  if (!out.histogram) save_image8(request.output, out.image, request.image_format);

  if (state.json) {
    nlohmann::json j;
    j["kernel"] = kernels::kernel_chain_name(request.chain);
    j["input"] = request.input;
    j["output"] = request.output.empty() ? nlohmann::json() : nlohmann::json(request.output);
    j["width"] = out.width;
    j["height"] = out.height;
    j["input_channels"] = out.input_channels;
    j["backend"] = to_string(out.backend);
    j["variant"] = out.variant;
    j["seconds"] = out.seconds;
    j["notes"] = out.notes;
    if (kernels::chain_contains(request.chain, kernels::KernelKind::Nick))
      j["nick"] = {{"window", request.nick.window},
                   {"k", request.nick.k},
                   {"even_window", kernels::nick_placement_name(request.nick.placement)}};
    if (kernels::chain_contains(request.chain, kernels::KernelKind::Smooth))
      j["border"] = kernels::smooth_border_name(request.border);
    if (out.histogram) j["histogram"] = *out.histogram;
    std::cout << j.dump() << '\n';
  }
  return kExitOk;
}

}  // namespace

Subcommand add_kernel_command(CLI::App& root) {
  auto state = std::make_shared<KernelCliState>();
  CLI::App* cmd = root.add_subcommand(
      "kernel", "Run one preprocessing kernel on an image (CPU reference or a CUDA variant)");
  cmd->add_option("KERNEL", state->args.kernel,
                  "gray | darken | histogram | smooth | nick, or a chain such as "
                  "gray,smooth,nick (gray/darken first, histogram last; kept on the device)");
  cmd->add_option("IN", state->args.input, "Input image (PNG, JPEG, TIFF, BMP, PGM/PPM; 8-bit)");
  cmd->add_option("OUT", state->args.output,
                  "Output image, its format named by the extension: .png, .tif/.tiff (with "
                  "libtiff), .bmp (with libstb); histogram: .csv, .json, or .txt / no extension "
                  "for text (default: text on standard output)");
  cmd->add_option("--variant", state->args.variant,
                  "CUDA variant (see --list-variants; default: the kernel's default)");
  CLI::Option* window =
      cmd->add_option("--window", state->window, "nick: window size w in [2, 101] (default 15)")
          ->check(decimal_integer());
  CLI::Option* k = cmd->add_option("--k", state->k, "nick: k in [-0.2, -0.01] (default -0.1)")
                       ->check(decimal_number());
  CLI::Option* even = cmd->add_option(
      "--even-window", state->even_window,
      "nick: where an even window lies: matlab (default; w x w, one more row/column after the "
      "pixel) | seed (seed 002: w/2 on each side, (w+1) x (w+1))");
  cmd->add_option("--border", state->args.border,
                  "smooth: clip (default: outside taps dropped) | wrap (the image as a torus)");
  cmd->add_option("--backend", state->args.backend, "auto | cpu | cuda")->capture_default_str();
  cmd->add_flag("--json", state->json, "Print one JSON object describing the run");
  CLI::Option* list = cmd->add_flag("--list-variants", state->list_variants,
                                    "List every kernel's variants and exit (takes nothing else)");
  // The listing ignores every other argument: refuse them rather than accept and drop them.
  for (CLI::Option* other : cmd->get_options())
    if (other != list && other != cmd->get_help_ptr()) list->excludes(other);
  auto run = [state, window, k, even]() {
    if (window->count() > 0) state->args.window = state->window;
    if (even->count() > 0) state->args.even_window = state->even_window;
    if (k->count() > 0) state->args.k = state->k;
    return run_kernel_command(*state);
  };
  return {cmd, run};
}

}  // namespace mad::cli
