// The library side of `mad kernel` (STYLE rule 6: the CLI only parses, loads and prints):
// turning parsed arguments into a validated request and running it on a decoded image with
// either backend.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/compute_target.h"
#include "common/image_io.h"
#include "kernels/histogram.h"
#include "kernels/kernel_chain.h"
#include "kernels/kernel_format.h"
#include "kernels/kernel_variant.h"
#include "kernels/nick.h"

namespace mad::kernels {

// What the command line said, before any validation.
struct KernelArgs {
  std::string kernel;  // gray | darken | histogram | smooth | nick, or a chain "gray,smooth,nick"
  std::string input;
  std::string output;   // required for image kernels; optional for histogram (stdout)
  std::string variant;  // CUDA variant name; empty = the table's default
  std::string backend = "auto";
  std::optional<int> window;               // nick only
  std::optional<double> k;                 // nick only
  std::optional<std::string> even_window;  // nick only: "matlab" (default) or "seed"
  std::string border;                      // smooth only: clip (default) | wrap
};

struct KernelRequest {
  KernelKind kind = KernelKind::Gray;               // the last kernel of `chain`
  std::vector<KernelKind> chain{KernelKind::Gray};  // one kernel, or a chain (kernel_chain.h)
  std::string input, output, variant;
  // As asked (common/compute_target.h). run_kernel takes it resolved: the command's front door
  // replaces it by choose_backend(requested_backend(request)) (mad/backend_choice.h), the one
  // place a run's backend is chosen.
  Backend backend = Backend::Auto;
  NickParams nick;
  SmoothBorder border = SmoothBorder::Clip;
  // The format `output`'s extension names: image_format for image kernels (written with
  // save_image8), histogram_format for the histogram (Text when printed).
  ImageFileFormat image_format = ImageFileFormat::kPng;
  HistogramFormat histogram_format = HistogramFormat::Text;
};

// The backend `request` asks for: its --backend, except that a named --variant asks for the
// GPU under auto (a variant is a CUDA kernel). Cpu, Cuda or Auto; nothing is chosen here.
Backend requested_backend(const KernelRequest& request);

// True for the kernels whose result is an image (all but the histogram).
bool produces_image(KernelKind kind);

// Validates `args`; throws InvalidArgument with a message naming the bad argument (unknown
// kernel or backend, a chain in an order parse_kernel_chain refuses, missing input or output,
// an output extension this build does not write for the last kernel's result,
// --window/--k/--even-window without nick in the chain or out of range, --border without smooth
// or not clip/wrap, --variant with a chain, with the cpu backend or not registered).
KernelRequest make_kernel_request(const KernelArgs& args);

struct KernelOutcome {
  KernelKind kind = KernelKind::Gray;  // the last kernel that ran
  Backend backend = Backend::Cpu;      // the one that ran
  std::string variant;  // the CUDA variant that ran ("gray=V,smooth=V" for a chain), or "cpu"
  int width = 0, height = 0, input_channels = 0;
  RawImage8 image;  // image kernels: 1 channel, or 3 for smoothing of colour
  std::optional<Histogram> histogram;
  double seconds = 0;              // wall-clock time of the computation (CUDA: with transfers)
  std::vector<std::string> notes;  // e.g. "alpha channel ignored"
};

// Checks that `image` is a consistent, non-empty 8-bit image with 1..4 channels (InputError).
void validate_raw_image(const RawImage8& image);
// Drops the alpha channel of a 2- or 4-channel image; other images are returned unchanged.
RawImage8 drop_alpha(const RawImage8& image);

// Runs the request on a decoded image, on request.backend, which must be resolved (Cpu or Cuda;
// Auto throws Error: choosing is the front door's). Input rules: gray/darken need RGB or RGBA (a gray
// image is an InputError); histogram and nick take gray, or the MATLAB gray of RGB(A);
// smoothing works per channel; alpha is dropped with a note. Nick's window must fit. A chain
// runs its kernels in order, each on the previous one's output: on the CPU the references one
// after the other (exactly as single runs), on CUDA with the image kept on the device
// (run_chain_cuda, the same output).
KernelOutcome run_kernel(const KernelRequest& request, const RawImage8& image);

}  // namespace mad::kernels
