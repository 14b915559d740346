#include "kernels/kernel_request.h"

#include <algorithm>
#include <chrono>

#include "common/error.h"
#include "common/gpu_info.h"
#include "kernels/gray.h"
#include "kernels/smooth.h"

namespace mad::kernels {

Backend requested_backend(const KernelRequest& request) {
  if (request.backend == Backend::Auto && !request.variant.empty())
    return Backend::Cuda;
  return request.backend;
}

bool produces_image(KernelKind kind) {
  return kind != KernelKind::Histogram;
}

namespace {

// The registry a single-kernel request's --variant names (smoothing's depends on --border).
const VariantNames& variant_names(const KernelRequest& r) {
  return r.kind == KernelKind::Smooth ? smooth_variants(r.border) : list_variants(r.kind);
}

}  // namespace

KernelRequest make_kernel_request(const KernelArgs& args) {
  if (args.kernel.empty())
    throw InvalidArgument(
        "mad kernel: name a kernel (gray, darken, histogram, smooth, nick) or use --list-variants");
  KernelRequest r;
  r.chain = parse_kernel_chain(args.kernel);
  r.kind = r.chain.back();
  const std::string name = kernel_chain_name(r.chain);
  const bool has_nick = chain_contains(r.chain, KernelKind::Nick);
  const bool has_smooth = chain_contains(r.chain, KernelKind::Smooth);
  if (args.input.empty())
    throw InvalidArgument("mad kernel " + name + ": an input image (IN) is required");
  if (args.output.empty() && produces_image(r.kind))
    throw InvalidArgument("mad kernel " + name +
                          ": an output path (OUT) is required for the result image");
  r.input = args.input;
  r.output = args.output;
  // Refused before the input is read: the extension decides what would be written.
  if (produces_image(r.kind))
    r.image_format = output_format_for_path(r.output);
  else if (!r.output.empty())
    r.histogram_format = histogram_format_for_path(r.output);
  r.backend = parse_backend(args.backend);
  if (!has_nick && (args.window || args.k || args.even_window))
    throw InvalidArgument("--window, --k and --even-window apply to nick only, not to " + name);
  if (args.window) r.nick.window = *args.window;
  if (args.k) r.nick.k = *args.k;
  if (args.even_window) r.nick.placement = parse_nick_placement(*args.even_window);
  if (has_nick) validate_nick_params(r.nick);
  if (!args.border.empty()) {
    if (!has_smooth) throw InvalidArgument("--border applies to smooth only, not to " + name);
    r.border = parse_smooth_border(args.border);
  }
  if (!args.variant.empty()) {
    if (r.chain.size() > 1)
      throw InvalidArgument(
          "--variant names one kernel's variant and cannot be given with the "
          "chain " +
          name + " (a chain runs each kernel's default variant)");
    if (r.backend == Backend::Cpu)
      throw InvalidArgument(
          "--variant selects a CUDA variant and cannot be combined with --backend cpu");
    if (!gpu_backend_compiled()) throw InvalidArgument("--variant: this build has no CUDA backend");
    r.variant = variant_names(r).resolve(args.variant);
  }
  return r;
}

void validate_raw_image(const RawImage8& image) {
  if (image.channels < 1 || image.channels > 4)
    throw InputError("unsupported image with " + std::to_string(image.channels) +
                     " channels (expected 1 to 4)");
  if (image.width <= 0 || image.height <= 0)
    throw InputError("the image is empty (" + std::to_string(image.width) + "x" +
                     std::to_string(image.height) + ")");
  if (image.samples.size() != static_cast<std::size_t>(image.width) * image.height * image.channels)
    throw InputError("image sample buffer does not match " + std::to_string(image.width) + "x" +
                     std::to_string(image.height) + "x" + std::to_string(image.channels));
}

RawImage8 drop_alpha(const RawImage8& image) {
  if (image.channels != 2 && image.channels != 4) return image;
  RawImage8 out;
  out.width = image.width;
  out.height = image.height;
  out.channels = image.channels - 1;
  out.samples.reserve(static_cast<std::size_t>(image.width) * image.height * out.channels);
  for (std::size_t i = 0; i < image.samples.size(); i += image.channels)
    out.samples.insert(out.samples.end(), image.samples.begin() + i,
                       image.samples.begin() + i + out.channels);
  return out;
}

namespace {

ImageView<const std::uint8_t> samples_view(const RawImage8& image) {
  const int row = image.width * image.channels;
  return ImageView<const std::uint8_t>(image.samples.data(), row, image.height, row);
}

RawImage8 to_raw(ImageView<const std::uint8_t> samples, int channels) {
  RawImage8 out;
  out.width = samples.width / channels;
  out.height = samples.height;
  out.channels = channels;
  out.samples.reserve(samples.pixel_count());
  for (int y = 0; y < samples.height; ++y)
    out.samples.insert(out.samples.end(), samples.row(y), samples.row(y) + samples.width);
  return out;
}

// The image as one gray plane: itself when it is gray, else its MATLAB gray on `backend`.
Image<std::uint8_t> gray_plane(const RawImage8& image, Backend backend) {
  if (image.channels == 1) return copy_image(samples_view(image));
  const RgbView8 rgb = interleaved_rgb(samples_view(image), image.channels);
  return backend == Backend::Cuda ? gray_cuda(rgb, GrayWeighting::Matlab)
                                  : gray_cpu(rgb, GrayWeighting::Matlab);
}

}  // namespace

namespace {

KernelOutcome run_single(const KernelRequest& request, const RawImage8& image);

// An outcome describing `image` and the request's last kernel, once the image is checked.
KernelOutcome start_outcome(const KernelRequest& request, const RawImage8& image) {
  validate_raw_image(image);
  KernelOutcome out;
  out.kind = request.kind;
  out.width = image.width;
  out.height = image.height;
  out.input_channels = image.channels;
  return out;
}

// A chain: on the CPU each kernel as a single run on the previous output (so a chain equals
// its kernels run one at a time), on CUDA with the image kept on the device.
KernelOutcome run_chain(const KernelRequest& request, const RawImage8& image) {
  KernelOutcome out = start_outcome(request, image);
  out.backend = request.backend;
  const auto start = std::chrono::steady_clock::now();
  if (out.backend == Backend::Cuda) {
    ChainOutput c = run_chain_cuda(request.chain, image, {request.nick, request.border});
    out.variant = chain_cuda_variants(request.chain, request.border);
    out.image = std::move(c.image);
    out.histogram = c.histogram;
    out.notes = std::move(c.notes);
  } else {
    out.variant = "cpu";
    RawImage8 current = image;
    for (KernelKind kind : request.chain) {
      KernelRequest stage = request;
      stage.kind = kind;
      stage.chain = {kind};
      stage.backend = Backend::Cpu;
      KernelOutcome o = run_single(stage, current);
      for (std::string& note : o.notes)
        if (std::find(out.notes.begin(), out.notes.end(), note) == out.notes.end())
          out.notes.push_back(std::move(note));
      out.histogram = o.histogram;
      current = std::move(o.image);
    }
    if (!out.histogram) out.image = std::move(current);
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace

KernelOutcome run_kernel(const KernelRequest& request, const RawImage8& image) {
  if (request.backend == Backend::Auto)
    throw Error("run_kernel: the backend must be chosen before the run (choose_backend)");
  return request.chain.size() > 1 ? run_chain(request, image) : run_single(request, image);
}

namespace {

KernelOutcome run_single(const KernelRequest& request, const RawImage8& image) {
  KernelOutcome out = start_outcome(request, image);
  out.backend = request.backend;
  const bool cuda = out.backend == Backend::Cuda;
  out.variant = "cpu";
  if (cuda) out.variant = variant_names(request).resolve(request.variant);
  CudaRunOptions options;
  options.variant = request.variant;

  const auto start = std::chrono::steady_clock::now();
  switch (request.kind) {
    case KernelKind::Gray:
    case KernelKind::Darken: {
      const RgbView8 rgb =
          interleaved_rgb(samples_view(image), image.channels);  // 3 or 4, else InputError
      if (image.channels == 4) out.notes.push_back(kNoteAlphaIgnored);
      const GrayWeighting w =
          request.kind == KernelKind::Gray ? GrayWeighting::Matlab : GrayWeighting::Darken;
      const Image<std::uint8_t> g = cuda ? gray_cuda(rgb, w, options) : gray_cpu(rgb, w);
      out.image = to_raw(g.cview(), 1);
      break;
    }
    case KernelKind::Histogram:
    case KernelKind::Nick: {
      const RawImage8 opaque = drop_alpha(image);
      if (opaque.channels != image.channels) out.notes.push_back(kNoteAlphaIgnored);
      if (opaque.channels == 3) out.notes.push_back(kNoteColourToGray);
      const Image<std::uint8_t> gray = gray_plane(opaque, out.backend);
      if (request.kind == KernelKind::Histogram) {
        out.histogram = cuda ? histogram_cuda(gray.cview(), options) : histogram_cpu(gray.cview());
      } else {
        const Image<std::uint8_t> mask = cuda ? nick_cuda(gray.cview(), request.nick, options)
                                              : nick_cpu(gray.cview(), request.nick);
        out.image = to_raw(mask.cview(), 1);
      }
      break;
    }
    case KernelKind::Smooth: {
      const RawImage8 opaque = drop_alpha(image);
      if (opaque.channels != image.channels) out.notes.push_back(kNoteAlphaIgnored);
      const ImageView<const std::uint8_t> in = samples_view(opaque);
      const Image<std::uint8_t> s = cuda ? smooth_cuda(in, opaque.channels, options, request.border)
                                         : smooth_cpu(in, opaque.channels, request.border);
      out.image = to_raw(s.cview(), opaque.channels);
      break;
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace

}  // namespace mad::kernels
